import { useCallback, useEffect, useRef } from 'react';
import type { PostView } from '@tribuna/contracts/api/wall';
import { WALL_LIMITS, WALL_MESSAGES } from '@tribuna/contracts/wallRules';
import { Alert } from '../../components/Alert';
import { CloseButton } from '../../components/CloseButton';
import type { FeedFilters } from './api';
import { useSessionStore } from '../../lib/session/sessionStore';
import { useLatest } from '../../lib/useLatest';
import { PostCard } from './PostCard';
import { FeedDispatchContext, liveFeedTopic, useFeed, type Feed } from './useFeed';
import { useVideoUploads, videoUploadsScope } from './useVideoUploads';
import { VideoUploadCards } from './VideoUploadCards';

export interface EmptyText {
  title: string;
  /** A second line ('' for none). */
  body: string;
}

/** How a feed other than the wall speaks and pages (the profile's posts tab). */
export interface FeedListOptions {
  empty?: EmptyText;
  /** The error of a failed first page (default 'Error al cargar publicaciones'). */
  loadFailedText?: string;
  /** The label of the next-page button (default 'Cargar más publicaciones'). */
  moreLabel?: string;
  /** False: pages load only with the button, no infinite scroll. */
  infinite?: boolean;
  /** Cards show the group ('En {group}'), 'Fijado' and the visibility badge (profiles). */
  details?: boolean;
  /** A post shown elsewhere on the page (the wall's focused post, `?post=`): left out of the list. */
  omitPostId?: string | null;
}

export const GLOBAL_EMPTY: EmptyText = { title: 'No hay publicaciones', body: 'Sé el primero en publicar algo.' };
export const USER_EMPTY: EmptyText = { title: 'No hay publicaciones', body: 'Este usuario aún no ha publicado nada.' };
export const OWN_EMPTY: EmptyText = { title: 'No hay publicaciones', body: 'Aún no has publicado nada.' };
export const GROUP_EMPTY: EmptyText = { title: 'No hay publicaciones', body: 'Nadie ha publicado en este grupo todavía.' };

export const newPostsLabel = (n: number) => (n === 1 ? '1 publicación nueva' : `${n} publicaciones nuevas`);

const prefersReducedMotion = () => typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;

/** A card-shaped grey placeholder while the first page loads (also the focused post's, FocusedPost). */
export function SkeletonCard() {
  return (
    <div aria-hidden="true" className="space-y-3 rounded-3xl bg-white p-4 ring-1 ring-slate-200/70 sm:p-5 dark:bg-ink-900 dark:ring-white/10">
      <div className="flex items-center gap-3">
        <div className="size-10 rounded-full bg-slate-200 motion-safe:animate-pulse dark:bg-white/10" />
        <div className="flex-1 space-y-2">
          <div className="h-3 w-1/3 rounded bg-slate-200 motion-safe:animate-pulse dark:bg-white/10" />
          <div className="h-2.5 w-1/5 rounded bg-slate-200 motion-safe:animate-pulse dark:bg-white/10" />
        </div>
      </div>
      <div className="h-3 w-full rounded bg-slate-200 motion-safe:animate-pulse dark:bg-white/10" />
      <div className="h-3 w-4/5 rounded bg-slate-200 motion-safe:animate-pulse dark:bg-white/10" />
    </div>
  );
}

/**
 * The posts of a feed (useFeed): skeletons, the error with Reintentar, the empty state, the cards,
 * infinite scroll with a 'Cargar más publicaciones' button, a group's pinned posts on top, and on
 * the global wall and a group's the live 'N publicaciones nuevas' button.
 */
