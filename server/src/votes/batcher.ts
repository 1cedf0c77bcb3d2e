import type { ErrorBody } from '@tribuna/contracts/api/common';
import type { MyVotesResponse } from '@tribuna/contracts/api/votes';
import { VOTE_MESSAGES } from '@tribuna/contracts/api/votes';
import type { CommittedVotes, VoterChange } from '@tribuna/contracts/live';
import type postgres from 'postgres';
import { badRequest, conflict, errorBody, HttpError } from '../http/errors.ts';
import type { VotingPoll } from '../polls/pollCache.ts';
import { presentMyVotes, voterName, type OptionStanding } from './presenter.ts';
import * as repo from './repository.ts';
import { constraintOf, isRowError, LOCK_NOT_AVAILABLE, sqlState } from '@tribuna/drizzle/sqlState';
import { GROUP_COMMIT_DEFAULTS, GroupCommitQueue, tuningOf, type Pending as QueuedCommand } from '../batching/groupCommit.ts';
import { idempotencyKeyReused, isPointsPoll, pointsWindowStart, serviceBusy, voteFailed, type Allocation } from './rules.ts';

// Micro-batching vote writer ("group commit"). Requests hand over an already validated command and
// wait; a flusher takes everything queued (up to maxBatchSize) and applies it in ONE transaction,
// sent as ONE round trip (BEGIN, lock, batch statement and COMMIT pipelined on one connection):
//
//   1. advisory locks on every (user, poll) of the batch, in ascending key order (no deadlocks);
//   2. one statement (repository.writeVoteBatch) that reads the users' standing on those polls,
//      decides every command in arrival order (two commands of one user in one batch see each
//      other; a command over its points is refused alone, it never aborts the transaction),
//      deletes the replaced single-choice votes, inserts every new row and answers all of it;
//   3. after COMMIT, each request gets its own answer (the decisions replayed on the standing the
//      statement read), then the after-commit work (live totals, award jobs) runs without holding
//      any request.
//
// While a flush is in flight new commands queue up and go together in the next one; a second
// flush may overlap the first once the queue has waited maxWaitMs or is full.
//
// The queue is bounded: past maxQueuedCommands a vote is refused at once, and a vote that waited
// maxQueueWaitMs without its flush starting is refused then (a timer sees to it even if every
// flush is stuck), both with 503 'El servicio está ocupado' and nothing written. A batch waits at
// most lockTimeoutMs for a lock (SET LOCAL lock_timeout, in the same round trip), else its votes
// get the same 503.
//
// Idempotency keys: a command carrying one that another command of this instance is still
// handling gets that command's answer; in the database the key is claimed in the batch's own
// transaction (see repository.writeVoteBatch). The answer is stored right after COMMIT, before
// the keyed voters are answered (one more round trip, for keyed batches only), so a retry that
// follows a lost answer replays it.

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

export interface CommittedBatch {
  /** ms since epoch, taken right after COMMIT returned. */
  committedAt: number;
  /** The transaction's clock: created_at of the inserted votes. */
  votedAt: Date;
  /** One entry per poll whose votes changed. */
  changes: CommittedVotes[];
  /** (user, poll) of every accepted command, deduplicated. */
  voters: repo.VoterKey[];
}

