import type { FastifyInstance } from 'fastify';
import type { GroupAccessEvent } from '@tribuna/contracts/api/groups';
import { groupTopic, postTopic } from '@tribuna/contracts/liveTopics';
import type { SqlRunner } from '@tribuna/drizzle/pipelined';
import { mayReadGroup, viewerOf } from '../access/policy.ts';
import type { TopicHandler } from '../live/topics.ts';
import * as repo from './repository.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `group:{groupId}`: new posts on a group's wall ('N publicaciones nuevas'), for its readers (a
 * public group: anybody; a private one: its members and site admins, holdsAdminPowers). A private
 * group's topic is `forbidden` to others (its card is public), an unknown group `not-found`.
 */
export function groupTopicHandler(db: SqlRunner, requireAdminMfa: boolean): TopicHandler {
  return {
    family: 'group',
    normalizeKey: (key) => (key !== null && UUID.test(key) ? key.toLowerCase() : undefined),
    authorize: async (key, user) => {
      const decision = await mayReadGroup(db, key!, viewerOf(user, requireAdminMfa));
      return decision === 'ok' ? { ok: true, snapshots: false } : { ok: false, code: decision };
    },
  };
}

/**
 * A change of who may read a group, on this instance: the sockets concerned (of `userIds`, or all
 * of them) are asked again about `group:{id}` and the group's posts watched here (and those gone
 * with a deleted group), the refused subscriptions dropped at once; then the fans are told.
 */
async function applyAccessChange(app: FastifyInstance, db: SqlRunner, event: GroupAccessEvent): Promise<void> {
  const hub = app.live.hub;
  if (event.userIds === null || event.userIds.length > 0) {
    const watchedPosts = hub.topicKeys('post');
    const posts = await repo.postsOfGroupOrGone(db, event.groupId, watchedPosts);
    const topics = [groupTopic(event.groupId), ...posts.map(postTopic)];
    await hub.recheckAccess(topics, event.userIds === null ? undefined : new Set(event.userIds));
  }
  for (const message of event.relations) hub.publish(message.topic, message);
}

/** The groups' live messages on this instance, from every instance (the cluster events `group.live` and `group.access`). */
export function listenToGroups(app: FastifyInstance, db: SqlRunner): void {
  app.events.subscribe('group.live', (message) => app.live.hub.publish(message.topic, message));
  app.events.subscribe('group.access', async (event) => {
    try {
      await applyAccessChange(app, db, event);
    } catch (err) {
      app.log.warn({ err, groupId: event.groupId }, 'applying a change of group access to the live sockets failed');
    }
  });
}
