import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type postgres from 'postgres';

// postgres.js plumbing for hot write paths (the vote batch): statements pipelined on one reserved
// connection, prepared once per connection, with a deadline on getting the connection.

/** What the batch statements run on: drizzle's db or tx, or a pipelined transaction. */
export interface SqlRunner {
  execute<T extends Record<string, unknown>>(query: SQL): PromiseLike<T[]>;
}

/** A transaction whose statements are sent back to back, without waiting for each other's answers. */
export interface PipelinedTransaction extends SqlRunner {
  /** Sends COMMIT behind the statements already sent; rejects unless the transaction committed. */
  commit(): Promise<void>;
}

const dialect = new PgDialect();

/**
 * Runs `body` in a transaction on one reserved connection, pipelining its statements: BEGIN and
 * the statements issued before the first await travel together, so a vote batch costs two round
 * trips (lock + reads, then write + COMMIT) instead of one per statement. Statements are prepared
 * (their text never varies), which also spares postgres.js its describe round trip. PostgreSQL
 * runs pipelined statements in order, each with its own snapshot, so a read sent after a lock
 * sees whatever the lock waited for. Anything failing rolls the whole transaction back.
 */
export async function pipelinedTransaction<T>(
  client: postgres.Sql,
  body: (tx: PipelinedTransaction) => Promise<T>,
  options: { lockTimeoutMs?: number; reserveTimeoutMs?: number } = {},
): Promise<T> {
  const conn = await reserveConnection(client, options.reserveTimeoutMs ?? RESERVE_TIMEOUT_MS);
  let committed = false;
  // A connection that closed was already taken back by the pool: postgres.js (3.4.9) must not be
  // handed it again through release(), nor sent a ROLLBACK on it (its writes would crash the process).
  let connectionLost = false;
  const track = <R>(promise: Promise<R>): Promise<R> =>
    promise.catch((err: unknown) => {
      if (isConnectionError(err)) connectionLost = true;
      throw err;
    });
  try {
    const begin = track(conn.unsafe('BEGIN').execute());
    begin.catch(() => {}); // surfaced by the statements behind it, and awaited below
    if (options.lockTimeoutMs !== undefined) {
      // SET LOCAL, sent behind BEGIN in the same round trip: a lock wait longer than this fails the transaction (55P03).
      const setting = track(conn.unsafe(SET_LOCK_TIMEOUT, [`${options.lockTimeoutMs}ms`], { prepare: true }).execute());
      setting.catch(() => {}); // a failure aborts the transaction: the statements behind it report it
    }
    const tx: PipelinedTransaction = {
      execute: <R extends Record<string, unknown>>(query: SQL) => {
        const { sql: text, params } = dialect.sqlToQuery(query);
        const statement = conn.unsafe(text, params as postgres.ParameterOrJSON<never>[], { prepare: true }).execute();
        return track(statement as unknown as Promise<R[]>);
      },
      commit: async () => {
        const result = await track(conn.unsafe(COMMIT_NOW).execute());
        // An earlier failure turns COMMIT into ROLLBACK without an error of its own.
        if (result.command !== 'COMMIT') throw new Error(`transaction ended with ${result.command}`);
        committed = true;
      },
    };
    const result = await body(tx);
    await begin;
    if (!committed) throw new Error('pipelined transaction ended without COMMIT');
    return result;
  } catch (err) {
    if (!committed && !connectionLost) await track(conn.unsafe('ROLLBACK').execute()).catch(() => {});
    throw err;
  } finally {
    if (!connectionLost) conn.release();
  }
}

/**
 * A whole transaction in ONE round trip: `body` sends its statements without awaiting between
 * them (it must send them all before its first await), and COMMIT goes right behind them. Resolves
 * to what `body` resolves to, once the transaction committed; a failing statement rejects with its
 * own error, not the ROLLBACK that COMMIT became.
 */
export function pipelinedCommit<T>(
  client: postgres.Sql,
  body: (tx: SqlRunner) => Promise<T>,
  options: { lockTimeoutMs?: number; reserveTimeoutMs?: number } = {},
): Promise<T> {
  return pipelinedTransaction(
    client,
    async (tx) => {
      const running = body(tx);
      const committing = tx.commit();
      // A failed statement turns COMMIT into ROLLBACK too: the statement's own error is the one to report.
      committing.catch(() => {});
      const result = await running;
      await committing;
      return result;
    },
    options,
  );
}

/** How long a batch waits for a connection of the pool before its votes are answered 503. */
export const RESERVE_TIMEOUT_MS = 5_000;

/**
 * `client.reserve()` with a deadline. postgres.js 3.4.9 strands a queued reserve for good when the
 * connection it waits on is closed under it (porsager/postgres#1195, e.g. PostgreSQL restarting):
 * without a deadline the batch, its voters and the writer's close would wait forever. A connection
 * handed over after the deadline goes straight back to the pool.
 */
async function reserveConnection(client: postgres.Sql, ms: number): Promise<postgres.ReservedSql> {
  const reserving = client.reserve();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(Object.assign(new Error(`no database connection within ${ms} ms`), { code: 'CONNECTION_RESERVE_TIMEOUT' }));
    }, ms);
  });
  try {
    return await Promise.race([reserving, deadline]);
  } catch (err) {
    reserving.then(
      (late) => late.release(),
      () => {},
    );
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

const SET_LOCK_TIMEOUT = `SELECT set_config('lock_timeout', $1, true)`;

// postgres.js holds writes shorter than 1 KiB until setImmediate (to coalesce small queries), i.e.
// behind every callback of the current event-loop turn: under load, several milliseconds in which
// PostgreSQL sits idle. The COMMIT that ends a batch must go at once, so it is padded past that size.
const COMMIT_NOW = `COMMIT /*${' '.repeat(1024)}*/`;

/** postgres.js errors of the connection itself (no SQLSTATE): the server rolled the transaction back. */
function isConnectionError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^(CONNECTION_|CONNECT_TIMEOUT)/.test(code);
}

/** Runs repository statements straight on the pool (outside any transaction). */
export function poolRunner(client: postgres.Sql): SqlRunner {
  return {
    execute: <R extends Record<string, unknown>>(query: SQL) => {
      const { sql: text, params } = dialect.sqlToQuery(query);
      return client.unsafe(text, params as postgres.ParameterOrJSON<never>[], { prepare: true }) as unknown as Promise<R[]>;
    },
  };
}

/** Runs repository statements on drizzle's db or one of its transactions (a post's, a comment's). */
export function drizzleRunner(db: { execute(query: SQL): PromiseLike<unknown> }): SqlRunner {
  return { execute: <R extends Record<string, unknown>>(query: SQL) => db.execute(query) as PromiseLike<R[]> };
}
