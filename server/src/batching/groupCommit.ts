// The queue of a group-commit writer: requests hand over a command and wait; a flusher takes what
// is queued (up to maxBatchSize) and hands it to the owner's `flush`, which applies the whole batch
// in one transaction and settles every command. While a flush is in flight new commands queue up
// and go together in the next one; a second flush may overlap the first once the queue has waited
// maxWaitMs or is full.
//
// Commands may carry a key (`keyOf`): two commands with the same key never share a batch nor run
// in overlapping flushes, and go in the order they came: what one user does to one item is applied
// in order, and a batch statement never sees the same row twice.
//
// The queue is bounded: past maxQueuedCommands a command is refused at once, and one that waited
// maxQueueWaitMs without its flush starting is refused then (a timer sees to it even if every flush
// is stuck), both with the owner's `busy()` error and nothing written.

export interface Pending<C, R> {
  command: C;
  /** performance.now() when it was queued. */
  queuedAt: number;
  resolve(value: R): void;
  reject(error: unknown): void;
}

export interface GroupCommitLogger {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface GroupCommitOptions<C, R> {
  /** Applies a batch and settles each of its commands; a rejection is logged and fails those still unsettled. */
  flush(batch: Pending<C, R>[]): Promise<void>;
  /** What a command refused because the writer is overloaded rejects with (the owner's error; answered 503). */
  busy(): unknown;
  /** What a command whose batch failed without settling it, or that came after close(), rejects with. */
  failed(): unknown;
  /** Commands with the same key are applied one batch after the other, in order. */
  keyOf?: (command: C) => string;
  maxBatchSize?: number;
  maxWaitMs?: number;
  maxConcurrentFlushes?: number;
  maxQueuedCommands?: number;
  maxQueueWaitMs?: number;
  logger?: GroupCommitLogger;
  /** What the logs call the commands ('votes', 'reaction taps'). */
  noun?: string;
}

/** The queue's figures a writer passes through from its own options. */
export type GroupCommitTuning = Pick<
  GroupCommitOptions<unknown, unknown>,
  'maxBatchSize' | 'maxWaitMs' | 'maxConcurrentFlushes' | 'maxQueuedCommands' | 'maxQueueWaitMs'
>;

export function tuningOf(options: GroupCommitTuning): GroupCommitTuning {
  const { maxBatchSize, maxWaitMs, maxConcurrentFlushes, maxQueuedCommands, maxQueueWaitMs } = options;
  return { maxBatchSize, maxWaitMs, maxConcurrentFlushes, maxQueuedCommands, maxQueueWaitMs };
}

export const GROUP_COMMIT_DEFAULTS = {
  maxBatchSize: 500,
  maxWaitMs: 2,
  maxConcurrentFlushes: 2,
  /** Ten full batches: far beyond what a healthy writer ever holds. */
  maxQueuedCommands: 5000,
  maxQueueWaitMs: 5000,
} as const;

const noopLogger: GroupCommitLogger = { warn: () => {}, error: () => {} };

export class GroupCommitQueue<C, R> {
  /** refused: commands answered busy (queue full or waited too long). */
  readonly stats = { batches: 0, commands: 0, largestBatch: 0, failedBatches: 0, refused: 0, flushMs: 0, maxFlushMs: 0 };

  private readonly options: GroupCommitOptions<C, R>;
  private readonly maxBatchSize: number;
  private readonly maxWaitMs: number;
  private readonly maxConcurrent: number;
  private readonly maxQueued: number;
  private readonly maxQueueWaitMs: number;
  private readonly logger: GroupCommitLogger;

  private queue: Pending<C, R>[] = [];
  private inFlight = 0;
  /** Keys of the commands in flushes under way. */
  private readonly busyKeys = new Set<string>();
  private immediate: NodeJS.Immediate | null = null;
  private timer: NodeJS.Timeout | null = null;
  private expiryTimer: NodeJS.Timeout | null = null;
  private closing = false;
  private readonly followUps = new Set<Promise<void>>();
  private idleWaiters: (() => void)[] = [];

  constructor(options: GroupCommitOptions<C, R>) {
    this.options = options;
    this.maxBatchSize = options.maxBatchSize ?? GROUP_COMMIT_DEFAULTS.maxBatchSize;
    this.maxWaitMs = options.maxWaitMs ?? GROUP_COMMIT_DEFAULTS.maxWaitMs;
    this.maxConcurrent = options.maxConcurrentFlushes ?? GROUP_COMMIT_DEFAULTS.maxConcurrentFlushes;
    this.maxQueued = options.maxQueuedCommands ?? GROUP_COMMIT_DEFAULTS.maxQueuedCommands;
    this.maxQueueWaitMs = options.maxQueueWaitMs ?? GROUP_COMMIT_DEFAULTS.maxQueueWaitMs;
    this.logger = options.logger ?? noopLogger;
  }

