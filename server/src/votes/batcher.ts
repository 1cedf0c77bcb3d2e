import type { MyVotesResponse } from '@tribuna/contracts/api/votes';
import { VOTE_MESSAGES } from '@tribuna/contracts/api/votes';
import type { CommittedVotes, VoterChange } from '@tribuna/contracts/live';
import type postgres from 'postgres';
import { badRequest, HttpError } from '../http/errors.ts';
import type { VotingPoll } from './pollCache.ts';
import { presentMyVotes, voterName, type OptionStanding } from './presenter.ts';
import * as repo from './repository.ts';
import { isPointsPoll, pointsWindowStart, voteFailed, type Allocation } from './rules.ts';

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

export interface VoteCommand {
  userId: string;
  poll: VotingPoll;
  /** Positive points per distinct option; a single-choice vote is one entry worth 1. */
  allocations: Allocation[];
  deviceFingerprint: string;
  userAgent: string | null;
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
  /** After-commit work; its failures are logged, never reported to the voters. */
  onCommitted?: (batch: CommittedBatch) => Promise<void> | void;
  logger?: BatcherLogger;
}

export const DEFAULT_MAX_BATCH_SIZE = 500;
export const DEFAULT_MAX_WAIT_MS = 2;
export const DEFAULT_MAX_CONCURRENT_FLUSHES = 2;

interface Pending {
  command: VoteCommand;
  resolve(response: MyVotesResponse): void;
  reject(error: unknown): void;
}

type Outcome = { ok: true; response: MyVotesResponse } | { ok: false; error: HttpError };

interface BatchResult {
  outcomes: Outcome[];
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

export class VoteBatcher {
  readonly stats = { batches: 0, commands: 0, largestBatch: 0, failedBatches: 0, flushMs: 0, maxFlushMs: 0 };

  private readonly sql: postgres.Sql;
  private readonly timeZone: string;
  private readonly maxBatchSize: number;
  private readonly maxWaitMs: number;
  private readonly maxConcurrent: number;
  private readonly onCommitted: VoteBatcherOptions['onCommitted'];
  private readonly logger: BatcherLogger;

  private queue: Pending[] = [];
  private inFlight = 0;
  private immediate: NodeJS.Immediate | null = null;
  private timer: NodeJS.Timeout | null = null;
  private closing = false;
  private readonly afterCommit = new Set<Promise<void>>();
  private idleWaiters: (() => void)[] = [];

  constructor(options: VoteBatcherOptions) {
    this.sql = options.sql;
    this.timeZone = options.timeZone;
    this.maxBatchSize = options.maxBatchSize ?? DEFAULT_MAX_BATCH_SIZE;
    this.maxWaitMs = options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
    this.maxConcurrent = options.maxConcurrentFlushes ?? DEFAULT_MAX_CONCURRENT_FLUSHES;
    this.onCommitted = options.onCommitted;
    this.logger = options.logger ?? noopLogger;
  }

  /** Resolves after COMMIT with the user's votes on the poll; rejects with the command's own HttpError. */
  submit(command: VoteCommand): Promise<MyVotesResponse> {
    if (this.closing) return Promise.reject(voteFailed());
    return new Promise<MyVotesResponse>((resolve, reject) => {
      this.queue.push({ command, resolve, reject });
      this.kick();
    });
  }

  /** Stops taking commands and waits for the queued ones and their after-commit work. */
  async close(): Promise<void> {
    this.closing = true;
    if (this.queue.length > 0 || this.inFlight > 0) {
      await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
    }
    await Promise.allSettled([...this.afterCommit]);
  }

  private kick(): void {
    if (this.queue.length === 0 || this.inFlight >= this.maxConcurrent) return;
    if (this.inFlight === 0) {
      // Gather whatever arrives in this turn of the event loop, then go.
      this.immediate ??= setImmediate(() => {
        this.immediate = null;
        this.startFlush();
      });
      return;
    }
    if (this.queue.length >= this.maxBatchSize) {
      this.startFlush();
      return;
    }
    this.timer ??= setTimeout(() => {
      this.timer = null;
      this.startFlush();
    }, this.maxWaitMs);
  }

