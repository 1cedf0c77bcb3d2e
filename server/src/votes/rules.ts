import { isPointsMode } from '@tribuna/contracts/pollRules';
import { VOTE_MESSAGES, type CastVoteInput } from '@tribuna/contracts/api/votes';
import { badRequest, conflict, notFound } from '../http/errors.ts';
import { effectiveStatus } from '../polls/rules.ts';
import type { VotingPoll } from '../polls/pollCache.ts';
import { startOfToday } from '@tribuna/contracts/showDay';

/** Multi-point mode applies when max_points_per_user is above 1. */
export const isPointsPoll = (poll: Pick<VotingPoll, 'maxPointsPerUser'>) => isPointsMode(poll);

/** Points spent on a poll count since 00:00 SHOW_TIMEZONE today with daily reset, else since ever (null). */
export function pointsWindowStart(poll: Pick<VotingPoll, 'maxPointsPerUser' | 'dailyReset'>, timeZone: string, now: Date): Date | null {
  return isPointsPoll(poll) && poll.dailyReset ? startOfToday(timeZone, now) : null;
}

/** The server decides: only an active poll whose end date has not passed takes votes. */
export function assertOpen(poll: VotingPoll | null, now: Date): asserts poll is VotingPoll {
  if (!poll) throw notFound(VOTE_MESSAGES.pollNotFound);
  if (effectiveStatus(poll, now) !== 'active') {
    throw conflict(VOTE_MESSAGES.pollClosed);
  }
}

export interface Allocation {
  optionId: string;
  points: number;
}

/**
 * The body checked against the poll's mode and options, as positive points per distinct option.
 * Whether the user still has the points is decided later, under the (user, poll) lock.
 */
export function allocationsFor(poll: VotingPoll, input: CastVoteInput): Allocation[] {
  if (!isPointsPoll(poll)) {
    if (!('optionId' in input)) throw badRequest(VOTE_MESSAGES.selectOption);
    if (!poll.optionIds.has(input.optionId)) throw badRequest(VOTE_MESSAGES.foreignOption);
    return [{ optionId: input.optionId, points: 1 }];
  }
  if (!('allocations' in input)) throw badRequest(VOTE_MESSAGES.assignPoint);
  const byOption = new Map<string, number>();
  for (const { optionId, points } of input.allocations) {
    if (!poll.optionIds.has(optionId)) throw badRequest(VOTE_MESSAGES.foreignOption);
    if (points > 0) byOption.set(optionId, (byOption.get(optionId) ?? 0) + points);
  }
  if (byOption.size === 0) throw badRequest(VOTE_MESSAGES.assignPoint);
  return [...byOption].map(([optionId, points]) => ({ optionId, points }));
}

/**
 * User-Agent as stored: control characters removed (PostgreSQL text refuses NUL) and cut to the
 * column's 512 characters.
 */
export function storedUserAgent(header: string | string[] | undefined): string | null {
  const value = Array.isArray(header) ? header[0] : header;
  // eslint-disable-next-line no-control-regex -- control characters are what this refuses or strips
  const clean = value?.replace(/[\u0000-\u001f\u007f]/g, '').slice(0, 512);
  return clean ? clean : null;
}
