import type { FastifyInstance } from 'fastify';
import type { NotificationsChanged, NotificationsLiveMessage } from '@tribuna/contracts/api/notifications';

type Reason = NotificationsChanged['reason'];

/** What a tab does with a message: 'new' and 'removed' refresh an open list, 'read' only the badge. */
const WEIGHT: Record<Reason, number> = { read: 0, removed: 1, new: 2 };

/**
 * Notifications live: a recipient's change is published after its commit as the cluster event
 * `notifications.changed` (the user and why), and every instance where that user has a socket on
 * `user:{id}` (only that user may: topics.ts) reads the badge count and hands it to those sockets.
 * An instance without such a socket does nothing: the author of a post that thousands of fans tap
 * costs no badge read unless they are watching. The reads of one turn of the event loop go in one
 * statement, and one batch at a time, so a socket never gets an older count after a newer one. A
 * tab that was away asks for the count over HTTP when it comes back, so a message lost while Redis
 * is down costs freshness, never data.
 */
export function createNotificationsLive(app: FastifyInstance, unreadCounts: (userIds: string[]) => Promise<Map<string, number>>) {
  const pending = new Map<string, Reason>();
  let running = false;

  const flush = async (): Promise<void> => {
    running = true;
    try {
      while (pending.size > 0) {
        const batch = [...pending];
        pending.clear();
        const watched = batch.filter(([userId]) => app.live.hub.hasViewers(`user:${userId}`));
        if (watched.length === 0) continue;
        try {
          const counts = await unreadCounts(watched.map(([userId]) => userId));
          for (const [userId, reason] of watched) {
            const topic = `user:${userId}`;
            const message: NotificationsLiveMessage = { type: 'notifications', topic, unreadCount: counts.get(userId) ?? 0, reason };
            app.live.hub.publish(topic, message);
          }
        } catch (err) {
          app.log.warn({ err, users: watched.length }, 'notification badges could not be read; the tabs resync over HTTP');
        }
      }
    } finally {
      running = false;
    }
  };

  app.events.subscribe('notifications.changed', ({ userId, reason }) => {
    const id = userId.toLowerCase();
    if (!app.live.hub.hasViewers(`user:${id}`)) return;
    const before = pending.get(id);
    if (before === undefined || WEIGHT[reason] > WEIGHT[before]) pending.set(id, reason);
    if (!running) {
      running = true;
      setImmediate(() => void flush());
    }
  });

  return {
    publish: (change: NotificationsChanged) => app.events.publish('notifications.changed', change),
  };
}
