import type { CastVoteInput, MyVotesResponse, AvailablePoints } from '@tribuna/contracts/api/votes';
import { VOTE_MESSAGES } from '@tribuna/contracts/api/votes';
import type { DbOrTx } from '@tribuna/drizzle/client';
import { notFound } from '../http/errors.ts';
import { spentOf, type VoteBatcher } from './batcher.ts';
import type { PollCache } from '../polls/pollCache.ts';
import { presentMyVotes } from './presenter.ts';
import * as repo from './repository.ts';
import { allocationsFor, assertOpen, pointsWindowStart } from './rules.ts';

export interface VotesContext {
  db: DbOrTx;
  polls: PollCache;
  writer: VoteBatcher;
  timeZone: string;
}

export interface CastVote {
  userId: string;
  pollId: string;
  input: CastVoteInput;
  userAgent: string | null;
  /** The Idempotency-Key header: a retry with the same key gets the first answer and votes nothing twice. */
  idempotencyKey?: string;
}

/**
 * Checks what needs no lock (poll open, body fits the poll's mode, options belong to the poll)
 * from the cached poll, then hands the vote to the batching writer, which checks the points under
 * the (user, poll) lock and answers after COMMIT.
 */
export async function castVote(ctx: VotesContext, vote: CastVote, now = new Date()): Promise<MyVotesResponse> {
  const poll = await ctx.polls.get(vote.pollId);
  assertOpen(poll, now);
  const allocations = allocationsFor(poll, vote.input);
  return ctx.writer.submit({
    userId: vote.userId,
    poll,
    allocations,
    deviceFingerprint: vote.input.deviceFingerprint,
    userAgent: vote.userAgent,
    idempotencyKey: vote.idempotencyKey ?? null,
  });
}

/** The user's votes on a public poll (one entry per option) and what they may still spend. */
export async function getMyVotes(ctx: VotesContext, userId: string, pollId: string, now = new Date()): Promise<MyVotesResponse> {
  const poll = await ctx.polls.get(pollId);
  if (!poll) throw notFound(VOTE_MESSAGES.pollNotFound);
  const since = pointsWindowStart(poll, ctx.timeZone, now);
  const [state] = await repo.readVoterState(ctx.db, [{ userId, pollId, since }]);
  if (!state) return presentMyVotes(poll, [], 0, ctx.timeZone, now);
  return presentMyVotes(poll, state.options, spentOf(state), ctx.timeZone, now);
}

export async function getAvailablePoints(ctx: VotesContext, userId: string, pollId: string, now = new Date()): Promise<AvailablePoints> {
  return (await getMyVotes(ctx, userId, pollId, now)).availablePoints;
}

// What other domains (the admin's vote voiding) use of votes.
export { lockVoters } from './repository.ts';