  get queued(): number {
    return this.queue.length;
  }

  /** Resolves or rejects as the owner's flush settles the command. */
  submit(command: C): Promise<R> {
    if (this.closing) return Promise.reject(this.options.failed());
    if (this.queue.length >= this.maxQueued) {
      this.stats.refused++;
      return Promise.reject(this.options.busy());
    }
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ command, queuedAt: performance.now(), resolve, reject });
      this.kick();
    });
  }

  /** Work that outlives a flush (after-commit work): close() waits for it; a failure is logged. */
  track(work: Promise<void>): void {
    const tracked = work
      .catch((err: unknown) => this.logger.error({ err }, `follow-up of a batch of ${this.noun} failed`))
      .finally(() => this.followUps.delete(tracked));
    this.followUps.add(tracked);
  }

  /** Stops taking commands and waits for the queued ones and the follow-up work. */
  async close(): Promise<void> {
    this.closing = true;
    if (this.queue.length > 0 || this.inFlight > 0) {
      await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
    }
    while (this.followUps.size > 0) await Promise.allSettled([...this.followUps]);
  }

  private get noun(): string {
    return this.options.noun ?? 'commands';
  }

  private kick(): void {
    this.expiryTimer ??= this.armExpiry();
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
    if (this.inFlight >= this.maxConcurrent) return;
    this.refuseExpired();
    const batch = this.take();
    if (batch.length === 0) return;
    const keys = this.options.keyOf ? batch.map((p) => this.options.keyOf!(p.command)) : [];
    for (const key of keys) this.busyKeys.add(key);
    this.inFlight++;
    void this.run(batch).finally(() => {
      for (const key of keys) this.busyKeys.delete(key);
      this.inFlight--;
      this.kick();
      this.wakeIfIdle();
    });
  }

  /** The next batch: the oldest commands, skipping (and keeping in order) those whose key is taken. */
  private take(): Pending<C, R>[] {
    const keyOf = this.options.keyOf;
    if (!keyOf) return this.queue.splice(0, this.maxBatchSize);
    const batch: Pending<C, R>[] = [];
    const left: Pending<C, R>[] = [];
    const taken = new Set(this.busyKeys);
    for (const pending of this.queue) {
      const key = keyOf(pending.command);
      if (batch.length < this.maxBatchSize && !taken.has(key)) {
        batch.push(pending);
        taken.add(key);
      } else {
        // A later command of a key already taken stays behind it, so the key's order holds.
        taken.add(key);
        left.push(pending);
      }
    }
    this.queue = left;
    return batch;
  }

  private async run(batch: Pending<C, R>[]): Promise<void> {
    const started = performance.now();
    try {
      await this.options.flush(batch);
    } catch (err) {
      this.stats.failedBatches++;
      this.logger.error({ err, commands: batch.length }, `a batch of ${this.noun} failed; nothing was written`);
      // Settling twice is a no-op: this fails whoever the flush left waiting.
      for (const pending of batch) pending.reject(this.options.failed());
      return;
    }
    const flushMs = performance.now() - started;
    this.stats.flushMs += flushMs;
    this.stats.maxFlushMs = Math.max(this.stats.maxFlushMs, flushMs);
    this.stats.batches++;
    this.stats.commands += batch.length;
    this.stats.largestBatch = Math.max(this.stats.largestBatch, batch.length);
  }

  private wakeIfIdle(): void {
    if (this.queue.length > 0 || this.inFlight > 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const wake of waiters) wake();
  }

  /** A timer for the oldest queued command's deadline: it fires even while every flush is stuck. */
  private armExpiry(): NodeJS.Timeout | null {
    const oldest = this.queue[0];
    if (!oldest) return null;
    const timer = setTimeout(
      () => {
        this.expiryTimer = null;
        this.refuseExpired();
        this.wakeIfIdle();
        this.expiryTimer ??= this.armExpiry();
      },
      Math.max(0, oldest.queuedAt + this.maxQueueWaitMs - performance.now()) + 1,
    );
    timer.unref();
    return timer;
  }

  /** Refuses the queued commands that waited past maxQueueWaitMs. */
  private refuseExpired(): void {
    const deadline = performance.now() - this.maxQueueWaitMs;
    const expired = this.queue.filter((p) => p.queuedAt < deadline);
    if (expired.length === 0) return;
    this.queue = this.queue.filter((p) => p.queuedAt >= deadline);
    this.stats.refused += expired.length;
    this.logger.warn({ commands: expired.length, inFlight: this.inFlight }, `${this.noun} waited too long for the writer; refused with 503`);
    for (const pending of expired) pending.reject(this.options.busy());
  }
}
