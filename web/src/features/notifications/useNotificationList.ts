import { useCallback, useEffect, useReducer, useRef } from 'react';
import type { NotificationPage } from '@tribuna/contracts/api/notifications';
import { callApi } from '../../lib/api';
import { initialListState, listReducer } from './notificationList';
import { adoptCountFrom, useUnreadStore } from './unreadStore';

const isAbort = (error: unknown) => error instanceof DOMException && error.name === 'AbortError';

/** Runs `action` now if the tab is visible, else once it becomes visible; returns a cancel. */
function whenVisible(action: () => void): () => void {
  if (document.visibilityState !== 'hidden') {
    action();
    return () => {};
  }
  const onChange = () => {
    if (document.visibilityState === 'hidden') return;
    document.removeEventListener('visibilitychange', onChange);
    action();
  };
  document.addEventListener('visibilitychange', onChange);
  return () => document.removeEventListener('visibilitychange', onChange);
}

/**
 * /notificaciones' list: the first page, 'Cargar más' pages, and while the screen is open the
 * first page again on every live change (a new or removed entry, a resync). What the first page
 * shows is marked read once the tab is visible (POST with `upTo` = its newest entry), and the badge
 * takes the count the server answers.
 */
export function useNotificationList() {
  const [state, dispatch] = useReducer(listReducer, initialListState);
  const listVersion = useUnreadStore((store) => store.listVersion);
  const [attempt, retry] = useReducer((n: number) => n + 1, 0);
  const controllers = useRef(new Set<AbortController>());
  const cancelMarkRead = useRef<() => void>(() => {});
  const cursor = state.status === 'ready' ? state.nextCursor : null;
  const busy = state.status === 'ready' && state.loadingMore;

  const track = useCallback(() => {
    const controller = new AbortController();
    controllers.current.add(controller);
    return { signal: controller.signal, done: () => controllers.current.delete(controller) };
  }, []);

  const markRead = useCallback((page: NotificationPage) => {
    cancelMarkRead.current();
    const newest = page.items[0];
    if (!newest || page.unreadCount === 0) return;
    cancelMarkRead.current = whenVisible(() => {
      adoptCountFrom(() => callApi('markNotificationsRead', { body: { upTo: newest.createdAt } })).catch((error: unknown) =>
        console.debug('No se pudieron marcar las notificaciones como leídas', error),
      );
    });
  }, []);

  // The first page: on mount and on Reintentar.
  useEffect(() => {
    const controller = new AbortController();
    const { signal } = controller;
    dispatch({ type: 'loading' });
    callApi('notifications', { signal }).then(
      (page) => {
        if (signal.aborted) return;
        dispatch({ type: 'first-page', page });
        markRead(page);
      },
      (error: unknown) => {
        if (!signal.aborted && !isAbort(error)) dispatch({ type: 'failed', error });
      },
    );
    return () => controller.abort();
  }, [attempt, markRead]);

  // A live change while the screen is open: the first page again (a failure keeps what is shown).
  const seenVersion = useRef(listVersion);
  useEffect(() => {
    if (listVersion === seenVersion.current) return;
    seenVersion.current = listVersion;
    const { signal, done } = track();
    callApi('notifications', { signal })
      .then((page) => {
        if (signal.aborted) return;
        dispatch({ type: 'refreshed', page });
        markRead(page);
      })
      .catch((error: unknown) => {
        if (!isAbort(error)) console.debug('No se pudieron actualizar las notificaciones', error);
      })
      .finally(done);
  }, [listVersion, track, markRead]);

  useEffect(() => {
    const pending = controllers.current;
    return () => {
      for (const controller of pending) controller.abort();
      pending.clear();
      cancelMarkRead.current();
    };
  }, []);

  const loadMore = useCallback(() => {
    if (!cursor || busy) return;
    const { signal, done } = track();
    dispatch({ type: 'loading-more' });
    callApi('notifications', { signal, query: { cursor } })
      .then((page) => {
        if (!signal.aborted) dispatch({ type: 'more', page });
      })
      .catch((error: unknown) => {
        if (!signal.aborted && !isAbort(error)) dispatch({ type: 'more-failed' });
      })
      .finally(done);
  }, [cursor, busy, track]);

  return { state, loadMore, retry };
}
