import { channelName } from '@tribuna/contracts/live';
import { LIVE_CHANNEL, type LiveEvent } from '@tribuna/contracts/live';
import type { JobPayloads } from '@tribuna/contracts/jobs';
import type { JobContext } from '../context.ts';
import * as repo from './repository.ts';

/** The sweep looks at today and the two days before (SHOW_TIMEZONE). */
export const SWEEP_DAYS = 3;
/** Rows per sweep query; a sweep keeps going until nothing is missing (bounded by SWEEP_MAX_ROUNDS). */
export const SWEEP_CHUNK = 1000;
const SWEEP_MAX_ROUNDS = 100;

export const voteReference = (pollId: string, day: string) => `vote:${pollId}:${day}`;

export type AwardResult = repo.AwardOutcome;

/** A user earns the poll's points_per_vote at most once per poll per day, however often they vote. */
export async function awardVote(ctx: JobContext, { userId, pollId, day }: JobPayloads['points.award-vote']): Promise<AwardResult> {
  const outcome = await repo.grantVoteAward(ctx.db, userId, pollId, voteReference(pollId, day));
  if (outcome === 'skipped') ctx.logger.info({ userId, pollId, day }, 'vote award skipped: poll or user no longer exists');
  return outcome;
}

export interface AwardVotesResult {
  /** Awards granted by this job. */
  awarded: number;
  /** Granted before (a duplicate job, or another instance's). */
  alreadyAwarded: number;
  /** Poll or user gone. */
  skipped: number;
}

/** A batch's vote awards in one transaction: each (user, poll, day) at most once, as awardVote. */
export async function awardVotes(ctx: JobContext, { day, voters }: JobPayloads['points.award-votes']): Promise<AwardVotesResult> {
  const keys = voters.map(({ userId, pollId }) => ({ userId, pollId, referenceId: voteReference(pollId, day) }));
  const distinct = new Set(keys.map((k) => `${k.userId}|${k.referenceId}`)).size;
  const { eligible, credited } = await repo.grantVoteAwards(ctx.db, keys);
  const result = { awarded: credited, alreadyAwarded: eligible - credited, skipped: distinct - eligible };
  if (result.skipped > 0) ctx.logger.info({ day, skipped: result.skipped }, 'vote awards skipped: poll or user no longer exists');
  return result;
}

/** The share's points_earned, once per share (i.e. once per poll per day). */
export async function awardShare(ctx: JobContext, { shareId }: JobPayloads['points.award-share']): Promise<AwardResult> {
  return repo.grantShareAward(ctx.db, shareId);
}

export interface SweepResult {
  voteAwards: number;
  shareAwards: number;
}

/** Awards the votes and shares of the last SWEEP_DAYS days that have none (missed while Redis was down). */
export async function sweep(ctx: JobContext): Promise<SweepResult> {
  const tz = ctx.config.showTimezone;
  const result: SweepResult = { voteAwards: 0, shareAwards: 0 };
  for (let round = 0; round < SWEEP_MAX_ROUNDS; round++) {
    const missing = await repo.findMissingVoteAwards(ctx.db, tz, SWEEP_DAYS, SWEEP_CHUNK);
    const { eligible, credited } = await repo.grantVoteAwards(
      ctx.db,
      missing.map((k) => ({ userId: k.userId, pollId: k.pollId, referenceId: voteReference(k.pollId, k.day) })),
    );
    result.voteAwards += credited;
    // Awards another writer granted meanwhile (an award job, another sweep, the last statement of
    // a worker that died) are progress too: those rows are no longer missing. Only a round with
    // nothing left to grant (its polls or users gone since) ends the sweep early.
    if (missing.length < SWEEP_CHUNK || eligible === 0) break;
  }
  for (let round = 0; round < SWEEP_MAX_ROUNDS; round++) {
    const missing = await repo.findMissingShareAwards(ctx.db, tz, SWEEP_DAYS, SWEEP_CHUNK);
    let settled = 0;
    for (const shareId of missing) {
      const outcome = await awardShare(ctx, { shareId });
      if (outcome === 'awarded') result.shareAwards++;
      if (outcome !== 'skipped') settled++;
    }
    if (missing.length < SWEEP_CHUNK || settled === 0) break;
  }
  if (result.voteAwards + result.shareAwards > 0) ctx.logger.info(result, 'points sweep awarded missed points');
  return result;
}

/**
 * 00:00 in SHOW_TIMEZONE: available points are computed from the votes since 00:00, so nothing is
 * deleted; connected clients are told to refresh theirs.
 */
export async function dailyReset(ctx: JobContext): Promise<{ day: string }> {
  const day = await repo.today(ctx.db, ctx.config.showTimezone);
  const event: LiveEvent = { kind: 'points-reset', day };
  await ctx.publish(channelName(ctx.config.redisPrefix, LIVE_CHANNEL), JSON.stringify(event));
  ctx.logger.info({ day }, 'daily points reset announced');
  return { day };
}
