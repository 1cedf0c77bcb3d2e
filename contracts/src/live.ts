// Live updates: messages on /ws (server ⇄ browser) and the domain events that carry them between
// processes on Redis pub/sub. Dependency-free: imported by server, worker and web.

export interface LiveOptionTotals {
  optionId: string;
  totalVotes: number;
  totalPoints: number;
}

/**
 * Coalesced absolute totals of one poll. `seq` increases with every committed vote batch; a client
 * drops a snapshot whose seq is not above the last one it applied. `seq` is increasing, not
 * contiguous: it jumps (to a microsecond clock value) when the totals are rebuilt from PostgreSQL.
 * `committedAt` is the commit time (ms since epoch) of the newest vote the snapshot includes.
 * `options` lists every option of the poll in option order (an option added later may be missing
 * until it gets a vote: its totals are zero).
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

/**
 * Why a client message was refused; the socket stays open. `rate-limited`: the socket spent its
 * message budget (every frame counts); it comes once, and a socket that keeps sending is closed
 * with LIVE_CLOSE_CODES.policyViolation.
 */
export const LIVE_ERROR_CODES = ['invalid-message', 'poll-not-found', 'too-many-subscriptions', 'rate-limited', 'unavailable'] as const;
export type LiveErrorCode = (typeof LIVE_ERROR_CODES)[number];

/**
 * Close codes the server uses on /ws (RFC 6455 §7.4.1). A browser sees the close code but never the
 * HTTP status of a refused upgrade, so a full server accepts the upgrade and closes at once with
 * tryAgainLater. After policyViolation or tryAgainLater the client waits far longer than after a drop.
 */
export const LIVE_CLOSE_CODES = {
  /** Kept sending after its message budget ran out. */
  policyViolation: 1008,
  /** Sent a frame larger than the server accepts. */
  messageTooBig: 1009,
  /** Too many connections from this address, or on this server: try again later. */
  tryAgainLater: 1013,
} as const;

/** A subscribe (or other client message) the server refused. The socket stays open. */
export interface LiveErrorMessage {
  type: 'error';
  code: LiveErrorCode;
  pollId?: string;
}

/**
 * Connection-level messages. `hello.userId`: who the socket was opened as (the session cookie of the
 * upgrade request), null for a visitor; a client that signs in or out reconnects to change it.
 */
export type ServerMessage =
  | { type: 'hello'; serverTime: string; userId?: string | null }
  | { type: 'pong'; serverTime: string };
export type ClientMessage = { type: 'ping' };

export type LiveServerMessage = ResultsSnapshot | VotersMessage | PollStatusMessage | PointsResetMessage | LiveErrorMessage;

export type LiveClientMessage = { type: 'subscribe'; pollId: string } | { type: 'unsubscribe'; pollId: string };

/** How many polls one socket may watch at once; a subscribe beyond it gets `too-many-subscriptions`. */
export const LIVE_MAX_SUBSCRIPTIONS_PER_SOCKET = 10;

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

/** Redis pub/sub channel names are always prefixed with REDIS_PREFIX. */
export function channelName(prefix: string, channel: string): string {
  return `${prefix}:events:${channel}`;
}

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
