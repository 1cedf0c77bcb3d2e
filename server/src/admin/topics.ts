import type { TopicHandler } from '../live/topics.ts';

/** `admin`: the back-office dashboard's live counters, for administrators only (others: `forbidden`). */
export const adminTopic: TopicHandler = {
  family: 'admin',
  normalizeKey: (key) => (key === null ? null : undefined),
  authorize: async (_key, user) => (user?.role === 'admin' ? { ok: true, snapshots: false } : { ok: false, code: 'forbidden' }),
};
