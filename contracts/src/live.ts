// Live updates: messages on /ws (server ⇄ browser) and the domain events that carry them between
// processes on Redis pub/sub. Dependency-free: imported by server, worker and web.

export interface LiveOptionTotals {
  optionId: string;
  totalVotes: number;
  totalPoints: number;
}

/**
 * Coalesced absolute totals of one poll. `seq` increases with every committed vote batch; a client
 * drops a snapshot whose seq is not above the last one it applied. `committedAt` is the commit time
 * (ms since epoch) of the newest vote the snapshot includes.
 */
export interface ResultsSnapshot {
  type: 'results';
  pollId: string;
  seq: number;
  totalVotes: number;
  totalPoints: number;
  totalVoters: number;
  options: LiveOptionTotals[];
  committedAt: number;
}

export interface VoterChange {
  optionId: string;
  userId: string;
  displayName: string;
  avatarUrl: string | null;
  /** Points this change adds for the user on the option. */
  points: number;
}

/** New voters (and single-choice votes moved away from an option) since the previous message. */
export interface VotersMessage {
  type: 'voters';
  pollId: string;
  seq: number;
  added: VoterChange[];
  removed: { optionId: string; userId: string }[];
}

export interface PollStatusMessage {
  type: 'poll-status';
  pollId: string;
  status: 'draft' | 'active' | 'closed';
  isFeatured: boolean;
}

/** The daily reset ran: clients refresh their available points. */
export interface PointsResetMessage {
  type: 'points-reset';
  day: string;
}

export type LiveServerMessage = ResultsSnapshot | VotersMessage | PollStatusMessage | PointsResetMessage;

export type LiveClientMessage = { type: 'subscribe'; pollId: string } | { type: 'unsubscribe'; pollId: string };

/** Domain events on the Redis channel `${prefix}:events:live` (published after commit). */
export type LiveEvent =
  | {
      kind: 'votes';
      pollId: string;
      seq: number;
      committedAt: number;
      added: VoterChange[];
      removed: { optionId: string; userId: string }[];
    }
  | { kind: 'poll-status'; pollId: string; status: 'draft' | 'active' | 'closed'; isFeatured: boolean }
  | { kind: 'points-reset'; day: string };

export const LIVE_CHANNEL = 'live';

/** Redis keys of the live totals (all under REDIS_PREFIX); rebuildable from PostgreSQL. */
export const liveKeys = {
  totals: (prefix: string, pollId: string) => `${prefix}:poll:${pollId}:totals`,
  voters: (prefix: string, pollId: string) => `${prefix}:poll:${pollId}:voters`,
};

/**
 * What the votes service hands to the live module after a vote transaction commits: the rows it
 * inserted and the single-choice rows it replaced. The live module turns it into Redis totals,
 * a `votes` LiveEvent and, on every server instance, snapshots for the viewers.
 */
export interface CommittedVotes {
  pollId: string;
  committedAt: number;
  added: VoterChange[];
  removed: { optionId: string; userId: string; points: number }[];
}
