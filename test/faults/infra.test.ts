// The fault tests' own services and processes work: a fresh PostgreSQL cluster and Redis, the
// production server and worker started against them, and PostgreSQL restarted under a live server.
import { afterAll, describe, expect, it } from 'vitest';
import { startPostgres, startRedis } from './support/services.ts';
import { newRedisPrefix, startServerProcess, startWorkerProcess } from './support/processes.ts';
import { waitUntil } from './support/wait.ts';

const pg = await startPostgres();
const redis = await startRedis();
afterAll(async () => {
  await redis.destroy();
  await pg.destroy();
});

describe('fault-test infrastructure', () => {
  it('starts the server and the worker on their own PostgreSQL and Redis, and the server survives a PostgreSQL restart', async () => {
    const input = { databaseUrl: pg.url('tribuna'), redisUrl: redis.url, redisPrefix: newRedisPrefix() };
    const server = await startServerProcess(input);
    const worker = await startWorkerProcess(input);
    try {
      expect((await fetch(`${server.url}/api/polls`)).status).toBe(200);
      await pg.restart();
      await waitUntil(async () => (await fetch(`${server.url}/api/polls`)).status === 200, { timeoutMs: 30_000, what: '/api/polls after the restart' });
      expect(worker.child.exitCode, worker.output().slice(-3000)).toBe(null);
    } finally {
      await server.terminate();
      await worker.terminate();
    }
  });
});
