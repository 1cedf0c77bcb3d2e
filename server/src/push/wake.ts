import type { JobsOptions } from 'bullmq';
import { pushJobIds, type JobPayloads } from '@tribuna/contracts/jobs';
import { PUSH_LIMITS } from '@tribuna/contracts/pushRules';
import type { SqlRunner } from '@tribuna/drizzle/pipelined';
import * as repo from './repository.ts';

/** Adds `push.user` jobs at once (the push queue's addBulk, with the queue plugin's readiness and timeout). */
export type AddUserJobs = (jobs: { name: 'push.user'; data: JobPayloads['push.user']; opts: JobsOptions }[]) => Promise<unknown>;

export interface PushWakerOptions {
  reader: SqlRunner;
  addJobs: AddUserJobs;
  log: { warn(obj: object, msg: string): void };
  now?: () => number;
}

/** Jobs added in a bulk at most (a big group's new post). */
const BULK = 500;
/** Job ids remembered as added by this instance (a popular author's reactions wake them once a window). */
const REMEMBERED = 50_000;
/**
 * Whether a fan has a device is remembered this long (and for this many fans at most): a popular
 * author's reactions, batch after batch, look it up once, not once per batch. A device added on this
 * instance is known at once (`forget`); one added on another instance within this time waits for the
 * worker's push.sweep.
 */
const PRESENCE_TTL_MS = 30_000;
const PRESENCE_REMEMBERED = 100_000;

/**
 * Wakes the worker for a fan's own pushes after something of theirs committed (new notifications, a
 * new post in one of their groups): one `push.user` job per fan and window of
 * PUSH_LIMITS.userWindowSeconds (job id pushJobIds.user(userId, window): a second add in the same
 * window is ignored by BullMQ), delayed to the window's end, so a fan gets at most one push per
 * window summarising it. Only fans with a device are woken. Never throws and never waits for Redis
 * longer than the queue's timeout: a lost wake-up is the worker's push.sweep's to repair.
 */
export class PushWaker {
  private readonly recent = new Set<string>();
  private readonly presence = new Map<string, { device: boolean; until: number }>();
  private readonly now: () => number;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly options: PushWakerOptions) {
    this.now = options.now ?? Date.now;
  }

  /** The window a moment falls in, and the delay to its end. */
  static windowOf(at: number): { index: number; delayMs: number } {
    const size = PUSH_LIMITS.userWindowSeconds * 1000;
    const index = Math.floor(at / size);
    return { index, delayMs: (index + 1) * size - at };
  }

  /**
   * Starts a wake-up without waiting for it (a request's after-commit work never waits on it):
   * `withDevices` when the users are known to have a device, else they are looked up first.
   */
  start(userIds: string[], withDevices = false): void {
    if (userIds.length === 0) return;
    const work = (withDevices ? this.wakeWithDevices(userIds) : this.wake(userIds)).finally(() => this.inFlight.delete(work));
    this.inFlight.add(work);
  }

  /** Resolves once every wake-up started so far has ended (tests; the server's close). */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  /** A fan's devices changed on this instance: their next wake-up looks them up again. */
  forget(userId: string): void {
    this.presence.delete(userId);
  }

  /** Wakes those of `userIds` who have a device (looked up here, or remembered for PRESENCE_TTL_MS). Never throws. */
  async wake(userIds: string[]): Promise<void> {
    if (userIds.length === 0) return;
    try {
      const now = this.now();
      const withDevice: string[] = [];
      const unknown: string[] = [];
      for (const userId of new Set(userIds)) {
        const known = this.presence.get(userId);
        if (!known || known.until <= now) unknown.push(userId);
        else if (known.device) withDevice.push(userId);
      }
      if (unknown.length > 0) {
        const found = new Set(await repo.usersWithDevices(this.options.reader, unknown));
        if (this.presence.size + unknown.length > PRESENCE_REMEMBERED) this.presence.clear();
        for (const userId of unknown) {
          this.presence.set(userId, { device: found.has(userId), until: now + PRESENCE_TTL_MS });
          if (found.has(userId)) withDevice.push(userId);
        }
      }
      await this.wakeWithDevices(withDevice);
    } catch (err) {
      this.options.log.warn({ err, users: userIds.length }, 'push wake-up skipped; the push sweep will repair it');
    }
  }

  /** Wakes `userIds`, already known to have a device. Never throws. */
  async wakeWithDevices(userIds: string[]): Promise<void> {
    const { index, delayMs } = PushWaker.windowOf(this.now());
    const fresh = [...new Set(userIds)].map((userId) => ({ userId, jobId: pushJobIds.user(userId, index) })).filter(({ jobId }) => !this.recent.has(jobId));
    for (let start = 0; start < fresh.length; start += BULK) {
      const chunk = fresh.slice(start, start + BULK);
      try {
        await this.options.addJobs(chunk.map(({ userId, jobId }) => ({ name: 'push.user', data: { userId }, opts: { jobId, delay: delayMs } })));
        for (const { jobId } of chunk) this.remember(jobId);
      } catch (err) {
        this.options.log.warn({ err: { message: (err as Error).message }, users: chunk.length }, 'push wake-up not enqueued; the push sweep will repair it');
        return;
      }
    }
  }

  private remember(jobId: string): void {
    if (this.recent.size >= REMEMBERED) {
      const oldest = this.recent.values().next().value;
      if (oldest !== undefined) this.recent.delete(oldest);
    }
    this.recent.add(jobId);
  }
}
