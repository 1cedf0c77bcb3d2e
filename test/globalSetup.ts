import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { TestProject } from 'vitest/node';
import { dropDatabase, dropDatabasesLike, ensureDatabase, runMigrations } from '@tribuna/drizzle/migrate';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated template of this run; every test file works on its own clone (test/fileSetup.ts). */
    templateDatabaseUrl: string;
    redisUrl: string;
    /** This run's Redis prefix; each test file appends its own suffix. */
    redisPrefix: string;
  }
}

const BASE_DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * Each run migrates one template database and gets its own Redis prefix, so two runs at once never
 * collide; each test file then clones the template (test/fileSetup.ts), so files run in parallel
 * without sharing rows. Everything the run created is dropped at the end, clones included.
 */
export default async function setup(project: TestProject) {
  const runId = `${process.pid}_${randomBytes(4).toString('hex')}`;
  const url = new URL(BASE_DATABASE_URL);
  url.pathname = `/tribuna_test_${runId}`;
  const templateDatabaseUrl = url.toString();
  const redisPrefix = `tribuna_test_${runId}`;

  await ensureDatabase(templateDatabaseUrl);
  await runMigrations(templateDatabaseUrl);

  project.provide('templateDatabaseUrl', templateDatabaseUrl);
  project.provide('redisUrl', REDIS_URL);
  project.provide('redisPrefix', redisPrefix);

  return async () => {
    // Clones a crashed file left behind, then the template.
    await dropDatabasesLike(templateDatabaseUrl, `tribuna_test_${runId}_`);
    await dropDatabase(templateDatabaseUrl);
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
