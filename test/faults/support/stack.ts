// What every fault test file starts with: its own PostgreSQL and Redis, the server and worker
// processes it starts on them and its direct database connection, all torn down after the file.
import { afterAll } from 'vitest';
import type { Database } from '@tribuna/drizzle/client';
import { newRedisPrefix, type ProcessEnvInput, type RunningProcess } from './processes.ts';
import { startPostgres, startRedis, type TestPostgres, type TestRedis } from './services.ts';

export interface FaultStack {
  pg: TestPostgres;
  redis: TestRedis;
  /** Processes killed with -9 after the file (those still running). */
  running: RunningProcess[];
  /** The test's own connection, closed after the file when still open. */
  database: Database | null;
  /** The environment of processes sharing one database, Redis prefix and queues. */
  processInput(): ProcessEnvInput;
}

export async function startFaultStack(): Promise<FaultStack> {
  const pg = await startPostgres();
  const redis = await startRedis();
  const stack: FaultStack = {
    pg,
    redis,
    running: [],
    database: null,
    processInput: () => ({ databaseUrl: pg.url('tribuna'), redisUrl: redis.url, redisPrefix: newRedisPrefix() }),
  };
  afterAll(async () => {
    for (const process of stack.running) await process.kill9();
    await stack.database?.close();
    await redis.destroy();
    await pg.destroy();
  });
  return stack;
}
