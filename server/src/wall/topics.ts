import type { SqlRunner } from '@tribuna/drizzle/pipelined';
import type { TopicHandler } from '../live/topics.ts';
import { mayReadPost, viewerOf } from '../access/policy.ts';
import { postTopic } from '@tribuna/contracts/liveTopics';
import type { WallLiveMessage } from '@tribuna/contracts/api/wall';
import { POST_REACTIONS, reactionCountsOf } from './repository.ts';
import { presentReactions } from './presenter.ts';

type PostReactionsMessage = Extract<WallLiveMessage, { type: 'post-reactions' }>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `feed`: new posts of the public wall; anyone may watch it (visitors too). */
export const feedTopic: TopicHandler = {
  family: 'feed',
  normalizeKey: (key) => (key === null ? null : undefined),
  authorize: async () => ({ ok: true, snapshots: false }),
};

/** A post's reaction counts reach its viewers at most this often (snapshots per second, per instance). */
export const POST_REACTIONS_PER_SECOND = 4;

/**
 * `post:{postId}`: one post's edits, deletion, reactions and comments, for whoever may see the post
 * (a hidden post, or one of a private group the user is not in, is `not-found`; admins see every
 * group's posts by holdsAdminPowers, the second factor included when REQUIRE_ADMIN_MFA). The post's
 * reaction counts are the topic's snapshot: a viewer gets them at once, then the hub's paced,
 * coalesced snapshots (POST_REACTIONS_PER_SECOND, newest wins, a slow socket skips to the newest)
 * whenever a tap on any instance marks the topic changed (wall/live.ts). Comments, edits, deletion
 * and comment reactions are messages. A reader who comes back reads the post over HTTP.
 */
export function postTopicHandler(db: SqlRunner, requireAdminMfa: boolean): TopicHandler {
  // Grows with every snapshot read here: the web keeps the newest per item (a resync starts over).
  let seq = 0;
  return {
    family: 'post',
    normalizeKey: (key) => (key !== null && UUID.test(key) ? key.toLowerCase() : undefined),
    authorize: async (key, user) => {
      const visible = await mayReadPost(db, key!, viewerOf(user, requireAdminMfa));
      return visible ? { ok: true, snapshots: true } : { ok: false, code: 'not-found' };
    },
    readSnapshot: async (key) => {
      const postId = key!;
      const counts = await reactionCountsOf(db, POST_REACTIONS, [postId]);
      const snapshot: PostReactionsMessage = {
        type: 'post-reactions',
        topic: postTopic(postId),
        postId,
        reactions: presentReactions(counts.get(postId) ?? {}),
        seq: ++seq,
      };
      return snapshot;
    },
    pacing: { snapshotsPerSecond: POST_REACTIONS_PER_SECOND, snapshotBurst: 1 },
  };
}
