import type { Db } from '@tribuna/drizzle/client';
import * as repo from './repository.ts';
import type { OutboxRow } from './repository.ts';

export interface RelayLogger {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface OutboxRelayOptions {
  db: Db;
  /** Carries one message out (enqueue its job, publish its event); rejects when it could not. Must be idempotent. */
  deliver: (message: OutboxRow) => Promise<void>;
  log: RelayLogger;
  /** How often an idle relay looks for due messages (another instance's, or retries). */
  pollMs?: number;
  /** Messages locked and carried per round. */
  batchSize?: number;
}

export const OUTBOX_POLL_MS = 1000;
const BATCH_SIZE = 100;
/** A failed delivery waits 1 s, 2 s, 4 s… up to 5 minutes; it is never dropped. */
export const retryDelayMs = (attempts: number) => Math.min(1000 * 2 ** attempts, 300_000);

/**
 * Carries the outbox's messages out at least once (drizzle/src/schema/outbox.ts). The writer that
 * recorded them asks for them at once after its COMMIT (`deliver(ids)`); every instance also polls
 * for due messages, so what an instance left behind when it died (between its COMMIT and the
 * delivery, or halfway through a round) is carried by the next round of any instance. A message is
 * deleted in the transaction that locked it, after its delivery: a crash in between delivers it
 * again, which the deliverers make harmless (a job's id, an idempotent event handler).
 */
export class OutboxRelay {
  private readonly pollMs: number;
  private readonly batchSize: number;
  private timer: NodeJS.Timeout | null = null;
  private round: Promise<unknown> = Promise.resolve();
  private closed = false;
  readonly stats = { delivered: 0, failed: 0, rounds: 0 };

  constructor(private readonly options: OutboxRelayOptions) {
    this.pollMs = options.pollMs ?? OUTBOX_POLL_MS;
    this.batchSize = options.batchSize ?? BATCH_SIZE;
  }

  /** Starts the periodic poll. */
  start(): void {
    if (this.timer || this.closed) return;
    this.timer = setInterval(() => void this.poll(), this.pollMs);
    this.timer.unref();
  }

  /**
   * Carries the given messages out now (what the writer just committed). Never rejects: what could
   * not be delivered stays for the relay's rounds.
   */
  async deliver(ids: number[]): Promise<void> {
    if (ids.length === 0 || this.closed) return;
    await this.relayOnce(ids).catch((err: unknown) => this.options.log.warn({ err, ids }, 'outbox: immediate delivery failed; the relay retries'));
  }

  /** One round: locks due messages, carries each out, deletes those delivered and postpones the others. */
  async relayOnce(ids?: number[]): Promise<{ delivered: number; failed: number }> {
    const { db, deliver, log } = this.options;
    let delivered = 0;
    let failed = 0;
    await db.transaction(async (tx) => {
      const rows = await repo.claimDue(tx, ids ? ids.length : this.batchSize, ids);
      const outcomes = await Promise.allSettled(rows.map((row) => deliver(row)));
      const done: number[] = [];
      for (const [i, outcome] of outcomes.entries()) {
        const row = rows[i]!;
        if (outcome.status === 'fulfilled') {
          done.push(row.id);
          continue;
        }
        failed++;
        const message = outcome.reason instanceof Error ? outcome.reason.message : String(outcome.reason);
        const level = row.attempts >= 5 ? 'error' : 'warn';
        log[level]({ id: row.id, kind: row.kind, name: row.name, attempts: row.attempts + 1, err: { message } }, 'outbox: delivery failed; retried later');
        await repo.postpone(tx, row.id, retryDelayMs(row.attempts), message);
      }
      await repo.deleteMessages(tx, done);
      delivered = done.length;
    });
    this.stats.delivered += delivered;
    this.stats.failed += failed;
    this.stats.rounds++;
    return { delivered, failed };
  }

  /** Stops polling and waits for the round in flight. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.round.catch(() => undefined);
  }

  private async poll(): Promise<void> {
    if (this.closed) return;
    const run = async () => {
      try {
        if (!(await repo.hasDue(this.options.db))) return;
        // Full rounds follow each other at once: a backlog drains without waiting for the timer.
        for (let round = 0; round < 10 && !this.closed; round++) {
          const { delivered, failed } = await this.relayOnce();
          if (delivered + failed < this.batchSize) break;
        }
      } catch (err) {
        this.options.log.warn({ err }, 'outbox: relay round failed');
      }
    };
    // One round at a time per instance.
    this.round = this.round.then(run, run);
    await this.round;
  }
}
