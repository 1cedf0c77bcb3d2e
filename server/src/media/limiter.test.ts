import { describe, expect, it } from 'vitest';
import { WALL_MESSAGES } from '@tribuna/contracts/wallRules';
import { HttpError } from '../http/errors.ts';
import { ConcurrencyLimiter } from './limiter.ts';

/** A task that runs until released. */
function gate() {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  return { release, task: () => released.then(() => 'done') };
}

describe('ConcurrencyLimiter', () => {
  it('runs 2 at once, lines up 16 more and refuses the next with 503 and Retry-After', async () => {
    const limiter = new ConcurrencyLimiter(2, 16);
    const gates = Array.from({ length: 18 }, gate);
    const started: number[] = [];
    const results = gates.map((g, i) =>
      limiter.run(async () => {
        started.push(i);
        return g.task();
      }),
    );
    await Promise.resolve();
    expect(limiter.load).toEqual({ running: 2, waiting: 16 });
    expect(started).toEqual([0, 1]);

    const refused = await limiter.run(async () => 'never').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(HttpError);
    expect(refused).toMatchObject({ statusCode: 503, message: WALL_MESSAGES.mediaBusy, headers: { 'retry-after': '5' } });

    // A finished task hands its slot to the first in line.
    gates[0]!.release();
    await results[0];
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([0, 1, 2]);
    expect(limiter.load).toEqual({ running: 2, waiting: 15 });

    for (const g of gates) g.release();
    expect(await Promise.all(results)).toEqual(gates.map(() => 'done'));
    expect(limiter.load).toEqual({ running: 0, waiting: 0 });
  });

  it('frees the slot of a task that fails', async () => {
    const limiter = new ConcurrencyLimiter(1, 0);
    await expect(limiter.run(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(limiter.load).toEqual({ running: 0, waiting: 0 });
    await expect(limiter.run(async () => 'ok')).resolves.toBe('ok');
  });
});
