import { afterAll, beforeEach } from 'vitest';
import pino from 'pino';
import type { Database } from '@tribuna/drizzle/client';
import { testDatabase, truncateAll } from '../../test/support/db.ts';
import { testConfig } from '../../test/support/env.ts';
import type { JobContext } from './context.ts';

/**
 * A job handler's context on this run's test database (emptied before each test, closed after the
 * file), for calling handlers directly: silent logger, nothing published.
 */
export function useJobTestContext(): { database: Database; ctx: JobContext } {
  const database = testDatabase();
  beforeEach(async () => {
    await truncateAll(database);
  });
  afterAll(async () => {
    await database.close();
  });
  return { database, ctx: { db: database.db, config: testConfig(), logger: pino({ level: 'silent' }), publish: async () => 0 } };
}