export interface BatcherLogger {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface VoteBatcherOptions {
  /** The PostgreSQL client (postgres.js): batches run as pipelined transactions on a reserved connection. */
  sql: postgres.Sql;
  timeZone: string;
  maxBatchSize?: number;
  /** How long queued commands wait for a second, overlapping flush while one is in flight. */
  maxWaitMs?: number;
  maxConcurrentFlushes?: number;
  /** Votes allowed to wait for a flush; one more is refused at once with 503. */
  maxQueuedCommands?: number;
  /** A vote whose flush has not started after this long is refused with 503, unwritten. */
  maxQueueWaitMs?: number;
  /** lock_timeout of a batch's transaction. */
  lockTimeoutMs?: number;
  /** After-commit work; its failures are logged, never reported to the voters. */
  onCommitted?: (batch: CommittedBatch) => Promise<void> | void;
  logger?: BatcherLogger;
}

export const DEFAULT_MAX_QUEUED_COMMANDS = GROUP_COMMIT_DEFAULTS.maxQueuedCommands;
export const DEFAULT_MAX_QUEUE_WAIT_MS = GROUP_COMMIT_DEFAULTS.maxQueueWaitMs;
/** Batches hold their locks for milliseconds: waiting seconds means another writer is stuck. */
export const DEFAULT_LOCK_TIMEOUT_MS = 2000;

/** How long a replay waits for an earlier request's answer to be stored (it is, right after its COMMIT). */
const STORED_ANSWER_POLLS = 10;
const STORED_ANSWER_POLL_MS = 50;

/** The route's status for an accepted vote, as stored with its answer. */
const ACCEPTED = 201;

type Pending = QueuedCommand<VoteCommand, MyVotesResponse>;

type Outcome = { ok: true; response: MyVotesResponse } | { ok: false; error: HttpError };
/** A command's fate in its batch: an answer of its own, or a key claimed by an earlier request. */
type BatchOutcome = Outcome | repo.EarlierRequest;

interface BatchResult {
  outcomes: BatchOutcome[];
  votedAt: Date;
  changes: CommittedVotes[];
  voters: repo.VoterKey[];
}

/** The user's standing on one poll while a batch is checked. */
interface Ledger {
  key: repo.VoterKey;
  poll: VotingPoll;
  options: Map<string, OptionStanding>;
  /** Points in the window (single choice: the current vote's point). */
  spent: number;
}

const keyOf = (userId: string, pollId: string) => `${userId}|${pollId}`;

const noopLogger: BatcherLogger = { warn: () => {}, error: () => {} };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class VoteBatcher {
  private readonly sql: postgres.Sql;
  private readonly timeZone: string;
  private readonly lockTimeoutMs: number;
  private readonly onCommitted: VoteBatcherOptions['onCommitted'];
  private readonly logger: BatcherLogger;
  /** Queueing, bounds and flush scheduling (batching/groupCommit.ts); this class writes the batches. */
  private readonly queue: GroupCommitQueue<VoteCommand, MyVotesResponse>;
  /** Keyed commands queued or in flight, by user and key: a duplicate shares the first one's answer. */
  private readonly keyed = new Map<string, { pollId: string; answer: Promise<MyVotesResponse> }>();

  constructor(options: VoteBatcherOptions) {
    this.sql = options.sql;
    this.timeZone = options.timeZone;
    this.lockTimeoutMs = options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
    this.onCommitted = options.onCommitted;
    this.logger = options.logger ?? noopLogger;
    this.queue = new GroupCommitQueue<VoteCommand, MyVotesResponse>({
      ...tuningOf(options),
      logger: this.logger,
      noun: 'votes',
      busy: serviceBusy,
      failed: voteFailed,
      flush: (batch) => this.run(batch),
    });
  }

  /** refused: votes answered 503 busy (queue full, waited too long, or a lock timeout). */
  get stats() {
    return this.queue.stats;
  }

  /** Resolves after COMMIT with the user's votes on the poll; rejects with the command's own HttpError. */
  submit(command: VoteCommand): Promise<MyVotesResponse> {
    const key = command.idempotencyKey ? keyOf(command.userId, command.idempotencyKey) : null;
    if (key !== null) {
      const same = this.keyed.get(key);
      if (same) return same.pollId === command.poll.id ? same.answer : Promise.reject(idempotencyKeyReused());
    }
    const answer = this.queue.submit(command);
    if (key !== null) {
      this.keyed.set(key, { pollId: command.poll.id, answer });
      const forget = () => this.keyed.delete(key);
      answer.then(forget, forget);
    }
    return answer;
  }

  /** Stops taking commands and waits for the queued ones and their after-commit work. */
  close(): Promise<void> {
    return this.queue.close();
  }

  private async run(batch: Pending[]): Promise<void> {
    const now = new Date();
    let result: BatchResult;
    try {
      result = await this.applyWithRetry(
        batch.map((p) => p.command),
        now,
      );
    } catch (err) {
      if (batch.length > 1 && isRowError(err)) {
        // One command's row was refused (say its option was deleted within the poll cache's TTL):
        // settle each command on its own so only the offending one fails.
        for (const pending of batch) await this.run([pending]);
        return;
      }
      if (sqlState(err) === LOCK_NOT_AVAILABLE) {
        this.queue.stats.failedBatches++;
        this.queue.stats.refused += batch.length;
        this.logger.warn({ commands: batch.length, lockTimeoutMs: this.lockTimeoutMs }, 'vote batch gave up waiting for a lock; nothing was written');
        for (const pending of batch) pending.reject(serviceBusy());
        return;
      }
      throw err;
    }
    const committedAt = Date.now();

    const claimed: { pending: Pending; outcome: Outcome }[] = [];
    const replays: { pending: Pending; earlier: repo.EarlierRequest }[] = [];
    result.outcomes.forEach((outcome, i) => {
      const pending = batch[i]!;
      if ('kind' in outcome) replays.push({ pending, earlier: outcome });
      else if (pending.command.idempotencyKey) claimed.push({ pending, outcome });
      else settle(pending, outcome);
    });
    if (claimed.length > 0 || replays.length > 0) this.queue.track(this.answerKeyed(claimed, replays));

    if (this.onCommitted && (result.changes.length > 0 || result.voters.length > 0)) {
      const work = Promise.resolve()
        .then(() =>
          this.onCommitted!({
            committedAt,
            votedAt: result.votedAt,
            changes: result.changes.map((c) => ({ ...c, committedAt })),
            voters: result.voters,
          }),
        )
        .catch((err: unknown) => this.logger.warn({ err }, 'after-commit work of a vote batch failed'));
      this.queue.track(work);
    }
  }

  /** Stores the answers of the keys this batch claimed, then answers their voters; replays the others. */
  private async answerKeyed(claimed: { pending: Pending; outcome: Outcome }[], replays: { pending: Pending; earlier: repo.EarlierRequest }[]): Promise<void> {
    const db = repo.poolRunner(this.sql);
    const store = async () => {
      if (claimed.length === 0) return;
      try {
        await repo.storeVoteAnswers(
          db,
          claimed.map(({ pending, outcome }) => ({ userId: pending.command.userId, key: pending.command.idempotencyKey!, answer: storedAnswer(outcome) })),
        );
      } catch (err) {
        this.logger.warn({ err }, 'answers of idempotent votes not stored; a retry will get the current standing');
      }
    };
    try {
      await Promise.all([store(), this.replay(db, replays)]);
    } finally {
      // Settling twice is a no-op: this answers the claimed votes, and whoever a failure above left waiting.
      for (const { pending, outcome } of claimed) settle(pending, outcome);
      for (const { pending } of replays) pending.reject(voteFailed());
    }
  }

  /**
   * Answers commands whose key an earlier, committed request claimed: 422 when that was for another
   * poll, else its stored answer. One not stored yet is waited for briefly (it is written right
   * after that request's COMMIT); if it never comes (that server stopped in between), the answer
   * is the user's standing on the poll now, which includes the earlier vote.
   */
  private async replay(db: repo.SqlRunner, replays: { pending: Pending; earlier: repo.EarlierRequest }[]): Promise<void> {
    let waiting: Pending[] = [];
    for (const { pending, earlier } of replays) {
      if (earlier.pollId !== pending.command.poll.id) pending.reject(idempotencyKeyReused());
      else if (earlier.answer) settleStored(pending, earlier.answer);
      else waiting.push(pending);
    }
    const keyOfPending = (p: Pending) => ({ userId: p.command.userId, key: p.command.idempotencyKey! });
    for (let attempt = 0; waiting.length > 0 && attempt < STORED_ANSWER_POLLS; attempt++) {
      await sleep(STORED_ANSWER_POLL_MS);
      const found = await repo.findVoteAnswers(db, waiting.map(keyOfPending)).catch(() => new Map<string, repo.StoredVoteAnswer>());
      waiting = waiting.filter((pending) => {
        const answer = found.get(keyOf(pending.command.userId, pending.command.idempotencyKey!));
        if (answer) settleStored(pending, answer);
        return !answer;
      });
    }
    if (waiting.length === 0) return;
    const now = new Date();
    try {
      const states = await repo.readVoterState(
        db,
        waiting.map((p) => ({ userId: p.command.userId, pollId: p.command.poll.id, since: pointsWindowStart(p.command.poll, this.timeZone, now) })),
      );
      const byKey = new Map(states.map((s) => [keyOf(s.userId, s.pollId), s]));
      for (const pending of waiting) {
        const state = byKey.get(keyOf(pending.command.userId, pending.command.poll.id));
        pending.resolve(presentMyVotes(pending.command.poll, state?.options ?? [], state ? spentOf(state) : 0, this.timeZone, now));
      }
    } catch (err) {
      this.logger.warn({ err }, 'standing for a replayed vote not read');
      for (const pending of waiting) pending.reject(voteFailed());
    }
  }

  /**
   * A deadlock with some other writer (not another batch: their locks are ordered), or an
   * idempotency key claimed meanwhile for another poll, is retried once (the retry sees the claim).
   */
  private async applyWithRetry(commands: VoteCommand[], now: Date): Promise<BatchResult> {
    try {
      return await applyBatch(this.sql, commands, this.timeZone, now, this.lockTimeoutMs);
    } catch (err) {
      if (!isRetryable(err)) throw err;
      return applyBatch(this.sql, commands, this.timeZone, now, this.lockTimeoutMs);
    }
  }
}

function settle(pending: Pending, outcome: Outcome): void {
  if (outcome.ok) pending.resolve(outcome.response);
  else pending.reject(outcome.error);
}

function storedAnswer(outcome: Outcome): repo.StoredVoteAnswer {
  return outcome.ok
    ? { status: ACCEPTED, body: outcome.response }
    : { status: outcome.error.statusCode, body: errorBody(outcome.error.statusCode, outcome.error.message) };
}

function settleStored(pending: Pending, answer: repo.StoredVoteAnswer): void {
  if (answer.status === ACCEPTED) pending.resolve(answer.body as MyVotesResponse);
  else pending.reject(new HttpError(answer.status, (answer.body as ErrorBody).message));
}

/** Applies a batch of commands in one transaction; answers one outcome per command, in order. */
export async function applyBatch(client: postgres.Sql, commands: VoteCommand[], timeZone: string, now: Date, lockTimeoutMs?: number): Promise<BatchResult> {
  const ledgers = new Map<string, Ledger>();
  for (const command of commands) {
    const id = keyOf(command.userId, command.poll.id);
    if (!ledgers.has(id)) {
      ledgers.set(id, {
        key: { userId: command.userId, pollId: command.poll.id },
        poll: command.poll,
        options: new Map(),
        spent: 0,
      });
    }
  }
  const rows: repo.VoteCommandRow[] = commands.map((command) => ({
    userId: command.userId,
    pollId: command.poll.id,
    singleChoice: !isPointsPoll(command.poll),
    maxPointsPerUser: command.poll.maxPointsPerUser,
    since: pointsWindowStart(command.poll, timeZone, now),
    allocations: command.allocations,
    deviceFingerprint: command.deviceFingerprint,
    userAgent: command.userAgent,
    idempotencyKey: command.idempotencyKey ?? null,
  }));

  // One round trip: BEGIN, the lock timeout, the locks, the batch statement and COMMIT travel together.
  const written = await repo.pipelinedCommit(
    client,
    async (tx) => {
      const [, result] = await Promise.all([
        repo.lockVoters(
          tx,
          [...ledgers.values()].map((l) => l.key),
        ),
        repo.writeVoteBatch(tx, rows),
      ]);
      return result;
    },
    { lockTimeoutMs },
  );

  // The answers replay the statement's decisions on the standing it read.
  const votedAt = written.now;
  for (const state of written.standing) {
    const ledger = ledgers.get(keyOf(state.userId, state.pollId));
    if (!ledger) continue;
    for (const option of state.options) ledger.options.set(option.optionId, option);
    ledger.spent = spentOf(state);
  }
  const decided: (HttpError | Ledger | repo.EarlierRequest)[] = commands.map((command, i) => {
    const ledger = ledgers.get(keyOf(command.userId, command.poll.id))!;
    const decision = written.decisions[i]!;
    if (decision.kind === 'earlier') return decision;
    // Closed or changed by an admin after this instance's poll cache read it: refused like the cache would have.
    if (decision.kind === 'refused') return decision.reason === 'closed' ? conflict(VOTE_MESSAGES.pollClosed) : badRequest(VOTE_MESSAGES.foreignOption);
    if (!isPointsPoll(command.poll)) {
      const allocation = command.allocations[0]!;
      ledger.options = new Map([[allocation.optionId, { optionId: allocation.optionId, points: 1, lastVotedAt: votedAt }]]);
      ledger.spent = 1;
      return ledger;
    }
    if (!decision.accepted) return badRequest(VOTE_MESSAGES.tooManyPoints(decision.available ?? 0));
    for (const allocation of command.allocations) {
      const current = ledger.options.get(allocation.optionId);
      ledger.spent += allocation.points;
      ledger.options.set(allocation.optionId, {
        optionId: allocation.optionId,
        points: (current?.points ?? 0) + allocation.points,
        lastVotedAt: votedAt,
      });
    }
    return ledger;
  });

  const outcomes: BatchOutcome[] = decided.map((d) => {
    if (d instanceof HttpError) return { ok: false, error: d };
    if ('kind' in d) return d;
    return { ok: true, response: presentMyVotes(d.poll, d.options.values(), d.spent, timeZone, now) };
  });
  const accepted = new Set(decided.filter((d): d is Ledger => !(d instanceof HttpError) && !('kind' in d)));
  return {
    outcomes,
    votedAt,
    changes: changesByPoll(written.added, written.removed, new Map(written.profiles.map((p) => [p.userId, p]))),
    voters: [...accepted].map((l) => l.key),
  };
}

/** Points counted against the maximum: those of the window, or every point the user has on the poll. */
export function spentOf(state: repo.VoterState): number {
  return state.windowSpent ?? state.options.reduce((sum, o) => sum + o.points, 0);
}

function changesByPoll(added: repo.VoteRow[], removed: repo.VoteRow[], profiles: Map<string, repo.VoterProfile>): CommittedVotes[] {
  const byPoll = new Map<string, CommittedVotes>();
  const entry = (pollId: string) => {
    let change = byPoll.get(pollId);
    if (!change) {
      change = { pollId, committedAt: 0, added: [], removed: [] };
      byPoll.set(pollId, change);
    }
    return change;
  };
  for (const row of removed) {
    const hidden = profiles.get(row.userId)?.listed === false;
    entry(row.pollId).removed.push({ optionId: row.optionId, userId: row.userId, points: row.points, ...(hidden ? { hidden: true as const } : {}) });
  }
  for (const row of added) {
    const change: VoterChange = { optionId: row.optionId, userId: row.userId, ...voterName(profiles.get(row.userId)), points: row.points };
    entry(row.pollId).added.push(change);
  }
  return [...byPoll.values()];
}

/** Deadlock, serialization failure, or an idempotency key claimed by a concurrent transaction. */
function isRetryable(err: unknown): boolean {
  const state = sqlState(err);
  return state === '40P01' || state === '40001' || (state === '23505' && constraintOf(err) === 'vote_requests_pk');
}
