import { WALL_MESSAGES } from '@tribuna/contracts/wallRules';
import { HttpError } from '../http/errors.ts';

/** Seconds a client is told to wait when the queue is full. */
export const MEDIA_BUSY_RETRY_AFTER_SECONDS = 5;

/**
 * A semaphore bounding image work on this instance: decoding a 40-megapixel image takes
 * hundreds of megabytes and a core, so a burst of uploads waits in a short line instead of
 * exhausting memory, and past that line it is refused at once (503, Retry-After) rather than
 * queued for longer than a client would wait.
 */
export class ConcurrencyLimiter {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly maxRunning: number,
    private readonly maxWaiting: number,
  ) {}

  /** Runs `task` when a slot is free; throws 503 mediaBusy when `maxWaiting` tasks already wait. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.maxRunning) {
      if (this.waiting.length >= this.maxWaiting) {
        throw new HttpError(503, WALL_MESSAGES.mediaBusy, { 'retry-after': String(MEDIA_BUSY_RETRY_AFTER_SECONDS) });
      }
      // The finishing task hands its slot over directly (running is not decremented in between).
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running++;
    }
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }

  /** Tasks running and waiting now (tests, logs). */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }
}
