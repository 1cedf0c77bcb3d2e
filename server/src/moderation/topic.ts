import type { SqlRunner } from '@tribuna/drizzle/pipelined';
import type { ModerationCountMessage } from '@tribuna/contracts/api/moderation';
import type { TopicHandler } from '../live/topics.ts';
import { holdsModerationPowers } from '../access/policy.ts';
import { openItemCount } from './repository.ts';

/**
 * `moderation`: the queue's open count for site admins and moderators (holdsModerationPowers;
 * others: `forbidden`); a subscriber gets it at once, then a new one whenever it changed (the
 * `moderation.changed` event marks the topic changed on every instance: moderation/plugin.ts).
 */
export function moderationTopic(db: SqlRunner, requireMfa: boolean): TopicHandler {
  // The same count keeps its seq, so the hub sends nothing new; a new count gets a higher one.
  let last: { open: number; seq: number } | null = null;
  return {
    family: 'moderation',
    normalizeKey: (key) => (key === null ? null : undefined),
    authorize: async (_key, user) => (holdsModerationPowers(user, requireMfa) ? { ok: true, snapshots: true } : { ok: false, code: 'forbidden' }),
    readSnapshot: async () => {
      const open = await openItemCount(db);
      if (last?.open !== open) last = { open, seq: Math.max((last?.seq ?? 0) + 1, Date.now()) };
      const message: ModerationCountMessage & { seq: number } = { type: 'moderation-count', topic: 'moderation', open, seq: last.seq };
      return message;
    },
  };
}
