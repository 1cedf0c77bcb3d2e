import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { TestProject } from 'vitest/node';
import { dropDatabase, ensureDatabase, runMigrations } from '@tribuna/drizzle/migrate';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    redisUrl: string;
    redisPrefix: string;
  }
}

const BASE_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Each run gets its own database and Redis prefix, so two runs at once never collide. */
export default async function setup(project: TestProject) {
  const runId = `${process.pid}_${randomBytes(4).toString('hex')}`;
  const url = new URL(BASE_DATABASE_URL);
  url.pathname = `/tribuna_test_${runId}`;
  const databaseUrl = url.toString();
  const redisPrefix = `tribuna_test_${runId}`;

  await ensureDatabase(databaseUrl);
  await runMigrations(databaseUrl);

  project.provide('databaseUrl', databaseUrl);
  project.provide('redisUrl', REDIS_URL);
  project.provide('redisPrefix', redisPrefix);

  return async () => {
    await dropDatabase(databaseUrl);
    const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
    try {
      await redis.connect();
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${redisPrefix}*`, 'COUNT', 500);
        cursor = next;
        if (keys.length > 0) await redis.del(...keys);
      } while (cursor !== '0');
    } finally {
      redis.disconnect();
    }
  };
}
