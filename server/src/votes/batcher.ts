import type { CommittedVotes } from '@tribuna/contracts/live';
import type postgres from 'postgres';
import { constraintOf, isRowError, LOCK_NOT_AVAILABLE, sqlState } from '@tribuna/drizzle/sqlState';
import { GROUP_COMMIT_DEFAULTS, GroupCommitQueue, tuningOf, type GroupCommitLogger } from '../batching/groupCommit.ts';
import { IdempotentVotes, type ClaimedVote, type ReplayedVote } from './idempotency.ts';
import { applyBatch, openLedgers, type BatchResult } from './ledger.ts';
import { WRITER_BUSY, WRITER_FAILED, type PendingVote, type VoteCommand, type VoteOutcome } from './outcomes.ts';
import * as repo from './repository.ts';
import { isPointsPoll, pointsWindowStart } from './rules.ts';

export type { VoteCommand, VoteOutcome } from './outcomes.ts';

// Micro-batching vote writer ("group commit"). Requests hand over an already validated command and
// wait; a flusher takes everything queued (up to maxBatchSize) and applies it in ONE transaction,
// sent as ONE round trip (BEGIN, lock, batch statement and COMMIT pipelined on one connection):
//
//   1. advisory locks on every (user, poll) of the batch, in ascending key order (no deadlocks);
//   2. one statement (repository.writeVoteBatch) that reads the users' standing on those polls,
//      decides every command in arrival order (two commands of one user in one batch see each
//      other; a command over its points is refused alone, it never aborts the transaction),
//      deletes the replaced single-choice votes, inserts every new row and answers all of it;
//   3. after COMMIT, each request gets its own outcome (the decisions replayed on the standing the
//      statement read: ledger.ts), then the after-commit work (live totals, award jobs) runs
//      without holding any request. Keyed commands are answered through idempotency.ts.
//
// Outcomes are the domain's (outcomes.ts): the service (service.ts) turns them into the route's
// answer or HttpError.
//
// While a flush is in flight new commands queue up and go together in the next one; a second
// flush may overlap the first once the queue has waited maxWaitMs or is full.
//
// The queue is bounded: past maxQueuedCommands a vote is refused at once, and a vote that waited
// maxQueueWaitMs without its flush starting is refused then (a timer sees to it even if every
// flush is stuck), both busy (WRITER_BUSY, answered 503 'El servicio está ocupado') with nothing
// written. A batch waits at most lockTimeoutMs for a lock (SET LOCAL lock_timeout, in the same
// round trip), else its votes are refused busy too.

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

export type BatcherLogger = GroupCommitLogger;

export interface VoteBatcherOptions {
  /** The PostgreSQL client (postgres.js): batches run as pipelined transactions on a reserved connection. */
  sql: postgres.Sql;
  timeZone: string;
  maxBatchSize?: number;
  /** How long queued commands wait for a second, overlapping flush while one is in flight. */
  maxWaitMs?: number;
  maxConcurrentFlushes?: number;
  /** Votes allowed to wait for a flush; one more is refused busy at once. */
  maxQueuedCommands?: number;
  /** A vote whose flush has not started after this long is refused busy, unwritten. */
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

const noopLogger: BatcherLogger = { warn: () => {}, error: () => {} };

export class VoteBatcher {
  private readonly sql: postgres.Sql;
  private readonly timeZone: string;
  private readonly lockTimeoutMs: number;
  private readonly onCommitted: VoteBatcherOptions['onCommitted'];
  private readonly logger: BatcherLogger;
  /** Queueing, bounds and flush scheduling (batching/groupCommit.ts); this class writes the batches. */
  private readonly queue: GroupCommitQueue<VoteCommand, VoteOutcome>;
  /** Keyed commands: shared answers in this instance, stored and replayed answers in the database. */
  private readonly keyed: IdempotentVotes;
  private readonly enqueue = (command: VoteCommand) => this.queue.submit(command);

  constructor(options: VoteBatcherOptions) {
    this.sql = options.sql;
    this.timeZone = options.timeZone;
    this.lockTimeoutMs = options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
    this.onCommitted = options.onCommitted;
    this.logger = options.logger ?? noopLogger;
    this.keyed = new IdempotentVotes(this.sql, this.timeZone, this.logger);
    this.queue = new GroupCommitQueue<VoteCommand, VoteOutcome>({
      ...tuningOf(options),
      logger: this.logger,
      noun: 'votes',
      busy: () => WRITER_BUSY,
      failed: () => WRITER_FAILED,
      flush: (batch) => this.run(batch),
    });
  }

  /** refused: votes refused busy (queue full, waited too long, or a lock timeout). */
  get stats() {
    return this.queue.stats;
  }

  /**
   * Resolves after COMMIT with what was decided about the vote (outcomes.ts); rejects with
   * VoteNotTaken (WRITER_BUSY, WRITER_FAILED) when nothing of it was written.
   */
  submit(command: VoteCommand): Promise<VoteOutcome> {
    if (command.idempotencyKey) return this.keyed.submit(command, this.enqueue);
    return this.queue.submit(command);
  }

  /** Stops taking commands and waits for the queued ones and their after-commit work. */
  close(): Promise<void> {
    return this.queue.close();
  }

  private async run(batch: PendingVote[]): Promise<void> {
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
        for (const pending of batch) pending.reject(WRITER_BUSY);
        return;
      }
      throw err;
    }
    const committedAt = Date.now();

    const claimed: ClaimedVote[] = [];
    const replays: ReplayedVote[] = [];
    result.outcomes.forEach((outcome, i) => {
      const pending = batch[i]!;
      if (outcome.kind === 'earlier') replays.push({ pending, earlier: outcome });
      else if (pending.command.idempotencyKey) claimed.push({ pending, outcome });
      else pending.resolve(outcome);
    });
    if (claimed.length > 0 || replays.length > 0) this.queue.track(this.keyed.answer(claimed, replays));

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

  /**
   * A deadlock with some other writer (not another batch: their locks are ordered), or an
   * idempotency key claimed meanwhile for another poll, is retried once (the retry sees the claim).
   */
  private async applyWithRetry(commands: VoteCommand[], now: Date): Promise<BatchResult> {
    try {
      return await writeBatch(this.sql, commands, this.timeZone, now, this.lockTimeoutMs);
    } catch (err) {
      if (!isRetryable(err)) throw err;
      return writeBatch(this.sql, commands, this.timeZone, now, this.lockTimeoutMs);
    }
  }
}

/** Writes a batch of commands in one transaction, sent as one round trip; answers one outcome per command, in order. */
async function writeBatch(client: postgres.Sql, commands: VoteCommand[], timeZone: string, now: Date, lockTimeoutMs?: number): Promise<BatchResult> {
  const ledgers = openLedgers(commands, now);
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

  // The outcomes replay the statement's decisions on the standing it read.
  return applyBatch(commands, ledgers, written);
}

/** Deadlock, serialization failure, or an idempotency key claimed by a concurrent transaction. */
function isRetryable(err: unknown): boolean {
  const state = sqlState(err);
  return state === '40P01' || state === '40001' || (state === '23505' && constraintOf(err) === 'vote_requests_pk');
}
