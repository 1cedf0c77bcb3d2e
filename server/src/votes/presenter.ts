import type { ErrorBody } from '@tribuna/contracts/api/common';
import { VOTE_MESSAGES, type AvailablePoints, type MyVotesResponse } from '@tribuna/contracts/api/votes';
import type { VoterChange } from '@tribuna/contracts/live';
import { badRequest, conflict, errorBody, HttpError, serviceUnavailable } from '../http/errors.ts';
import { voterDisplayName } from '../polls/rules.ts';
import type { VotingPoll } from '../polls/pollCache.ts';
import type { AcceptedVote, OptionStanding, RefusedVote, VoteNotTaken } from './outcomes.ts';
import type { StoredVoteAnswer, VoterProfile } from './repository.ts';
import { isPointsPoll } from './rules.ts';
import { nextMidnight } from '@tribuna/contracts/showDay';

/** The route's status for an accepted vote, as stored with its answer. */
export const VOTE_ACCEPTED = 201;

/**
 * What the user may still spend. Points polls: the maximum less what was spent in the window.
 * Single-choice polls: a vote can always be cast (it replaces the earlier one), so 1 is available
 * and `spent` is the current vote's point.
 */
export function presentAvailablePoints(poll: VotingPoll, spent: number, timeZone: string, now: Date): AvailablePoints {
  const available = isPointsPoll(poll) ? Math.max(0, poll.maxPointsPerUser - spent) : poll.maxPointsPerUser;
  return {
    pollId: poll.id,
    maxPoints: poll.maxPointsPerUser,
    spent,
    available,
    dailyReset: poll.dailyReset,
    resetsAt: poll.dailyReset ? nextMidnight(timeZone, now).toISOString() : null,
  };
}

/** The user's current votes on a poll, one entry per option (points summed), newest first. */
export function presentMyVotes(poll: VotingPoll, standings: Iterable<OptionStanding>, spent: number, timeZone: string, now: Date): MyVotesResponse {
  const votes = [...standings]
    // Votes on options an admin removed stay in the database (and count as spent), not on the ballot.
    .filter((s) => poll.optionIds.has(s.optionId))
    .sort((a, b) => b.lastVotedAt.getTime() - a.lastVotedAt.getTime() || a.optionId.localeCompare(b.optionId))
    .map((s) => ({ optionId: s.optionId, points: s.points, createdAt: s.lastVotedAt.toISOString() }));
  return { votes, availablePoints: presentAvailablePoints(poll, spent, timeZone, now) };
}

/** An accepted vote's answer: the user's votes on the poll as its batch left them. */
export function presentAccepted(vote: AcceptedVote, timeZone: string): MyVotesResponse {
  return presentMyVotes(vote.poll, vote.options.values(), vote.spent, timeZone, vote.at);
}

/** The error a refused vote is answered with (nothing was written). */
export function refusalError(refusal: RefusedVote): HttpError {
  switch (refusal.reason) {
    case 'closed':
      return conflict(VOTE_MESSAGES.pollClosed);
    case 'option':
      return badRequest(VOTE_MESSAGES.foreignOption);
    case 'points':
      return badRequest(VOTE_MESSAGES.tooManyPoints(refusal.available));
    case 'key-reused':
      return new HttpError(422, VOTE_MESSAGES.idempotencyKeyReused);
  }
}

/**
 * The 503 of a vote the writer did not take: busy (overload: its queue is full, the vote waited
 * too long, or a lock stayed held) asks the client to retry after a while (Retry-After).
 */
export function notTakenError(error: VoteNotTaken): HttpError {
  return error.reason === 'busy' ? serviceUnavailable(VOTE_MESSAGES.busy) : new HttpError(503, VOTE_MESSAGES.voteFailed);
}

/** A decided vote's answer as stored under its idempotency key, {status, body}: what a retry replays. */
export function presentStoredAnswer(outcome: AcceptedVote | RefusedVote, timeZone: string): StoredVoteAnswer {
  if (outcome.kind === 'accepted') return { status: VOTE_ACCEPTED, body: presentAccepted(outcome, timeZone) };
  const error = refusalError(outcome);
  return { status: error.statusCode, body: errorBody(error.statusCode, error.message) };
}

/** A stored answer given again: an accepted vote's body, or the refusal it was thrown as its HttpError. */
export function replayStoredAnswer(answer: StoredVoteAnswer): MyVotesResponse {
  if (answer.status === VOTE_ACCEPTED) return answer.body as MyVotesResponse;
  throw new HttpError(answer.status, (answer.body as ErrorBody).message);
}

/**
 * How a voter is named in live updates: as in the HTTP results (voterDisplayName); a fan who chose
 * not to be listed is `hidden`, with no name or avatar to leak.
 */
export function voterName(profile: VoterProfile | undefined): Pick<VoterChange, 'displayName' | 'avatarUrl' | 'hidden'> {
  if (profile && !profile.listed) return { displayName: '', avatarUrl: null, hidden: true };
  return {
    displayName: voterDisplayName(profile?.displayName),
    avatarUrl: profile?.avatarUrl ?? null,
  };
}
