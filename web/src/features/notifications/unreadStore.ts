import { create } from 'zustand';
import { callApi } from '../../lib/api';

interface UnreadState {
  /** Whose count this is (null signed out): an answer for another user is dropped. */
  userId: string | null;
  /** Unread entries: the badge on Avisos and Notificaciones. */
  count: number;
  /** Bumped by every count received (live or HTTP): an HTTP read that started before one is stale. */
  revision: number;
  /**
   * Bumped when the list may have changed (a new or removed entry, or messages lost while the
   * socket was away): an open /notificaciones reads its first page again.
   */
  listVersion: number;
  /** Adopts an absolute count (the server's). */
  setCount: (count: number) => void;
  listChanged: () => void;
  /** Another user (or none): count 0 until it is read. */
  reset: (userId: string | null) => void;
}

export const useUnreadStore = create<UnreadState>()((set) => ({
  userId: null,
  count: 0,
  revision: 0,
  listVersion: 0,
  setCount: (count) => set((state) => ({ count: Math.max(0, count), revision: state.revision + 1 })),
  listChanged: () => set((state) => ({ listVersion: state.listVersion + 1 })),
  reset: (userId) => set((state) => ({ userId, count: 0, revision: state.revision + 1 })),
}));

/**
 * Runs `request` (an HTTP call answering the unread count) and adopts its count, unless a newer
 * count arrived meanwhile (a live message) or the user changed.
 */
export async function adoptCountFrom(request: () => Promise<{ unreadCount: number }>): Promise<void> {
  const { revision, userId } = useUnreadStore.getState();
  const { unreadCount } = await request();
  const now = useUnreadStore.getState();
  if (now.revision === revision && now.userId === userId) now.setCount(unreadCount);
}

/** GET /api/notifications/unread into the store. */
export const refreshUnreadCount = () => adoptCountFrom(() => callApi('unreadNotifications'));

/** What the badge shows: nothing at 0, '9+' above 9. */
export function badgeText(count: number): string | null {
  if (count <= 0) return null;
  return count > 9 ? '9+' : String(count);
}

/** What the link's accessible name adds to its label for the badge: ', 3 sin leer' (nothing at 0). */
export const unreadSuffix = (count: number): string => (count > 0 ? `, ${count} sin leer` : '');