  private startFlush(): void {
    if (this.queue.length === 0 || this.inFlight >= this.maxConcurrent) return;
    const batch = this.queue.splice(0, this.maxBatchSize);
    this.inFlight++;
    void this.run(batch).finally(() => {
      this.inFlight--;
      this.kick();
      if (this.queue.length === 0 && this.inFlight === 0) {
        const waiters = this.idleWaiters;
        this.idleWaiters = [];
        for (const wake of waiters) wake();
      }
    });
  }

  private async run(batch: Pending[]): Promise<void> {
    const now = new Date();
    const started = performance.now();
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
      this.stats.failedBatches++;
      this.logger.error({ err, commands: batch.length }, 'vote batch failed; nothing was written');
      for (const pending of batch) pending.reject(voteFailed());
      return;
    }
    const committedAt = Date.now();
    const flushMs = performance.now() - started;
    this.stats.flushMs += flushMs;
    this.stats.maxFlushMs = Math.max(this.stats.maxFlushMs, flushMs);
    this.stats.batches++;
    this.stats.commands += batch.length;
    this.stats.largestBatch = Math.max(this.stats.largestBatch, batch.length);

    result.outcomes.forEach((outcome, i) => {
      if (outcome.ok) batch[i]!.resolve(outcome.response);
      else batch[i]!.reject(outcome.error);
    });

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
        .catch((err: unknown) => this.logger.warn({ err }, 'after-commit work of a vote batch failed'))
        .finally(() => this.afterCommit.delete(work));
      this.afterCommit.add(work);
    }
  }

  /** A deadlock with some other writer (not another batch: their locks are ordered) is retried once. */
  private async applyWithRetry(commands: VoteCommand[], now: Date): Promise<BatchResult> {
    try {
      return await applyBatch(this.sql, commands, this.timeZone, now);
    } catch (err) {
      if (!isRetryable(err)) throw err;
      return applyBatch(this.sql, commands, this.timeZone, now);
    }
  }
}

/** Applies a batch of commands in one transaction; answers one outcome per command, in order. */
export async function applyBatch(client: postgres.Sql, commands: VoteCommand[], timeZone: string, now: Date): Promise<BatchResult> {
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
  }));

  // One round trip: BEGIN, the locks, the batch statement and COMMIT travel together.
  const written = await repo.pipelinedTransaction(client, async (tx) => {
    const [, result] = await Promise.all([
      repo.lockVoters(
        tx,
        [...ledgers.values()].map((l) => l.key),
      ),
      repo.writeVoteBatch(tx, rows),
      tx.commit(),
    ]);
    return result;
  });

  // The answers replay the statement's decisions on the standing it read.
  const votedAt = written.now;
  for (const state of written.standing) {
    const ledger = ledgers.get(keyOf(state.userId, state.pollId));
    if (!ledger) continue;
    for (const option of state.options) ledger.options.set(option.optionId, option);
    ledger.spent = spentOf(state);
  }
  const decided: (HttpError | Ledger)[] = commands.map((command, i) => {
    const ledger = ledgers.get(keyOf(command.userId, command.poll.id))!;
    const decision = written.decisions[i]!;
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

  const outcomes: Outcome[] = decided.map((d) =>
    d instanceof HttpError ? { ok: false, error: d } : { ok: true, response: presentMyVotes(d.poll, d.options.values(), d.spent, timeZone, now) },
  );
  const accepted = new Set(decided.filter((d): d is Ledger => !(d instanceof HttpError)));
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

function changesByPoll(
  added: repo.VoteRow[],
  removed: repo.VoteRow[],
  profiles: Map<string, repo.VoterProfile>,
): CommittedVotes[] {
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
    entry(row.pollId).removed.push({ optionId: row.optionId, userId: row.userId, points: row.points });
  }
  for (const row of added) {
    const change: VoterChange = { optionId: row.optionId, userId: row.userId, ...voterName(profiles.get(row.userId)), points: row.points };
    entry(row.pollId).added.push(change);
  }
  return [...byPoll.values()];
}

function sqlState(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

/** Class 23 (a foreign key, check or unique constraint refused a row) or 22 (a value PostgreSQL refused). */
function isRowError(err: unknown): boolean {
  const state = sqlState(err);
  return state !== undefined && (state.startsWith('23') || state.startsWith('22'));
}

/** Deadlock or serialization failure. */
function isRetryable(err: unknown): boolean {
  const state = sqlState(err);
  return state === '40P01' || state === '40001';
}
