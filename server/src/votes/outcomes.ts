import type { Pending } from '../batching/groupCommit.ts';
import type { VotingPoll } from '../polls/pollCache.ts';
import type { StoredVoteAnswer } from './repository.ts';
import type { Allocation } from './rules.ts';

// What the vote writer (batcher.ts) takes and what it answers, in the domain's terms: no HTTP
// status, no response body. The service (service.ts) turns an outcome into the route's answer,
// with the presenter (presenter.ts).

export interface VoteCommand {
  userId: string;
  poll: VotingPoll;
  /** Positive points per distinct option; a single-choice vote is one entry worth 1. */
  allocations: Allocation[];
  deviceFingerprint: string;
  userAgent: string | null;
  /** The request's Idempotency-Key header, when it sent one. */
  idempotencyKey?: string | null;
}

/** The user's standing on one option of a poll. */
export interface OptionStanding {
  optionId: string;
  points: number;
  lastVotedAt: Date;
}

/**
 * A vote written: the user's standing on the poll as its batch left it (every command of the same
 * user and poll in one batch shares it), which is what the vote is answered with.
 */
export interface AcceptedVote {
  readonly kind: 'accepted';
  readonly poll: VotingPoll;
  /** The user's points per option (single choice: the current vote's option, worth 1). */
  readonly options: ReadonlyMap<string, OptionStanding>;
  /** Points counted against the maximum: those of the window, or every point on the poll. */
  readonly spent: number;
  /** The clock the vote was decided on (the points window's day, the next reset). */
  readonly at: Date;
}

/**
 * A vote refused with nothing written: the poll closed or an option left the ballot after the
 * poll cache let it through ('closed', 'option'), more points than the user has left ('points',
 * with what was available at its turn), or an idempotency key this user already used for a vote
 * on another poll ('key-reused').
 */
export type RefusedVote =
  | { readonly kind: 'refused'; readonly reason: 'closed' | 'option' | 'key-reused' }
  | { readonly kind: 'refused'; readonly reason: 'points'; readonly available: number };

/**
 * A keyed vote's answer as stored under its idempotency key ({status, body}: the format the rows
 * hold): the answer its own batch stored, or the one an earlier request with the key got.
 */
export interface AnsweredVote {
  readonly kind: 'answered';
  readonly answer: StoredVoteAnswer;
}

/** What the writer decided about a vote; a vote it did not take rejects with VoteNotTaken. */
export type VoteOutcome = AcceptedVote | RefusedVote | AnsweredVote;

export const POLL_CLOSED: RefusedVote = Object.freeze({ kind: 'refused', reason: 'closed' });
export const FOREIGN_OPTION: RefusedVote = Object.freeze({ kind: 'refused', reason: 'option' });
export const KEY_REUSED: RefusedVote = Object.freeze({ kind: 'refused', reason: 'key-reused' });

/**
 * A vote the writer did not take, nothing of it written: 'busy' (its queue was full, the vote
 * waited too long for a flush, or its batch gave up waiting for a lock) or 'failed' (its batch
 * failed, or the writer was closing).
 */
export class VoteNotTaken extends Error {
  constructor(readonly reason: 'busy' | 'failed') {
    super(reason === 'busy' ? 'vote writer busy; nothing was written' : 'vote not written');
    this.name = 'VoteNotTaken';
  }
}

/** The writer's refusals carry nothing of the vote: one instance each serves every rejection. */
export const WRITER_BUSY = new VoteNotTaken('busy');
export const WRITER_FAILED = new VoteNotTaken('failed');

/** A command in the writer's queue (batching/groupCommit.ts), settled with its outcome. */
export type PendingVote = Pending<VoteCommand, VoteOutcome>;
