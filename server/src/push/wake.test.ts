import { describe, expect, it } from 'vitest';
import { pushJobIds } from '@tribuna/contracts/jobs';
import { PUSH_LIMITS } from '@tribuna/contracts/pushRules';
import type { SqlRunner } from '@tribuna/drizzle/pipelined';
import { PushWaker, type AddUserJobs } from './wake.ts';

const WINDOW = PUSH_LIMITS.userWindowSeconds * 1000;
const unusedReader: SqlRunner = {
  execute: () => {
    throw new Error('not read here');
  },
};

describe('PushWaker', () => {
  it('adds one push.user job per fan and window, delayed to the window end, and skips those it already added', async () => {
    const added: Parameters<AddUserJobs>[0][] = [];
    let now = 1000 * WINDOW + 1234;
    const waker = new PushWaker({ reader: unusedReader, log: { warn: () => undefined }, now: () => now, addJobs: async (jobs) => void added.push(jobs) });
    await waker.wakeWithDevices(['a', 'b', 'a']);
    await waker.wakeWithDevices(['a']);
    expect(added).toEqual([
      [
        { name: 'push.user', data: { userId: 'a' }, opts: { jobId: pushJobIds.user('a', 1000), delay: WINDOW - 1234 } },
        { name: 'push.user', data: { userId: 'b' }, opts: { jobId: pushJobIds.user('b', 1000), delay: WINDOW - 1234 } },
      ],
    ]);
    now = 1001 * WINDOW;
    await waker.wakeWithDevices(['a']);
    expect(added[1]).toEqual([{ name: 'push.user', data: { userId: 'a' }, opts: { jobId: pushJobIds.user('a', 1001), delay: WINDOW } }]);
  });

  it('never throws when the queue refuses (Redis down), logs it, and tries again next time', async () => {
    const warnings: string[] = [];
    let up = false;
    const added: string[] = [];
    const waker = new PushWaker({
      reader: unusedReader,
      log: { warn: (_obj, msg) => void warnings.push(msg) },
      now: () => 5 * WINDOW,
      addJobs: async (jobs) => {
        if (!up) throw new Error('enqueue push.user skipped: the queue connection to Redis is not ready');
        added.push(...jobs.map((job) => job.opts.jobId!));
      },
    });
    waker.start(['a'], true);
    await waker.idle();
    expect(warnings).toEqual(['push wake-up not enqueued; the push sweep will repair it']);
    up = true;
    await waker.wakeWithDevices(['a']);
    expect(added).toEqual([pushJobIds.user('a', 5)]);
    // A failing lookup of who has a device is logged too, never thrown.
    await expect(waker.wake(['b'])).resolves.toBeUndefined();
    expect(warnings).toHaveLength(2);
  });

  it('remembers for 30 s who has a device: a popular author is looked up once, not once per batch, and a new device is known at once', async () => {
    const lookups: number[] = [];
    let devices = new Set(['a']);
    const reader: SqlRunner = {
      execute: async <T extends Record<string, unknown>>() => {
        lookups.push(1);
        return [...devices].map((user_id) => ({ user_id })) as unknown as T[];
      },
    };
    let now = 10 * WINDOW;
    const added: string[] = [];
    const waker = new PushWaker({
      reader,
      log: { warn: () => undefined },
      now: () => now,
      addJobs: async (jobs) => void added.push(...jobs.map((job) => job.opts.jobId!)),
    });
    await waker.wake(['a', 'b']);
    await waker.wake(['a', 'b']);
    await waker.wake(['b']);
    expect(lookups).toHaveLength(1);
    expect(added).toEqual([pushJobIds.user('a', 10)]);

    // 'b' subscribes on this instance: known at once.
    devices = new Set(['a', 'b']);
    waker.forget('b');
    await waker.wake(['b']);
    expect(lookups).toHaveLength(2);
    expect(added).toEqual([pushJobIds.user('a', 10), pushJobIds.user('b', 10)]);

    // After 30 s everyone is looked up again.
    now += 30_001;
    await waker.wake(['a']);
    expect(lookups).toHaveLength(3);
  });
});
