import type postgres from 'postgres';
import { pipelinedCommit, type SqlRunner } from '@tribuna/drizzle/pipelined';
import { isRowError, LOCK_NOT_AVAILABLE, sqlState } from '@tribuna/drizzle/sqlState';
import { VOTE_MESSAGES } from '@tribuna/contracts/api/votes';
import { WALL_MESSAGES, type ReactionType } from '@tribuna/contracts/wallRules';
import { runAfterCommit, type AfterCommit } from '../events/bus.ts';
import { notFound, serviceUnavailable } from '../http/errors.ts';
import { GroupCommitQueue, tuningOf, type GroupCommitLogger, type GroupCommitTuning, type Pending } from '../batching/groupCommit.ts';
import type { ReactionTaps } from './activity.ts';
import * as repo from './repository.ts';

// Reaction taps are written like votes: a tap is queued, and the taps of the same instant, from any
// number of fans on any number of posts, go in ONE pipelined transaction (one round trip): the
// (item, user) advisory locks in key order, one statement applying every tap (the visibility rule
// inside it), the counters of the items read back, and the statements the other domains join to
// the transaction (the author's reaction notifications: written with the tap, never lost after
// it). A tap's cost does not depend on its post's popularity: its counters move once per batch.
// Taps of one user on one item never share a batch and keep their order (the queue's keys).

export type TapKind = ReactionTaps['kind'];

export interface TapAnswer {
  /** The user's reaction after the tap. */
  mine: ReactionType | null;
  /** The item's counts after the batch committed. */
  counts: repo.ReactionCountsRow;
}

/** What a batch changed, for the live viewers: each item once, with its post (the topic). */
export interface CommittedTaps {
  kind: TapKind;
  items: { itemId: string; postId: string }[];
}

export interface ReactionWriterOptions extends GroupCommitTuning {
  sql: postgres.Sql;
  /** Runs the other domains' statements inside a batch's transaction (app.events.inTransaction). */
  joinTransaction(tx: SqlRunner, payload: ReactionTaps): Promise<AfterCommit[]>;
  /** After-commit work of every batch (live counts); failures are logged. */
  onCommitted(taps: CommittedTaps): Promise<void>;
  /** lock_timeout of a batch's transaction. */
  lockTimeoutMs?: number;
  logger?: GroupCommitLogger;
}

const TARGETS = { post: repo.POST_REACTIONS, comment: repo.COMMENT_REACTIONS } as const;
const NOT_FOUND = { post: WALL_MESSAGES.postNotFound, comment: WALL_MESSAGES.commentNotFound } as const;

export const DEFAULT_TAP_LOCK_TIMEOUT_MS = 2000;

/** Overloaded, or a batch failed: nothing was written (the spec only logs a failed reaction). */
const busy = () => serviceUnavailable(VOTE_MESSAGES.busy);

export class ReactionWriter {
  private readonly queues: Record<TapKind, GroupCommitQueue<repo.Tap, TapAnswer>>;
  private readonly options: ReactionWriterOptions;
  private readonly logger: GroupCommitLogger;

  constructor(options: ReactionWriterOptions) {
    this.options = options;
    this.logger = options.logger ?? { warn: () => {}, error: () => {} };
    const queue = (kind: TapKind) =>
      new GroupCommitQueue<repo.Tap, TapAnswer>({
        ...tuningOf(options),
        logger: this.logger,
        noun: `${kind} reaction taps`,
        keyOf: (tap) => `${tap.itemId.toLowerCase()}|${tap.userId}`,
        busy,
        failed: busy,
        flush: (batch) => this.flush(kind, batch),
      });
    this.queues = { post: queue('post'), comment: queue('comment') };
  }

  /** Batches written so far, by kind (for tests and the bench). */
  get stats() {
    return { post: this.queues.post.stats, comment: this.queues.comment.stats };
  }

  /** Resolves after COMMIT; rejects with 404 when the user may not see the item, 503 when overloaded. */
  tap(kind: TapKind, tap: repo.Tap): Promise<TapAnswer> {
    return this.queues[kind].submit(tap);
  }

  /** Stops taking taps; waits for the queued ones and their after-commit work. */
  async close(): Promise<void> {
    await Promise.all([this.queues.post.close(), this.queues.comment.close()]);
  }

  private async flush(kind: TapKind, batch: Pending<repo.Tap, TapAnswer>[]): Promise<void> {
    const target = TARGETS[kind];
    const taps = batch.map((p) => p.command);
    let written: { results: repo.TapResult[]; counts: Map<string, repo.ReactionCountsRow>; after: AfterCommit[] };
    try {
      // One round trip: BEGIN, the lock timeout, the locks, the taps, the counts, the joined statements and COMMIT.
      written = await pipelinedCommit(
        this.options.sql,
        async (tx) => {
          const [, results, counts, after] = await Promise.all([
            repo.lockTaps(tx, target, taps),
            repo.applyTaps(tx, target, taps),
            repo.reactionCountsOf(
              tx,
              target,
              taps.map((t) => t.itemId),
            ),
            this.options.joinTransaction(tx, { kind, taps: taps.map((t) => ({ itemId: t.itemId, userId: t.userId })) }),
          ]);
          return { results, counts, after };
        },
        { lockTimeoutMs: this.options.lockTimeoutMs ?? DEFAULT_TAP_LOCK_TIMEOUT_MS },
      );
    } catch (err) {
      if (batch.length > 1 && isRowError(err)) {
        // One tap's row was refused (its item deleted for good meanwhile, say): each alone, so only it fails.
        for (const pending of batch) await this.flush(kind, [pending]);
        return;
      }
      if (sqlState(err) === LOCK_NOT_AVAILABLE) {
        this.logger.warn({ taps: batch.length }, 'reaction batch gave up waiting for a lock; nothing was written');
        for (const pending of batch) pending.reject(busy());
        return;
      }
      throw err;
    }

    const items = new Map<string, { itemId: string; postId: string }>();
    written.results.forEach((result, i) => {
      const pending = batch[i]!;
      if (!result.allowed) return pending.reject(notFound(NOT_FOUND[kind]));
      const itemId = pending.command.itemId.toLowerCase();
      items.set(itemId, { itemId, postId: result.postId! });
      pending.resolve({ mine: result.mine, counts: written.counts.get(itemId) ?? {} });
    });
    if (items.size === 0 && written.after.length === 0) return;
    const queue = this.queues[kind];
    queue.track(
      (async () => {
        const work = [...written.after, ...(items.size > 0 ? [this.options.onCommitted({ kind, items: [...items.values()] })] : [])];
        await runAfterCommit(work, this.logger, 'after-commit work of a reaction batch');
      })(),
    );
  }
}
