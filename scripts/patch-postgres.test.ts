// The postinstall fixes of postgres.js (scripts/patch-postgres.mjs): its connection queue, and a
// transaction's statements on a lost connection.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileContext } from '../test/support/fileContext.ts';
import { CONNECTION_FIXES, PATCH_MARKER, patchQueueSource, patchSource, QUEUE_FIXES } from './patch-postgres.mjs';

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
    for (const file of ['src', 'cjs/src', 'cf/src'].flatMap((build) => [`${build}/queue.js`, `${build}/connection.js`])) {
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

describe('postgres.js transaction on a lost connection', () => {
  // A real process each (what the bug did was end it) against this file's database: a
  // transaction's connection is terminated while it runs, then the transaction issues a statement
  // and answers its failure with ROLLBACK, as a worker job did when PostgreSQL restarted.
  const script = (postgresEntry: string) => `
    import postgres from ${JSON.stringify(postgresEntry)};
    let lost; const closed = new Promise((resolve) => (lost = resolve));
    const sql = postgres(${JSON.stringify(fileContext().databaseUrl)}, { max: 1, onclose: () => lost() });
    const admin = postgres(${JSON.stringify(fileContext().databaseUrl)}, { max: 1 });
    try {
      await sql.begin(async (tx) => {
        const [{ pid }] = await tx\`select pg_backend_pid() as pid\`;
        await admin\`select pg_terminate_backend(\${pid})\`;
        await closed;
        await tx\`select 2\`;
      });
    } catch (err) { console.log('transaction failed: ' + err.code); }
    const [{ answer }] = await sql\`select 42 as answer\`;
    console.log('pool answers: ' + answer);
    await sql.end(); await admin.end();`;
  const run = (postgresEntry: string) =>
    spawnSync(process.execPath, ['--input-type=module', '-e', script(postgresEntry)], { encoding: 'utf8', timeout: 30_000 });

  it('rejects with CONNECTION_CLOSED, keeps the process alive and the pool usable', () => {
    const result = run(path.join(POSTGRES_DIR, 'src', 'index.js'));
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('transaction failed: CONNECTION_CLOSED');
    expect(result.stdout).toContain('pool answers: 42');
    expect(result.status).toBe(0);
  });

  it('ended the process without the fix (the unpatched 3.4.9 connection.js)', () => {
    const copy = mkdtempSync(path.join(tmpdir(), 'tribuna-postgres-'));
    try {
      cpSync(path.join(POSTGRES_DIR, 'src'), path.join(copy, 'src'), { recursive: true });
      cpSync(path.join(POSTGRES_DIR, 'package.json'), path.join(copy, 'package.json'));
      const patched = readFileSync(path.join(copy, 'src', 'connection.js'), 'utf8');
      const unpatched = CONNECTION_FIXES.reduce((text, [buggy, fixed]) => text.replace(fixed, buggy), patched);
      expect(unpatched).not.toContain(PATCH_MARKER);
      expect(patchSource(unpatched, CONNECTION_FIXES)).toBe(patched);
      writeFileSync(path.join(copy, 'src', 'connection.js'), unpatched);
      const result = run(path.join(copy, 'src', 'index.js'));
      // The bug shows one of two ways, depending on timing: the write on the closed connection's null
      // socket throws, or the pool's next query is answered with nothing. Either way the process
      // ends in an error, and the pool never answers.
      expect(result.stderr).toMatch(/Cannot read properties of (?:null \(reading 'write'\)|undefined \(reading 'answer'\))/);
      expect(result.stdout).not.toContain('pool answers');
      expect(result.status).not.toBe(0);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});
