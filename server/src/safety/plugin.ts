import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { postTopic } from '@tribuna/contracts/liveTopics';
import { poolRunner } from '@tribuna/drizzle/pipelined';
import { HiddenAuthorFlags, MAX_HIDDEN_KEPT } from './flags.ts';
import * as repo from './repository.ts';
import type { SafetyContext } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The safety domain's context (safety/service.ts): its routes, and the walls' question whether a reader hides anybody. */
    safety: SafetyContext;
  }
}

/**
 * A new block on this instance (from any instance): the sockets of the two are asked again about the
 * posts watched here, and those of the other's posts are dropped (the post topic's handler asks the
 * access policy, which refuses a post of somebody in a block with the viewer).
 */
async function applyBlock(app: FastifyInstance, userIds: string[]): Promise<void> {
  const topics = app.live.hub.topicKeys('post').map(postTopic);
  if (topics.length > 0) await app.live.hub.recheckAccess(topics, new Set(userIds));
}

/**
 * Mutes and blocks (issue 29): the context of the routes (safety/routes.ts), the flags the walls
 * choose their path with (flags.ts), and the `safety.changed` event heard from every instance.
 */
export default fp(
  async (app) => {
    const reader = poolRunner(app.database.sql);
    const flags = new HiddenAuthorFlags(async (userId) => {
      const ids = await repo.hiddenAuthors(reader, userId, MAX_HIDDEN_KEPT + 1);
      return ids.length === 0 ? null : ids.length > MAX_HIDDEN_KEPT ? 'many' : new Set(ids);
    });
    const ctx: SafetyContext = {
      db: app.database.db,
      reader,
      flags,
      joinFollowChange: (tx, change) => app.events.inTransaction('follows.changed', tx, change),
      publish: (change) => app.events.publish('safety.changed', change),
      log: app.log,
    };
    app.events.subscribe('safety.changed', async (event) => {
      flags.drop(event.userIds);
      if (!event.blocked) return;
      try {
        await applyBlock(app, event.userIds);
      } catch (err) {
        app.log.warn({ err, userIds: event.userIds }, 'dropping the live subscriptions of a new block failed');
      }
    });
    // Events missed while Redis was away: nothing known here may be trusted.
    app.events.onReconnect(() => flags.clear());
    app.decorate('safety', ctx);
  },
  { name: 'safety', dependencies: ['db', 'events', 'live'] },
);
