import type { CastVoteInput } from '@tribuna/contracts/api/votes';
import { callApi } from '../../lib/api';
import type { SequencedResults } from './liveResultsStore';

/**
 * The poll for the home page with its results: the shared one (`?encuesta=`) when given, else the
 * featured poll, else the newest active one; poll is null when none is active.
 */
export const fetchHomePoll = (pollId: string | null, signal?: AbortSignal) => callApi('homePoll', { query: { encuesta: pollId ?? undefined }, signal });

/** Current results of a poll: the live channel resyncs from here after a reconnect. */
export const fetchPollResults = (pollId: string, signal?: AbortSignal): Promise<SequencedResults> => callApi('pollResults', { params: { pollId }, signal });

/**
 * Casts a vote (single choice: `optionId`; points mode: `allocations`); answers the user's votes now.
 * `idempotencyKey` identifies the user's action: sent again with it, the vote is not counted twice.
 */
export const castVote = (pollId: string, input: CastVoteInput, idempotencyKey: string) =>
  callApi('castVote', { params: { pollId }, body: input, headers: { 'Idempotency-Key': idempotencyKey } });

/** The signed-in user's current votes on a poll and the points they may still spend. */
export const fetchMyVotes = (pollId: string, signal?: AbortSignal) => callApi('myVotes', { params: { pollId }, signal });

export const fetchAvailablePoints = (pollId: string, signal?: AbortSignal) => callApi('availablePoints', { params: { pollId }, signal });
