import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { FeedSort } from '@tribuna/contracts/wallRules';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { useSessionStore } from '../../lib/session/sessionStore';
import { Composer } from './Composer';
import { FeedList, GLOBAL_EMPTY } from './Feed';
import { FocusedPost } from './FocusedPost';
import { useFeed } from './useFeed';
import { useFollowingEmpty } from './followingEmpty';

const SORTS: ReadonlyArray<{ value: FeedSort; label: string }> = [
  { value: 'activity', label: '🔥 Última actividad' },
  { value: 'recent', label: '🆕 Más recientes' },
];

/** `?ver=siguiendo`: the 'Siguiendo' wall (kept in the address, so back and reload return to it). */
const FOLLOWING_PARAM = 'ver';
const FOLLOWING_VALUE = 'siguiendo';

const toggleClass =
  'rounded-full px-4 py-2 text-sm font-semibold text-slate-700 ring-1 ring-slate-300 transition hover:bg-slate-100 aria-pressed:bg-fuchsia-600 aria-pressed:text-white aria-pressed:ring-fuchsia-600 dark:text-slate-200 dark:ring-white/15 dark:hover:bg-white/5 dark:aria-pressed:bg-fuchsia-600';

/**
 * /wall: the community wall (spec §2): composer, 'Todos' / 'Siguiendo' (signed in: the posts of the
 * people one follows), sort toggle and the feed. `?post={id}` (a notification's link) shows that
 * post first, focused (FocusedPost), and keeps it out of the feed.
 */
export function WallPage() {
  useDocumentTitle('Muro');
  const signedIn = useSessionStore((state) => state.user !== null);
  const [sort, setSort] = useState<FeedSort>('activity');
  const [params, setParams] = useSearchParams();
  const following = signedIn && params.get(FOLLOWING_PARAM) === FOLLOWING_VALUE;
  const feed = useFeed(following ? { sort, following } : { sort });
  const focusedId = params.get('post') || null;
  const followingEmpty = useFollowingEmpty(following && feed.state.status === 'ready' && feed.state.posts.length === 0);

  function showFollowing(show: boolean) {
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (show) next.set(FOLLOWING_PARAM, FOLLOWING_VALUE);
        else next.delete(FOLLOWING_PARAM);
        return next;
      },
      { replace: true },
    );
  }

  return (
    <div className="mx-auto max-w-2xl space-y-4 px-3 pt-6 pb-24 sm:px-4 md:pb-12">
      <header className="px-1">
        <h1 className="text-3xl font-black tracking-tight">Muro</h1>
        <p className="mt-1 text-slate-600 dark:text-slate-400">Comparte tus opiniones sobre el programa con otros fans.</p>
      </header>

      {focusedId && <FocusedPost key={focusedId} postId={focusedId} />}

      <Composer onCreated={(post) => feed.dispatch({ type: 'prepend', post })} />

      <div className="flex flex-wrap items-center justify-between gap-2">
        {signedIn && (
          <div role="group" aria-label="Mostrar publicaciones" className="flex gap-1 rounded-full bg-slate-200/70 p-1 dark:bg-white/10">
            {[false, true].map((value) => (
              <button
                key={String(value)}
                type="button"
                aria-pressed={following === value}
                onClick={() => showFollowing(value)}
                className="rounded-full px-4 py-1.5 text-sm font-bold text-slate-700 transition hover:bg-white/70 aria-pressed:bg-white aria-pressed:text-fuchsia-700 aria-pressed:shadow-sm dark:text-slate-200 dark:hover:bg-white/10 dark:aria-pressed:bg-ink-900 dark:aria-pressed:text-fuchsia-300"
              >
                {value ? 'Siguiendo' : 'Todos'}
              </button>
            ))}
          </div>
        )}
        <div role="group" aria-label="Ordenar publicaciones" className="flex gap-2">
          {SORTS.map((option) => (
            <button key={option.value} type="button" aria-pressed={sort === option.value} onClick={() => setSort(option.value)} className={toggleClass}>
              {option.label}
            </button>
          ))}
        </div>
      </div>

      <FeedList feed={feed} empty={following ? followingEmpty : GLOBAL_EMPTY} omitPostId={focusedId} />
    </div>
  );
}
