// The postinstall fix of postgres.js's connection queue (scripts/patch-postgres-queue.mjs).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PATCH_MARKER, patchQueueSource, QUEUE_FIXES } from './patch-postgres-queue.mjs';

const POSTGRES_DIR = path.resolve(import.meta.dirname, '..', 'node_modules', 'postgres');

interface Queue<T> {
  readonly length: number;
  push(x: T): T;
  shift(): T | undefined;
  remove(x: T): T | null;
}

/** Evaluates a CommonJS queue.js and returns its Queue factory. */
function loadQueue(source: string): <T>(initial?: T[]) => Queue<T> {
  const module = { exports: null as unknown };
  new Function('module', source)(module);
  return module.exports as <T>(initial?: T[]) => Queue<T>;
}

/**
 * What the pool does under sustained load: the busy connections are used round robin
 * (`busy.shift()`, then `move(c, busy)`: `busy.remove(c)` and `busy.push(c)`). Returns the longest
 * array `remove` had to search.
 */
function roundRobin(queue: Queue<object>, rounds: number): number {
  let longest = 0;
  const indexOf = Array.prototype.indexOf;
  Array.prototype.indexOf = function (this: unknown[], ...args: Parameters<typeof indexOf>) {
    longest = Math.max(longest, this.length - (args[1] ?? 0));
    return indexOf.apply(this, args);
  };
  try {
    for (let i = 0; i < rounds; i++) {
      const c = queue.shift()!;
      queue.remove(c);
      queue.push(c);
    }
  } finally {
    Array.prototype.indexOf = indexOf;
  }
  return longest;
}

const original = readFileSync(path.join(POSTGRES_DIR, 'cjs', 'src', 'queue.js'), 'utf8');

describe('postgres.js connection queue fix', () => {
  it('is applied to every build of the installed postgres.js (ESM, CommonJS, workerd)', () => {
    for (const file of ['src/queue.js', 'cjs/src/queue.js', 'cf/src/queue.js']) {
      expect(readFileSync(path.join(POSTGRES_DIR, file), 'utf8'), file).toContain(PATCH_MARKER);
    }
  });

  it('keeps the search of a busy pool short however many queries went through it', () => {
    const Queue = loadQueue(original);
    const connections = Array.from({ length: 10 }, (_, i) => ({ i }));
    const queue = Queue(connections);
    expect(roundRobin(queue, 100_000)).toBeLessThan(200);
    expect(queue.length).toBe(10);
  });

  it('behaves as a FIFO queue: order, length, removal of present and absent entries', () => {
    const Queue = loadQueue(original);
    const [a, b, c, d] = [{ n: 'a' }, { n: 'b' }, { n: 'c' }, { n: 'd' }];
    const queue = Queue<object>([a, b]);
    queue.push(c);
    expect(queue.shift()).toBe(a);
    expect(queue.remove(c)).toBe(c);
    expect(queue.remove(a)).toBeNull();
    queue.push(d);
    expect(queue.length).toBe(2);
    expect([queue.shift(), queue.shift(), queue.shift()]).toEqual([b, d, undefined]);
    expect(queue.length).toBe(0);
    queue.push(a);
    expect(queue.shift()).toBe(a);
  });

  it('recognises only the known 3.4.9 source, whose searches grow with every query', () => {
    expect(patchQueueSource(original)).toBeNull(); // already patched
    const unpatched = QUEUE_FIXES.reduce((text, [buggy, fixed]) => text.replace(fixed, buggy), original);
    expect(unpatched).not.toContain(PATCH_MARKER);
    const repatched = patchQueueSource(unpatched);
    expect(repatched).toBe(original);
    const Buggy = loadQueue(unpatched);
    expect(roundRobin(Buggy(Array.from({ length: 10 }, (_, i) => ({ i }))), 20_000)).toBeGreaterThan(10_000);
    expect(patchQueueSource('module.exports = function Queue() {}')).toBeNull();
  });
});
