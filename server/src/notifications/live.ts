import type { FastifyInstance } from 'fastify';
import type { NotificationsLiveMessage } from '@tribuna/contracts/api/notifications';

/**
 * Notifications live: a recipient's badge change is published after its commit as the cluster
 * event `notifications.live`, and every instance (this one included) hands it to its local sockets
 * watching `user:{id}` (only that user may: topics.ts). A tab that was away asks for the count
 * over HTTP when it comes back, so a message lost while Redis is down costs freshness, never data.
 */
export function createNotificationsLive(app: FastifyInstance) {
  app.events.subscribe('notifications.live', (message) => {
    app.live.hub.publish(message.topic, message);
  });
  return {
    publish: (message: NotificationsLiveMessage) => app.events.publish('notifications.live', message),
  };
}
