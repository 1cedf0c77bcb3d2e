import fp from 'fastify-plugin';
import { poolRunner } from '@tribuna/drizzle/pipelined';
import type { ModerationContext } from './service.ts';
import { moderationTopic } from './topic.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The moderation domain's context (moderation/service.ts), for its routes. */
    moderation: ModerationContext;
  }
}

/** The `moderation` topic on every instance reads its count again when a report or an action changed it. */
export const MODERATION_TOPIC = 'moderation';

/**
 * Moderation (issue 29): the `moderation` topic (the queue's open count for site admins and
 * moderators), refreshed on this instance whenever any instance announces a change (the cluster
 * event `moderation.changed`), and the context the routes act with (moderation/routes.ts).
 */
export default fp(
  async (app) => {
    const reader = poolRunner(app.database.sql);
    app.live.registerTopic(moderationTopic(reader, app.config.requireAdminMfa));
    app.events.subscribe('moderation.changed', () => app.live.hub.changed(MODERATION_TOPIC));
    const ctx: ModerationContext = {
      db: app.database.db,
      reader,
      autoHideReporters: app.config.moderationAutoHideReporters,
      sessionCache: app.sessionCache,
      joinTransaction: (tx, resolved) => app.events.inTransaction('moderation.resolved', tx, resolved),
      publishWall: (event) => app.events.publish('wall.live', event),
      announce: () => app.events.publish('moderation.changed', {}),
      log: app.log,
    };
    app.decorate('moderation', ctx);
  },
  { name: 'moderation', dependencies: ['config', 'db', 'events', 'live', 'auth'] },
);
