import { useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { FeedSort } from '@tribuna/contracts/wallRules';
import { useDocumentTitle } from '../../lib/useDocumentTitle';
import { Composer } from './Composer';
import { FeedList, GLOBAL_EMPTY } from './Feed';
import { FocusedPost } from './FocusedPost';
import { useFeed } from './useFeed';

const SORTS: ReadonlyArray<{ value: FeedSort; label: string }> = [
  { value: 'activity', label: '🔥 Última actividad' },
  { value: 'recent', label: '🆕 Más recientes' },
];

/**
 * /wall: the community wall (spec §2): composer, sort toggle and the global feed. `?post={id}`
 * (a notification's link) shows that post first, focused (FocusedPost), and keeps it out of the feed.
 */
export function WallPage() {
  useDocumentTitle('Muro');
  const [sort, setSort] = useState<FeedSort>('activity');
  const feed = useFeed({ sort });
  const focusedId = useSearchParams()[0].get('post') || null;

  return (
    <div className="mx-auto max-w-2xl space-y-4 px-3 pt-6 pb-24 sm:px-4 md:pb-12">
      <header className="px-1">
        <h1 className="text-3xl font-black tracking-tight">Muro</h1>
        <p className="mt-1 text-slate-600 dark:text-slate-400">Comparte tus opiniones sobre el programa con otros fans.</p>
      </header>

      {focusedId && <FocusedPost key={focusedId} postId={focusedId} />}

      <Composer onCreated={(post) => feed.dispatch({ type: 'prepend', post })} />

      <div role="group" aria-label="Ordenar publicaciones" className="flex gap-2">
        {SORTS.map((option) => (
          <button
            key={option.value}
            type="button"
            aria-pressed={sort === option.value}
            onClick={() => setSort(option.value)}
            className="rounded-full px-4 py-2 text-sm font-semibold text-slate-700 ring-1 ring-slate-300 transition hover:bg-slate-100 aria-pressed:bg-fuchsia-600 aria-pressed:text-white aria-pressed:ring-fuchsia-600 dark:text-slate-200 dark:ring-white/15 dark:hover:bg-white/5 dark:aria-pressed:bg-fuchsia-600"
          >
            {option.label}
          </button>
        ))}
      </div>

      <FeedList feed={feed} empty={GLOBAL_EMPTY} omitPostId={focusedId} />
    </div>
  );
}
