import type { CastVoteInput, MyVotesResponse, AvailablePoints } from '@tribuna/contracts/api/votes';
import { VOTE_MESSAGES } from '@tribuna/contracts/api/votes';
import type { DbOrTx } from '@tribuna/drizzle/client';
import { notFound } from '../http/errors.ts';
import type { VoteBatcher } from './batcher.ts';
import { spentOf } from './ledger.ts';
import { VoteNotTaken, type VoteOutcome } from './outcomes.ts';
import type { PollCache } from '../polls/pollCache.ts';
import { notTakenError, presentAccepted, presentMyVotes, refusalError, replayStoredAnswer } from './presenter.ts';
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
 * the (user, poll) lock and answers after COMMIT: the user's votes on the poll, or the HttpError of
 * a refusal (voteAnswer, writerError).
 */
export async function castVote(ctx: VotesContext, vote: CastVote, now = new Date()): Promise<MyVotesResponse> {
  const poll = await ctx.polls.get(vote.pollId);
  assertOpen(poll, now);
  const allocations = allocationsFor(poll, vote.input);
  let outcome: VoteOutcome;
  try {
    outcome = await ctx.writer.submit({
      userId: vote.userId,
      poll,
      allocations,
      deviceFingerprint: vote.input.deviceFingerprint,
      userAgent: vote.userAgent,
      idempotencyKey: vote.idempotencyKey ?? null,
    });
  } catch (err) {
    throw writerError(err);
  }
  return voteAnswer(outcome, ctx.timeZone);
}

/**
 * The writer's outcome as the route answers it: an accepted vote's standing (201), a keyed vote's
 * stored answer as stored, or a refusal thrown as its HttpError (400 points or option, 409 closed,
 * 422 key reused for another poll).
 */
export function voteAnswer(outcome: VoteOutcome, timeZone: string): MyVotesResponse {
  switch (outcome.kind) {
    case 'accepted':
      return presentAccepted(outcome, timeZone);
    case 'answered':
      return replayStoredAnswer(outcome.answer);
    case 'refused':
      throw refusalError(outcome);
  }
}

/** A vote the writer did not take as its 503 (busy with Retry-After, or failed); any other error as it is. */
export function writerError(err: unknown): unknown {
  return err instanceof VoteNotTaken ? notTakenError(err) : err;
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
