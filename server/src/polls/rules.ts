import type { Poll, PollStatus } from '@tribuna/contracts/api/polls';
import type { PollRow } from './repository.ts';

// The polls domain's rules, used wherever a poll is shown or voted on (HTTP, live, votes, shares).

/** Used when a poll has no poll_points_config row. */
export const DEFAULT_POINTS_CONFIG: Poll['pointsConfig'] = {
  pointsPerVote: 1,
  maxPointsPerUser: 1,
  dailyReset: false,
  bonusForSharing: 5,
};

export const ANONYMOUS_NAME = 'Anonymous';

/** The status the public sees: an active poll past its end date is closed. */
export function effectiveStatus(row: Pick<PollRow, 'status' | 'endDate'>, now: Date): PollStatus {
  if (row.status === 'active' && row.endDate !== null && row.endDate.getTime() <= now.getTime()) return 'closed';
  return row.status;
}

/** Who reads a poll's results: a signed-in user, or null for a visitor. */
export type ResultsReader = { id: string } | null;

/**
 * Whether a reader sees who voted (the voters lists; the live voters messages follow the same rule
 * in live/topic.ts). Visitors get counts only: names per option would let anyone rebuild a fan's
 * voting history, which the profile says is private.
 */
export const mayListVoters = (reader: ResultsReader): boolean => reader !== null;

/** How a voter is named wherever voters are shown (results, live updates): the spec's display_name default 'Anonymous'. */
export const voterDisplayName = (displayName: string | null | undefined): string => displayName ?? ANONYMOUS_NAME;
