import fp from 'fastify-plugin';
import { poolRunner } from '@tribuna/drizzle/pipelined';
import { groupTopicHandler, listenToGroups } from './live.ts';
import type { GroupsContext } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The groups domain's context (groups/service.ts), for its routes and the back-office's. */
    groups: GroupsContext;
  }
}

/**
 * Fan clubs: the `group:{id}` topic, the live side of membership changes heard from every instance
 * (groups/live.ts), and the context the routes act with (groups/routes.ts, admin/users/routes.ts).
 */
export default fp(
  async (app) => {
    const reader = poolRunner(app.database.sql);
    app.live.registerTopic(groupTopicHandler(reader, app.config.requireAdminMfa));
    listenToGroups(app, reader);
    const ctx: GroupsContext = {
      db: app.database.db,
      publicUrl: app.config.publicUrl,
      publishLive: (event) => app.events.publish('group.live', event),
      publishAccess: (event) => app.events.publish('group.access', event),
      joinDeletion: (tx, deletion) => app.events.inTransaction('group.deleted', tx, deletion),
      log: app.log,
    };
    app.decorate('groups', ctx);
  },
  { name: 'groups', dependencies: ['config', 'db', 'events', 'live'] },
);
