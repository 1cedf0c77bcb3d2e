import type { FastifyBaseLogger } from 'fastify';
import { VOTE_MESSAGES } from '@tribuna/contracts/api/votes';
import { type SharePlatform, type ShareResponse } from '@tribuna/contracts/api/shares';
import { pointsJobIds } from '@tribuna/contracts/jobs';
import type { DbOrTx } from '@tribuna/drizzle/client';
import { conflict, notFound } from '../http/errors.ts';
import type { Enqueue } from '../plugins/queues.ts';
import { DEFAULT_POINTS_CONFIG, effectiveStatus } from '../polls/rules.ts';
import { findPublicPoll } from '../polls/service.ts';
import { showDayOf } from '@tribuna/contracts/showDay';
import { presentShare } from './presenter.ts';
import * as repo from './repository.ts';

export interface SharesContext {
  db: DbOrTx;
  enqueue: Enqueue;
  timeZone: string;
  log: FastifyBaseLogger;
}

/**
 * Records a share of a public poll, once per poll per day in SHOW_TIMEZONE, worth the poll's
 * sharing bonus while the poll is active (taking votes: not closed, not past its end date); a
 * closed poll may be shared all the same, for nothing. The points are credited by the worker
 * (`points.award-share`, which checks the poll was active too), enqueued after the insert
 * committed; when Redis is down the worker's sweep credits them later.
 */
export async function sharePoll(ctx: SharesContext, userId: string, pollId: string, platform: SharePlatform, now = new Date()): Promise<ShareResponse> {
  const poll = await findPublicPoll(ctx.db, pollId);
  if (!poll) throw notFound(VOTE_MESSAGES.pollNotFound);
  const active = effectiveStatus(poll, now) === 'active';
  const row = await repo.insertShareOncePerDay(ctx.db, {
    pollId,
    userId,
    platform,
    pointsEarned: active ? (poll.bonusForSharing ?? DEFAULT_POINTS_CONFIG.bonusForSharing) : 0,
    shareDay: showDayOf(ctx.timeZone, now),
    sharedAt: now,
  });
  if (!row) throw conflict(VOTE_MESSAGES.alreadyShared);
  if (row.pointsEarned > 0) {
    const payload = { shareId: row.id };
    await ctx.enqueue('points.award-share', payload, { jobId: pointsJobIds.awardShare(payload) }).catch((err: unknown) => {
      ctx.log.warn({ err: { message: (err as Error).message }, shareId: row.id }, 'share award not enqueued; the sweep will award it');
    });
  }
  return presentShare(row, active);
}
