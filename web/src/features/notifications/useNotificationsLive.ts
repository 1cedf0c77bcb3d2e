import { useEffect } from 'react';
import { userTopic } from '@tribuna/contracts/liveTopics';
import { useSessionStore } from '../../lib/session/sessionStore';
import { liveClient } from '../../lib/live/liveClient';
import { refreshUnreadCount, useUnreadStore } from './unreadStore';

const failed = (error: unknown) => console.debug('No se pudo leer el número de notificaciones sin leer', error);

/**
 * While someone is signed in: reads their unread count, then keeps it live from their `user:{id}`
 * topic (every tab and device of theirs hears the same messages, with the absolute count). After a
 * dropped connection the count is read again and an open list reloads, since messages were lost.
 * Mounted once, by the navigation bar.
 */
export function useNotificationsLive(): void {
  const userId = useSessionStore((state) => state.user?.id ?? null);

  useEffect(() => {
    const store = useUnreadStore.getState();
    if (store.userId !== userId) store.reset(userId);
    if (!userId) return;
    refreshUnreadCount().catch(failed);
    return liveClient.subscribe(userTopic(userId), {
      onMessage(message) {
        if (message.type !== 'notifications') return;
        const { setCount, listChanged } = useUnreadStore.getState();
        setCount(message.unreadCount);
        if (message.reason !== 'read') listChanged();
      },
      onResync() {
        useUnreadStore.getState().listChanged();
        return refreshUnreadCount();
      },
    });
  }, [userId]);
}
