import { useId, useState } from 'react';
import type { SafetyEntry } from '@tribuna/contracts/api/moderation';
import { MODERATION_MESSAGES, SAFETY_UI } from '@tribuna/contracts/moderationRules';
import { PersonRow } from '../../components/PersonRow';
import { LoadMoreButton, TabError } from '../../components/ListStates';
import { errorMessage } from '../../lib/api';
import { displayNameOf } from '../../lib/displayName';
import { usePagedList } from '../../lib/usePagedList';
import { fetchSafetyList, removeFromSafetyList, type SafetyListKind } from './api';

const LISTS: Record<SafetyListKind, { title: string; empty: string; removeLabel: (name: string) => string }> = {
  muted: { title: SAFETY_UI.mutedListTitle, empty: MODERATION_MESSAGES.mutedListEmpty, removeLabel: SAFETY_UI.removeMuted },
  blocked: { title: SAFETY_UI.blockedListTitle, empty: MODERATION_MESSAGES.blockedListEmpty, removeLabel: SAFETY_UI.removeBlocked },
};

/** The own profile's settings: the people the fan muted and blocked, each with 'Quitar'. */
export function SafetySettings() {
  return (
    <div className="space-y-6">
      <SafetyList kind="muted" />
      <SafetyList kind="blocked" />
    </div>
  );
}

type Row = SafetyEntry & { id: string };

const pulse = 'rounded bg-slate-200 motion-safe:animate-pulse dark:bg-white/10';

function RowsSkeleton() {
  return (
    <div aria-busy="true" className="space-y-3">
      <p role="status" className="sr-only">
        Cargando…
      </p>
      {[0, 1].map((i) => (
        <div key={i} aria-hidden="true" className="flex items-center gap-3">
          <div className={`size-10 rounded-full! ${pulse}`} />
          <div className="flex-1 space-y-2">
            <div className={`h-3 w-1/2 ${pulse}`} />
            <div className={`h-2.5 w-1/4 ${pulse}`} />
          </div>
        </div>
      ))}
    </div>
  );
}

/** One list: newest first, 'Cargar más', and 'Quitar' (unmute or unblock) per person. */
function SafetyList({ kind }: { kind: SafetyListKind }) {
  const { title, empty, removeLabel } = LISTS[kind];
  const titleId = useId();
  const { state, loadMore, reload } = usePagedList<Row>(async (cursor, signal) => {
    const page = await fetchSafetyList(kind, cursor, signal);
    return { items: page.items.map((entry) => ({ ...entry, id: entry.user.id })), nextCursor: page.nextCursor };
  });
  // People taken off the list here (the list is not read again).
  const [removed, setRemoved] = useState<ReadonlySet<string>>(new Set());
  const [removing, setRemoving] = useState<ReadonlySet<string>>(new Set());
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  async function remove(row: Row) {
    if (removing.has(row.id)) return;
    setRemoving((current) => new Set(current).add(row.id));
    setError(null);
    setDone(null);
    try {
      await removeFromSafetyList(kind, row.id);
      setRemoved((current) => new Set(current).add(row.id));
      setDone(kind === 'muted' ? SAFETY_UI.unmuted : SAFETY_UI.unblocked);
    } catch (failure) {
      console.debug(SAFETY_UI.changeFailed, failure);
      setError(errorMessage(failure, SAFETY_UI.changeFailed));
    } finally {
      setRemoving((current) => {
        const next = new Set(current);
        next.delete(row.id);
        return next;
      });
    }
  }

  const rows = state.status === 'ready' ? state.items.filter((row) => !removed.has(row.id)) : [];
  return (
    <section aria-labelledby={titleId} className="space-y-3 rounded-3xl bg-white p-4 ring-1 ring-slate-200/70 sm:p-5 dark:bg-ink-900 dark:ring-white/10">
      <h3 id={titleId} className="font-bold">
        {title}
      </h3>
      {state.status === 'loading' && <RowsSkeleton />}
      {state.status === 'error' && <TabError message={errorMessage(state.error, SAFETY_UI.listLoadFailed)} onRetry={reload} />}
      {state.status === 'ready' && rows.length === 0 && !state.nextCursor && <p className="text-sm text-slate-600 dark:text-slate-300">{empty}</p>}
      {rows.length > 0 && (
        <ul className="space-y-3" aria-labelledby={titleId}>
          {rows.map((row) => {
            const name = displayNameOf(row.user);
            return (
              <PersonRow key={row.id} user={row.user}>
                <button
                  type="button"
                  onClick={() => void remove(row)}
                  disabled={removing.has(row.id)}
                  aria-label={removeLabel(name)}
                  className="inline-flex min-h-10 shrink-0 items-center rounded-full px-4 text-sm font-bold text-slate-800 ring-1 ring-slate-300 transition hover:bg-slate-100 disabled:opacity-60 dark:text-slate-100 dark:ring-white/20 dark:hover:bg-white/10"
                >
                  {SAFETY_UI.remove}
                </button>
              </PersonRow>
            );
          })}
        </ul>
      )}
      {state.status === 'ready' && state.moreError !== null && (
        <p role="alert" className="text-sm font-medium text-rose-600 dark:text-rose-400">
          {errorMessage(state.moreError, SAFETY_UI.listLoadFailed)}
        </p>
      )}
      {error && (
        <p role="alert" className="text-sm font-medium text-rose-600 dark:text-rose-400">
          {error}
        </p>
      )}
      <p role="status" className={done ? 'text-sm font-medium text-emerald-700 dark:text-emerald-300' : 'sr-only'}>
        {done}
      </p>
      {state.status === 'ready' && state.nextCursor && <LoadMoreButton onClick={loadMore} loading={state.loadingMore} />}
    </section>
  );
}
