import type { SqlRunner } from '@tribuna/drizzle/pipelined';
import type { TopicHandler } from '../live/topics.ts';
import { holdsAdminPowers } from '../admin/guard.ts';
import { isPostVisible } from './repository.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `feed`: new posts of the public wall; anyone may watch it (visitors too). */
export const feedTopic: TopicHandler = {
  family: 'feed',
  normalizeKey: (key) => (key === null ? null : undefined),
  authorize: async () => ({ ok: true, snapshots: false }),
};

/**
 * `post:{postId}`: one post's edits, deletion, reactions and comments, for whoever may see the post
 * (a hidden post, or one of a private group the user is not in, is `not-found`; admins see every
 * group's posts by holdsAdminPowers, the second factor included when REQUIRE_ADMIN_MFA). No snapshots: a
 * reader who subscribes (or comes back) reads the post over HTTP.
 */
export function postTopicHandler(db: SqlRunner, requireAdminMfa: boolean): TopicHandler {
  return {
    family: 'post',
    normalizeKey: (key) => (key !== null && UUID.test(key) ? key.toLowerCase() : undefined),
    authorize: async (key, user) => {
      const visible = await isPostVisible(db, key!, user ? { id: user.id, isAdmin: holdsAdminPowers(user, requireAdminMfa) } : null);
      return visible ? { ok: true, snapshots: false } : { ok: false, code: 'not-found' };
    },
  };
}
