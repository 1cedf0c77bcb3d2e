import type { TopicHandler } from '../live/topics.ts';
import { mayWatchUser } from '../access/policy.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `user:{userId}`: that user's notifications, for that signed-in user only (others: `forbidden`). */
export const userTopic: TopicHandler = {
  family: 'user',
  normalizeKey: (key) => (key !== null && UUID.test(key) ? key.toLowerCase() : undefined),
  authorize: async (key, user) => (mayWatchUser(user, key!) ? { ok: true, snapshots: false } : { ok: false, code: 'forbidden' }),
};
