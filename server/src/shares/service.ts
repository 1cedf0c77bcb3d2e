import { VOTE_MESSAGES } from '@tribuna/contracts/api/votes';
import { type SharePlatform, type ShareResponse } from '@tribuna/contracts/api/shares';
import { pointsJobIds } from '@tribuna/contracts/jobs';
import type { Db } from '@tribuna/drizzle/client';
import { conflict, notFound } from '../http/errors.ts';
import type { Outbox } from '../outbox/plugin.ts';
import { DEFAULT_POINTS_CONFIG, effectiveStatus } from '../polls/rules.ts';
import { findPublicPoll } from '../polls/service.ts';
import { showDayOf } from '@tribuna/contracts/showDay';
import { presentShare } from './presenter.ts';
import * as repo from './repository.ts';

export interface SharesContext {
  db: Db;
  outbox: Pick<Outbox, 'enqueue' | 'deliver'>;
  timeZone: string;
}

/**
 * Records a share of a public poll, once per poll per day in SHOW_TIMEZONE, worth the poll's
 * sharing bonus while the poll is active (taking votes: not closed, not past its end date); a
 * closed poll may be shared all the same, for nothing. The points are credited by the worker
 * (`points.award-share`, which checks the poll was active too), recorded in the outbox in the
 * insert's own transaction and enqueued right after COMMIT; when Redis is down or this instance
 * dies first, the outbox's relay enqueues it later (and the worker's sweep would still credit it).
 */
export async function sharePoll(ctx: SharesContext, userId: string, pollId: string, platform: SharePlatform, now = new Date()): Promise<ShareResponse> {
  const poll = await findPublicPoll(ctx.db, pollId);
  if (!poll) throw notFound(VOTE_MESSAGES.pollNotFound);
  const active = effectiveStatus(poll, now) === 'active';
  const { row, award } = await ctx.db.transaction(async (tx) => {
    const row = await repo.insertShareOncePerDay(tx, {
      pollId,
      userId,
      platform,
      pointsEarned: active ? (poll.bonusForSharing ?? DEFAULT_POINTS_CONFIG.bonusForSharing) : 0,
      shareDay: showDayOf(ctx.timeZone, now),
      sharedAt: now,
    });
    if (!row || row.pointsEarned === 0) return { row, award: null };
    const payload = { shareId: row.id };
    return { row, award: await ctx.outbox.enqueue(tx, 'points.award-share', payload, { jobId: pointsJobIds.awardShare(payload) }) };
  });
  if (!row) throw conflict(VOTE_MESSAGES.alreadyShared);
  if (award !== null) await ctx.outbox.deliver([award]);
  return presentShare(row, active);
}
