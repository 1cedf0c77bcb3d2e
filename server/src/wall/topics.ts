import type { TopicHandler } from '../live/topics.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `feed`: the public wall; anyone may watch it (visitors too). Messages arrive with the wall. */
export const feedTopic: TopicHandler = {
  family: 'feed',
  normalizeKey: (key) => (key === null ? null : undefined),
  authorize: async () => ({ ok: true, snapshots: false }),
};

/**
 * `post:{postId}`: one post's comments and reactions. Until the wall stores posts there is no post
 * to watch: every well-formed id is `not-found`.
 */
export const postTopic: TopicHandler = {
  family: 'post',
  normalizeKey: (key) => (key !== null && UUID.test(key) ? key.toLowerCase() : undefined),
  authorize: async () => ({ ok: false, code: 'not-found' }),
};
