import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { Queue } from 'bullmq';
import { QUEUE_NAMES } from '@tribuna/contracts/jobs';
import { testConfig, testEnv } from '../../test/support/env.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const base = testConfig();
// Own namespace under the run's prefix, so its schedules never reach another test's worker.
const redisPrefix = `${base.redisPrefix}_process`;

afterAll(async () => {
  for (const name of Object.values(QUEUE_NAMES)) {
    const queue = new Queue(name, { connection: { url: base.redisUrl }, prefix: redisPrefix });
    await queue.obliterate({ force: true });
    await queue.close();
  }
});

describe('worker process', () => {
  it('starts, says it is ready, and exits 0 on SIGTERM', async () => {
    // Started the way scripts/start.ts starts it. (`npx tsx …` is not used: npx dies on SIGTERM
    // without passing it on, which would orphan the worker rather than test its shutdown.)
    const child = spawn(process.execPath, ['--import', 'tsx', 'worker/src/main.ts'], {
      cwd: ROOT,
      detached: true,
      env: { ...process.env, ...testEnv({ LOG_LEVEL: 'info', REDIS_PREFIX: redisPrefix }) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));

    const messages: string[] = [];
    const ready = new Promise<void>((resolve, reject) => {
      createInterface({ input: child.stdout }).on('line', (line) => {
        try {
          const msg = (JSON.parse(line) as { msg?: string }).msg ?? '';
          messages.push(msg);
          if (msg === 'worker ready') resolve();
        } catch {
          // Not a log line (npx notices); ignore.
        }
      });
      void exited.then((code) => reject(new Error(`worker exited (${code}) before ready: ${stderr}`)));
    });

    try {
      await withTimeout(ready, 45_000, () => `no "worker ready" line; got ${JSON.stringify(messages)} ${stderr}`);
      child.kill('SIGTERM');
      const code = await withTimeout(exited, 30_000, () => 'worker did not exit after SIGTERM');
      expect(code).toBe(0);
      expect(messages).toContain('worker shutting down');
      expect(messages).toContain('worker stopped');
    } finally {
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
    }
  }, 90_000);
});

describe('worker configuration', () => {
  it('prints one line naming the bad variable and exits 1', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'worker/src/main.ts'], {
      cwd: ROOT,
      env: { ...process.env, ...testEnv({ SHOW_TIMEZONE: 'Mars/Olympus' }) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
    expect(code).toBe(1);
    expect(stderr.trim()).toMatch(/^Configuration error: .*SHOW_TIMEZONE/);
    expect(stderr.trim().split('\n')).toHaveLength(1);
  }, 60_000);
});

function withTimeout<T>(promise: Promise<T>, ms: number, describe: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(describe())), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
