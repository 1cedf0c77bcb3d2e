import type { JobPayloads } from '@tribuna/contracts/jobs';
import type { JobContext } from '../context.ts';
import * as repo from './repository.ts';
import { advanceWatermark, WATERMARK_OVERLAP_MINUTES } from '../watermarks.ts';

/** The sweep looks at today and the two days before (SHOW_TIMEZONE). */
export const SWEEP_DAYS = 3;
/** Watermarks (maintenance_watermarks): where the last complete sweep of each kind started. */
export const SWEEP_WATERMARKS = { votes: 'points.sweep.votes', shares: 'points.sweep.shares' } as const;
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

/**
 * Awards the votes and shares that have none (their award job was lost: Redis down at the time, a
 * crash between commit and enqueue). Votes and shares each have a watermark, the start of their
 * last complete sweep: an incremental sweep scans from it minus WATERMARK_OVERLAP_MINUTES, a full
 * one (`full`, once a day) the last SWEEP_DAYS days in SHOW_TIMEZONE, as does the first sweep of
 * all. A restored voided vote keeps its original created_at, so only the daily full sweep awards it.
 */
export async function sweep(ctx: JobContext, { full = false }: JobPayloads['points.sweep'] = {}): Promise<SweepResult> {
  const tz = ctx.config.showTimezone;
  const voteAwards = await sweepRounds<repo.MissingVoteAward>(ctx, SWEEP_WATERMARKS.votes, full, async (bounds) => {
    const missing = await repo.findMissingVoteAwards(ctx.db, tz, SWEEP_DAYS, SWEEP_CHUNK, bounds);
    const { credited } = await repo.grantVoteAwards(
      ctx.db,
      missing.map((k) => ({ userId: k.userId, pollId: k.pollId, referenceId: voteReference(k.pollId, k.day) })),
    );
    return { missing, awarded: credited };
  });
  const shareAwards = await sweepRounds<repo.MissingShareAward>(ctx, SWEEP_WATERMARKS.shares, full, async (bounds) => {
    const missing = await repo.findMissingShareAwards(ctx.db, tz, SWEEP_DAYS, SWEEP_CHUNK, bounds);
    let awarded = 0;
    for (const { id } of missing) if ((await awardShare(ctx, { shareId: id })) === 'awarded') awarded++;
    return { missing, awarded };
  });
  const result: SweepResult = { voteAwards, shareAwards };
  if (voteAwards + shareAwards > 0) ctx.logger.info({ ...result, full }, 'points sweep awarded missed points');
  return result;
}

/**
 * One kind's sweep: rounds of up to SWEEP_CHUNK missing awards, each after the last key of the one
 * before (what a round read is settled: granted, found granted by another writer, or its poll or
 * user gone), until a round finds fewer. Only then, the kind complete, does its watermark move to
 * the instant the sweep started (PostgreSQL's clock, read before the first round); a sweep cut
 * short (SWEEP_MAX_ROUNDS, an error) leaves it where it was. Returns the awards granted.
 */
async function sweepRounds<K>(
  ctx: JobContext,
  watermark: string,
  full: boolean,
  round: (bounds: repo.ScanBounds<K>) => Promise<{ missing: K[]; awarded: number }>,
): Promise<number> {
  const { startedAt, since } = await repo.sweepStart(ctx.db, watermark, WATERMARK_OVERLAP_MINUTES);
  let awarded = 0;
  let after: K | undefined;
  for (let rounds = 0; rounds < SWEEP_MAX_ROUNDS; rounds++) {
    const { missing, awarded: granted } = await round({ since: full ? null : since, after });
    awarded += granted;
    if (missing.length < SWEEP_CHUNK) {
      await advanceWatermark(ctx.db, watermark, startedAt);
      return awarded;
    }
    after = missing[missing.length - 1];
  }
  ctx.logger.warn({ watermark, rounds: SWEEP_MAX_ROUNDS, awarded }, 'points sweep stopped at its round limit; its watermark stays');
  return awarded;
}

/**
 * 00:00 in SHOW_TIMEZONE: available points are computed from the votes since 00:00, so nothing is
 * deleted; connected clients are told to refresh theirs.
 */
export async function dailyReset(ctx: JobContext): Promise<{ day: string }> {
  const day = await repo.today(ctx.db, ctx.config.showTimezone);
  await ctx.publishEvent('points.reset', { day });
  ctx.logger.info({ day }, 'daily points reset announced');
  return { day };
}