export function FeedList({
  feed,
  empty = GLOBAL_EMPTY,
  loadFailedText = WALL_MESSAGES.loadFailed,
  moreLabel = 'Cargar más publicaciones',
  infinite = true,
  details = false,
  omitPostId = null,
}: FeedListOptions & { feed: Feed }) {
  const { state, loadMore, reload, dispatch } = feed;
  const posts = omitPostId ? state.posts.filter((post) => post.id !== omitPostId) : state.posts;
  const sentinel = useRef<HTMLDivElement>(null);
  const live = liveFeedTopic(feed.filters) !== null;
  const autoLoad = infinite && state.status === 'ready' && state.hasMore && !state.loadingMore && state.moreError === null;

  // The author's clips being processed ('Procesando video…') lead their feeds; a published one
  // takes its card's place as a post.
  const viewerId = useSessionStore((s) => s.user?.id ?? null);
  const scope = videoUploadsScope(feed.filters, viewerId);
  const scopeRef = useLatest(scope);
  const onVideoPublished = useCallback(
    (post: PostView) => {
      if (scopeRef.current?.(post.groupId)) dispatch({ type: 'prepend', post });
    },
    [dispatch, scopeRef],
  );
  useVideoUploads(scope ? viewerId : null, onVideoPublished);

  // Infinite scroll: the next page loads when the end comes within 200 px. Re-observed after each
  // page, so a short page that leaves the end in view loads the next one too.
  useEffect(() => {
    const target = sentinel.current;
    if (!autoLoad || !target || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) loadMore();
      },
      { rootMargin: `${WALL_LIMITS.infiniteScrollMarginPx}px` },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [autoLoad, loadMore, state.posts.length]);

  function showNewPosts() {
    reload();
    window.scrollTo({ top: 0, behavior: prefersReducedMotion() ? 'auto' : 'smooth' });
  }

  return (
    <FeedDispatchContext.Provider value={dispatch}>
      {live && (
        <div aria-live="polite" className="pointer-events-none sticky top-2 z-20 flex justify-center md:top-20">
          {state.newPosts > 0 && (
            <button
              type="button"
              onClick={showNewPosts}
              className="brand-gradient pointer-events-auto rounded-full px-4 py-2 text-sm font-bold text-white shadow-lg shadow-fuchsia-900/30"
            >
              ↑ {newPostsLabel(state.newPosts)}
            </button>
          )}
        </div>
      )}

      {scope && <VideoUploadCards show={scope} />}

      {state.status === 'loading' && (
        <div aria-busy="true" className="space-y-4">
          <p role="status" className="sr-only">
            Cargando publicaciones…
          </p>
          <SkeletonCard />
          <SkeletonCard />
          <SkeletonCard />
        </div>
      )}

      {state.status === 'error' && (
        <Alert>
          <p>{loadFailedText}</p>
          <button type="button" onClick={reload} className="mt-2 rounded-full bg-rose-600 px-4 py-1.5 text-sm font-bold text-white hover:bg-rose-700">
            Reintentar
          </button>
        </Alert>
      )}

      {state.status === 'ready' && state.pinned.length > 0 && (
        <section aria-label="Publicaciones fijadas" className="space-y-4">
          {state.pinned.map((post) => (
            <PostCard key={post.id} post={post} details={details} />
          ))}
        </section>
      )}

      {state.status === 'ready' && posts.length === 0 && state.pinned.length === 0 && (
        <div className="rounded-3xl bg-white px-6 py-12 text-center ring-1 ring-slate-200/70 dark:bg-ink-900 dark:ring-white/10">
          <p className="text-lg font-bold">{empty.title}</p>
          {empty.body && <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{empty.body}</p>}
        </div>
      )}

      {state.status === 'ready' && posts.length > 0 && (
        <div className="space-y-4">
          {posts.map((post) => (
            <PostCard key={post.id} post={post} details={details} />
          ))}

          {state.moreError && (
            <Alert>
              <div className="flex items-start justify-between gap-2">
                <span>{state.moreError}</span>
                <CloseButton
                  onClick={() => dispatch({ type: 'dismiss-more-error' })}
                  label="Cerrar aviso"
                  className="-mt-1 -mr-2 size-7 shrink-0 hover:bg-rose-100 dark:hover:bg-white/10"
                  iconClassName="size-4"
                />
              </div>
            </Alert>
          )}

          <div ref={sentinel} aria-hidden="true" />
          {state.hasMore ? (
            <div className="flex justify-center">
              <button
                type="button"
                onClick={loadMore}
                disabled={state.loadingMore}
                className="rounded-full px-5 py-2.5 text-sm font-bold text-fuchsia-700 ring-1 ring-fuchsia-300 hover:bg-fuchsia-50 disabled:opacity-60 dark:text-fuchsia-300 dark:ring-fuchsia-500/40 dark:hover:bg-white/5"
              >
                {state.loadingMore ? 'Cargando…' : moreLabel}
              </button>
            </div>
          ) : (
            <p className="py-4 text-center text-sm text-slate-500 dark:text-slate-400">No hay más publicaciones que mostrar</p>
          )}
        </div>
      )}
    </FeedDispatchContext.Provider>
  );
}

/** A filtered feed on its own (the profile's posts tab: `<PostFeed filters={{ userId, sort: 'recent' }} details … />`). */
export function PostFeed({ filters, ...options }: FeedListOptions & { filters: FeedFilters }) {
  const feed = useFeed(filters);
  return <FeedList feed={feed} {...options} />;
}
