import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { Database } from '@tribuna/drizzle/client';
import { testDatabase, truncateAll } from '../../../test/support/db.ts';
import { testConfig } from '../../../test/support/env.ts';
import { buildApp, type App } from '../app.ts';

export interface TestApp {
  app: App;
  database: Database;
}

/**
 * The usual life of a server test file: one app built from this run's test configuration (plus
 * `env`), one database connection, every table emptied before each test, both closed at the end.
 *
 *   let app: App;
 *   let database: Database;
 *   useTestApp({ DEV_LOGIN: '1' }, (ready) => ({ app, database } = ready));
 */
export function useTestApp(env: Record<string, string | undefined>, onReady: (ready: TestApp) => void): void {
  let ready: TestApp | undefined;
  beforeAll(async () => {
    ready = { app: await buildApp(testConfig(env)), database: testDatabase() };
    onReady(ready);
  });
  beforeEach(async () => {
    await truncateAll(ready!.database);
  });
  afterAll(async () => {
    await ready?.app.close();
    await ready?.database.close();
  });
}
