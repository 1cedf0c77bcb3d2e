import type { AvailablePoints, MyVotesResponse } from '@tribuna/contracts/api/votes';
import type { VoterChange } from '@tribuna/contracts/live';
import { voterDisplayName } from '../polls/rules.ts';
import type { VotingPoll } from '../polls/pollCache.ts';
import type { VoterProfile } from './repository.ts';
import { isPointsPoll } from './rules.ts';
import { nextMidnight } from '@tribuna/contracts/showDay';

/** The user's standing on one option of a poll. */
export interface OptionStanding {
  optionId: string;
  points: number;
  lastVotedAt: Date;
}

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
