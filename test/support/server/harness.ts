import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { Database } from '@tribuna/drizzle/client';
import { testDatabase, truncateAll } from '../db.ts';
import { testConfig } from '../env.ts';
import { buildApp, type App, type BuildAppOptions } from '../../../server/src/app.ts';

export type TestEnv = Record<string, string | undefined>;

export interface TestApp {
  app: App;
  database: Database;
}

export interface ListeningTestApp extends TestApp {
  /** The port the app listens on (127.0.0.1). */
  port: number;
  /** `http://127.0.0.1:<port>`. */
  baseUrl: string;
}

export interface TestAppOptions {
  /** buildApp's options, read when the app is built (after the file's earlier beforeAll hooks). */
  build?: () => BuildAppOptions;
}

function setUp(env: TestEnv | (() => TestEnv), options: TestAppOptions, start: (app: App) => Promise<void>, onReady: (ready: TestApp) => void): void {
  let ready: TestApp | undefined;
  beforeAll(async () => {
    const app = await buildApp(testConfig(typeof env === 'function' ? env() : env), options.build?.());
    await start(app);
    ready = { app, database: testDatabase() };
    onReady(ready);
  });
  beforeEach(async () => {
    await truncateAll(ready!.database);
    // Like the tables, every rate-limit bucket starts empty: no test spends another's budget.
    await ready!.app.resetRateLimits();
  });
  afterAll(async () => {
    await ready?.app.close();
    await ready?.database.close();
  });
}

/**
 * The usual life of a server test file: one app built from this run's test configuration (plus
 * `env`, which may be computed once earlier beforeAll hooks ran), one database connection, every
 * table emptied before each test, both closed at the end.
 *
 *   let app: App;
 *   let database: Database;
 *   useTestApp({ DEV_LOGIN: '1' }, (ready) => ({ app, database } = ready));
 */
export function useTestApp(env: TestEnv | (() => TestEnv), onReady: (ready: TestApp) => void, options: TestAppOptions = {}): void {
  setUp(env, options, async () => {}, onReady);
}

/** useTestApp, with the app also listening on an ephemeral 127.0.0.1 port (for fetch and websockets). */
export function useListeningTestApp(env: TestEnv | (() => TestEnv), onReady: (ready: ListeningTestApp) => void, options: TestAppOptions = {}): void {
  let port = 0;
  setUp(
    env,
    options,
    async (app) => {
      await app.listen({ host: '127.0.0.1', port: 0 });
      port = (app.server.address() as AddressInfo).port;
    },
    (ready) => onReady({ ...ready, port, baseUrl: `http://127.0.0.1:${port}` }),
  );
}

/** An app alone (no database connection, no tables emptied), built before the tests and closed after. */
export function useApp(env: TestEnv, onReady: (app: App) => void): void {
  let app: App | undefined;
  beforeAll(async () => {
    app = await buildApp(testConfig(env));
    onReady(app);
  });
  afterAll(async () => {
    await app?.close();
  });
}
