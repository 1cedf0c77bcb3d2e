import type { AvailablePoints, CastVoteInput, MyVotesResponse } from '@tribuna/contracts/api/votes';
import type { HomePollResponse } from '@tribuna/contracts/api/polls';
import { apiGet, apiPost } from '../../lib/api';
import type { SequencedResults } from './liveResultsStore';

const pollPath = (pollId: string) => `/api/polls/${encodeURIComponent(pollId)}`;

/**
 * The poll for the home page with its results: the shared one (`?encuesta=`) when given, else the
 * featured poll, else the newest active one; poll is null when none is active.
 */
export const fetchHomePoll = (pollId: string | null, signal?: AbortSignal) =>
  apiGet<HomePollResponse>(pollId ? `/api/polls/home?encuesta=${encodeURIComponent(pollId)}` : '/api/polls/home', { signal });

/** Current results of a poll: the live channel resyncs from here after a reconnect. */
export const fetchPollResults = (pollId: string, signal?: AbortSignal) =>
  apiGet<SequencedResults>(`${pollPath(pollId)}/results`, { signal });

/**
 * Casts a vote (single choice: `optionId`; points mode: `allocations`); answers the user's votes now.
 * `idempotencyKey` identifies the user's action: sent again with it, the vote is not counted twice.
 */
export const castVote = (pollId: string, input: CastVoteInput, idempotencyKey: string) =>
  apiPost<MyVotesResponse>(`${pollPath(pollId)}/votes`, input, { headers: { 'Idempotency-Key': idempotencyKey } });

/** The signed-in user's current votes on a poll and the points they may still spend. */
export const fetchMyVotes = (pollId: string, signal?: AbortSignal) =>
  apiGet<MyVotesResponse>(`${pollPath(pollId)}/my-votes`, { signal });

export const fetchAvailablePoints = (pollId: string, signal?: AbortSignal) =>
  apiGet<AvailablePoints>(`${pollPath(pollId)}/available-points`, { signal });
