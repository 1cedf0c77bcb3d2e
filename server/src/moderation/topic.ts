import { sql } from 'drizzle-orm';
import type { SqlRunner } from '@tribuna/drizzle/pipelined';
import type { ModerationCountMessage } from '@tribuna/contracts/api/moderation';
import type { TopicHandler } from '../live/topics.ts';
import { holdsAdminPowers } from '../access/policy.ts';

/** Site staff with moderation powers: admins (holdsAdminPowers) and moderators who are not suspended. */
export function holdsModerationPowers(user: { role: string; level?: string; isSuspended?: boolean } | null | undefined, requireMfa: boolean): boolean {
  if (holdsAdminPowers(user, requireMfa)) return true;
  return user?.role === 'moderator' && user.isSuspended !== true;
}

/**
 * `moderation`: the queue's open count for site admins and moderators (others: `forbidden`); a
 * subscriber gets it at once, then a new one whenever it changed.
 */
export function moderationTopic(db: SqlRunner, requireMfa: boolean): TopicHandler {
  // The same count keeps its seq, so the hub sends nothing new; a new count gets a higher one.
  let last: { open: number; seq: number } | null = null;
  return {
    family: 'moderation',
    normalizeKey: (key) => (key === null ? null : undefined),
    authorize: async (_key, user) => (holdsModerationPowers(user, requireMfa) ? { ok: true, snapshots: true } : { ok: false, code: 'forbidden' }),
    readSnapshot: async () => {
      const rows = await db.execute<{ open: number }>(
        sql`SELECT count(*)::int AS open FROM (SELECT DISTINCT target_type, target_id FROM reports WHERE status = 'open') t`,
      );
      const open = rows[0]?.open ?? 0;
      if (last?.open !== open) last = { open, seq: Math.max((last?.seq ?? 0) + 1, Date.now()) };
      const message: ModerationCountMessage & { seq: number } = { type: 'moderation-count', topic: 'moderation', open, seq: last.seq };
      return message;
    },
  };
}
