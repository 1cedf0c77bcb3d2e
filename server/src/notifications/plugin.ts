import fp from 'fastify-plugin';
import { poolRunner } from '@tribuna/drizzle/pipelined';
import { createNotificationsLive } from './live.ts';
import * as notifications from './service.ts';
import { userTopic } from './topics.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The notifications domain's context (notifications/service.ts), for its routes. */
    notifications: notifications.NotificationsContext;
  }
}

/**
 * The notifications domain: the writer of notifications inside the wall's transactions (posts and
 * comments written: `wall.written`; batches of reaction taps: `wall.reactions`), of follows
 * (`follows.changed`) and of reports' outcomes (`moderation.resolved`), the live badges
 * of the `user:{id}` topic on this instance (`notifications.changed` from every instance), and the
 * context its routes read with. Routes only route (notifications/routes.ts).
 */
export default fp(
  async (app) => {
    const reader = poolRunner(app.database.sql);
    const live = createNotificationsLive(app, (userIds) => notifications.unreadCounts(ctx, userIds));
    const ctx: notifications.NotificationsContext = {
      reader,
      publish: live.publish,
      announceCreated: (userIds) => app.events.publish('notifications.created', { userIds }),
      log: app.log,
    };
    app.events.joinTransactions('wall.written', (tx, event) => notifications.onWallWritten(ctx, tx, event));
    app.events.joinTransactions('wall.reactions', (tx, taps) => notifications.onReactionTaps(ctx, tx, taps));
    app.events.joinTransactions('follows.changed', (tx, change) => notifications.onFollowChanged(ctx, tx, change));
    app.events.joinTransactions('moderation.resolved', (tx, resolved) => notifications.onReportsResolved(ctx, tx, resolved));
    app.live.registerTopic(userTopic);
    app.decorate('notifications', ctx);
  },
  { name: 'notifications', dependencies: ['db', 'events', 'live'] },
);
