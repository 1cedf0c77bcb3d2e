import { useEffect, useReducer, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { Alert } from '../../components/Alert';
import { ApiError } from '../../lib/api';
import { fetchPost } from './api';
import { SkeletonCard } from './Feed';
import { feedReducer, initialFeedState } from './feedState';
import { PostCard } from './PostCard';
import { FeedDispatchContext } from './useFeed';

export const POST_GONE_TEXT = 'Esta publicación ya no está disponible';
export const POST_LOAD_FAILED_TEXT = 'No se pudo cargar la publicación';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Phase = 'loading' | 'ready' | 'gone' | 'error';

const prefersReducedMotion = () => typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;

/**
 * The post a link names (`/wall?post={id}`, e.g. from a notification), above the wall's feed: a
 * skeleton, then the card with its comments open, scrolled into view and focused; 'Esta publicación
 * ya no está disponible' when it does not exist, is not visible to the reader, or is deleted while
 * shown. The card keeps a one-post feed of its own, so its edits, reactions and live messages (it
 * watches `post:{id}` while on screen, like any card) land on it.
 */
export function FocusedPost({ postId }: { postId: string }) {
  const valid = UUID.test(postId);
  const [phase, setPhase] = useState<Phase>(valid ? 'loading' : 'gone');
  const [attempt, setAttempt] = useState(0);
  const [state, dispatch] = useReducer(feedReducer, initialFeedState);
  const section = useRef<HTMLElement>(null);

  useEffect(() => {
    if (!valid) return;
    const controller = new AbortController();
    // eslint-disable-next-line react-hooks/set-state-in-effect -- a (re)load of the post starts here, with its loading phase
    setPhase('loading');
    fetchPost(postId, controller.signal).then(
      (post) => {
        dispatch({ type: 'page-loaded', generation: 0, page: { posts: [post], total: 1, hasMore: false, nextCursor: null }, append: false });
        setPhase('ready');
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        console.debug(POST_LOAD_FAILED_TEXT, error);
        // 404: deleted or never there; 403/400: not the reader's to see, or not a post id.
        const gone = error instanceof ApiError && [400, 403, 404].includes(error.status);
        setPhase(gone ? 'gone' : 'error');
      },
    );
    return () => controller.abort();
  }, [postId, valid, attempt]);

  // Once there is something to read, bring it into view and move the screen reader there.
  const settled = phase !== 'loading';
  useEffect(() => {
    const element = section.current;
    if (!settled || !element) return;
    if (typeof element.scrollIntoView === 'function') {
      element.scrollIntoView({ block: 'start', behavior: prefersReducedMotion() ? 'auto' : 'smooth' });
    }
    element.focus({ preventScroll: true });
  }, [settled]);

  const post = state.posts[0];
  // Deleted live while shown: the card's feed drops it.
  const gone = phase === 'gone' || (phase === 'ready' && !post);

  return (
    <section
      ref={section}
      tabIndex={-1}
      aria-labelledby="focused-post-title"
      aria-busy={phase === 'loading'}
      className="scroll-mt-4 space-y-3 rounded-3xl focus:outline-none focus-visible:ring-2 focus-visible:ring-fuchsia-500 md:scroll-mt-24"
    >
      <div className="flex items-center justify-between gap-2 px-1">
        <h2 id="focused-post-title" className="text-lg font-bold">
          Publicación
        </h2>
        <Link
          to="/wall"
          className="rounded-full px-3 py-1.5 text-sm font-semibold text-fuchsia-700 ring-1 ring-fuchsia-300 hover:bg-fuchsia-50 dark:text-fuchsia-300 dark:ring-fuchsia-500/40 dark:hover:bg-white/5"
        >
          Ver todo el muro
        </Link>
      </div>

      {phase === 'loading' && (
        <div>
          <p role="status" className="sr-only">
            Cargando publicación…
          </p>
          <SkeletonCard />
        </div>
      )}

      {gone && <Alert>{POST_GONE_TEXT}</Alert>}

      {phase === 'error' && (
        <Alert>
          <p>{POST_LOAD_FAILED_TEXT}</p>
          <button
            type="button"
            onClick={() => setAttempt((n) => n + 1)}
            className="mt-2 rounded-full bg-rose-600 px-4 py-1.5 text-sm font-bold text-white hover:bg-rose-700"
          >
            Reintentar
          </button>
        </Alert>
      )}

      {phase === 'ready' && post && (
        <FeedDispatchContext.Provider value={dispatch}>
          <PostCard post={post} openComments />
        </FeedDispatchContext.Provider>
      )}
    </section>
  );
}
