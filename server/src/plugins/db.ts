import fp from 'fastify-plugin';
import { createDatabase, type Database } from '@tribuna/drizzle/client';

declare module 'fastify' {
  interface FastifyInstance {
    database: Database;
  }
}

/**
 * Seconds given to queries still running when the app closes. HTTP requests have already drained
 * by then; the bound matters because postgres.js can wait on a connection that broke during a
 * PostgreSQL outage until this timeout destroys it.
 */
const CLOSE_TIMEOUT_SECONDS = 1;

/**
 * Bounds on the server's queries: nothing a request or the live layer runs needs 30 s (an HTTP
 * request gives up before), and its transactions never wait on anything but PostgreSQL.
 */
export const SERVER_STATEMENT_TIMEOUT_MS = 30_000;
export const SERVER_IDLE_IN_TRANSACTION_TIMEOUT_MS = 10_000;

/**
 * The PostgreSQL pool (postgres.js + drizzle) as `app.database`. Connections are opened lazily
 * and re-opened after PostgreSQL restarts; the short connect timeout makes requests fail fast
 * while it is down instead of piling up.
 */
export interface DbPluginOptions {
  /** Called with every statement the server sends (tests and benchmarks count them). */
  onQuery?: (query: string) => void;
}

export default fp<DbPluginOptions>(
  async (app, options) => {
    const database = createDatabase(app.config.databaseUrl, {
      max: 10,
      connectTimeout: 2,
      applicationName: 'tribuna-server',
      statementTimeoutMs: SERVER_STATEMENT_TIMEOUT_MS,
      idleInTransactionTimeoutMs: SERVER_IDLE_IN_TRANSACTION_TIMEOUT_MS,
      onQuery: options.onQuery,
    });
    app.decorate('database', database);
    app.addHook('onClose', async () => {
      await database.sql.end({ timeout: CLOSE_TIMEOUT_SECONDS });
    });
  },
  { name: 'db', dependencies: ['config'] },
);
