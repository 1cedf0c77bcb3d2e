import { describe, expect, it, vi } from 'vitest';
import { fileContext } from '../../../test/support/fileContext.ts';
import { createDatabase } from '@tribuna/drizzle/client';
import type { App } from '../app.ts';
import { useApp } from '../../../test/support/server/harness.ts';
import { SERVER_IDLE_IN_TRANSACTION_TIMEOUT_MS, SERVER_STATEMENT_TIMEOUT_MS } from './db.ts';

/** The SQLSTATE of a postgres.js error. */
const sqlState = (err: unknown) => (err as { code?: string }).code;

describe('database plugin', () => {
  let app: App;
  useApp({}, (ready) => (app = ready));

  it("bounds the server's statements and idle transactions on every connection", async () => {
    const [settings] = await app.database.sql<{ statement: string; idle: string }[]>`
      SELECT current_setting('statement_timeout') AS statement, current_setting('idle_in_transaction_session_timeout') AS idle`;
    expect(settings).toEqual({ statement: `${SERVER_STATEMENT_TIMEOUT_MS / 1000}s`, idle: `${SERVER_IDLE_IN_TRANSACTION_TIMEOUT_MS / 1000}s` });
  });

  it('cancels a statement past statement_timeout and ends a transaction left idle, freeing its locks', async () => {
    const database = createDatabase(fileContext().databaseUrl, { max: 2, statementTimeoutMs: 200, idleInTransactionTimeoutMs: 300 });
    try {
      const slow = await database.sql`SELECT pg_sleep(5)`.catch((err: unknown) => err);
      expect(sqlState(slow)).toBe('57014'); // query_canceled

      // A transaction that takes a lock, then waits on something that never comes.
      const stuck = database.sql
        .begin(async (tx) => {
          await tx`SELECT pg_advisory_xact_lock(424242)`;
          await new Promise((resolve) => setTimeout(resolve, 1500));
          await tx`SELECT 1`;
        })
        .catch((err: unknown) => err);
      const held = async () => {
        const [row] = await app.database.sql<{ n: number }[]>`
          SELECT count(*)::int AS n FROM pg_locks
          WHERE locktype = 'advisory' AND objid = 424242 AND granted
            AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`;
        return row!.n > 0;
      };
      await vi.waitFor(async () => expect(await held()).toBe(true));
      // PostgreSQL ends it and frees the lock while the client is still away.
      await vi.waitFor(async () => expect(await held()).toBe(false), { timeout: 1200, interval: 50 });
      expect(await stuck).toBeInstanceOf(Error);
    } finally {
      await database.close();
    }
  });
});
