import { useRef, useState } from 'react';
import type { FollowEntry } from '@tribuna/contracts/api/profiles';
import { FOLLOW_MESSAGES } from '@tribuna/contracts/followRules';
import { PersonRow } from '../../components/PersonRow';
import { Modal } from '../../components/Modal';
import { errorMessage } from '../../lib/api';
import { displayNameOf } from '../../lib/displayName';
import { useSessionStore } from '../../lib/session/sessionStore';
import { fetchFollowList, type FollowListKind } from './api';
import { FollowButton } from './FollowButton';
import { LoadMoreButton, TabError } from '../../components/ListStates';
import { usePagedList } from '../../lib/usePagedList';

export const FOLLOW_LIST_TITLES: Record<FollowListKind, string> = { followers: 'Seguidores', following: 'Siguiendo' };

const EMPTY: Record<FollowListKind, { own: string; other: string }> = {
  followers: { own: 'Todavía no tienes seguidores', other: 'Todavía no tiene seguidores' },
  following: { own: 'Todavía no sigues a nadie', other: 'Todavía no sigue a nadie' },
};

type Row = FollowEntry & { id: string };

const pulse = 'rounded bg-slate-200 motion-safe:animate-pulse dark:bg-white/10';

function RowsSkeleton() {
  return (
    <div aria-busy="true" className="space-y-4 py-1">
      <p role="status" className="sr-only">
        Cargando…
      </p>
      {[0, 1, 2, 3].map((i) => (
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

interface FollowListDialogProps {
  kind: FollowListKind;
  userId: string;
  /** The profile is the viewer's own (the empty texts speak to them). */
  own: boolean;
  onClose: () => void;
  /** The viewer followed (+1) or stopped following (-1) someone from the list. */
  onViewerFollowChange?: (delta: 1 | -1) => void;
}

/** 'Seguidores' / 'Siguiendo' of a profile: newest first, 'Cargar más', each fan linking to their profile with a follow button. */
export function FollowListDialog({ kind, userId, own, onClose, onViewerFollowChange }: FollowListDialogProps) {
  const viewerId = useSessionStore((state) => state.user?.id ?? null);
  const { state, loadMore, reload } = usePagedList<Row>(async (cursor, signal) => {
    const page = await fetchFollowList(kind, userId, cursor, signal);
    return { items: page.items.map((entry) => ({ ...entry, id: entry.user.id })), nextCursor: page.nextCursor };
  });
  // The viewer's follows changed here, by person (the list itself is not read again). The ref is
  // read by the toggle's later calls (server answer, rollback), which hold an older render's props.
  const [changed, setChanged] = useState<Record<string, boolean>>({});
  const changedRef = useRef(changed);

  function onChange(entry: Row, following: boolean) {
    const before = changedRef.current[entry.id] ?? entry.viewerFollows;
    if (before === following) return;
    onViewerFollowChange?.(following ? 1 : -1);
    changedRef.current = { ...changedRef.current, [entry.id]: following };
    setChanged(changedRef.current);
  }

  return (
    <Modal title={FOLLOW_LIST_TITLES[kind]} onClose={onClose}>
      {state.status === 'loading' && <RowsSkeleton />}
      {state.status === 'error' && <TabError message={errorMessage(state.error, FOLLOW_MESSAGES.loadFailed)} onRetry={reload} />}
      {state.status === 'ready' && state.items.length === 0 && (
        <p className="py-8 text-center font-semibold text-slate-600 dark:text-slate-300">{own ? EMPTY[kind].own : EMPTY[kind].other}</p>
      )}
      {state.status === 'ready' && state.items.length > 0 && (
        <div className="space-y-4">
          <ul className="space-y-3" aria-label={FOLLOW_LIST_TITLES[kind]}>
            {state.items.map((entry) => {
              const name = displayNameOf(entry.user);
              return (
                <PersonRow key={entry.id} user={entry.user}>
                  {viewerId !== null && viewerId !== entry.user.id && (
                    <FollowButton
                      size="sm"
                      userId={entry.user.id}
                      name={name}
                      state={{ following: changed[entry.id] ?? entry.viewerFollows }}
                      onChange={(next) => onChange(entry, next.following)}
                    />
                  )}
                </PersonRow>
              );
            })}
          </ul>
          {state.moreError !== null && (
            <p role="alert" className="text-center text-sm font-medium text-rose-600 dark:text-rose-400">
              {errorMessage(state.moreError, FOLLOW_MESSAGES.loadFailed)}
            </p>
          )}
          {state.nextCursor && <LoadMoreButton onClick={loadMore} loading={state.loadingMore} />}
        </div>
      )}
    </Modal>
  );
}
