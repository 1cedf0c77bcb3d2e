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
 * The PostgreSQL pool (postgres.js + drizzle) as `app.database`. Connections are opened lazily
 * and re-opened after PostgreSQL restarts; the short connect timeout makes requests fail fast
 * while it is down instead of piling up.
 */
export default fp(
  async (app) => {
    const database = createDatabase(app.config.databaseUrl, {
      max: 10,
      connectTimeout: 2,
      applicationName: 'tribuna-server',
    });
    app.decorate('database', database);
    app.addHook('onClose', async () => {
      await database.sql.end({ timeout: CLOSE_TIMEOUT_SECONDS });
    });
  },
  { name: 'db', dependencies: ['config'] },
);
