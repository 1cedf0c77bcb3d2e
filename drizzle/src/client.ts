import { drizzle, type PostgresJsDatabase } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import * as schema from './schema/index.ts';

export type Schema = typeof schema;
export type Db = PostgresJsDatabase<Schema>;
/** A transaction handle; repositories accept either a Db or a Tx. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  sql: postgres.Sql;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  max?: number;
  /** Seconds to wait for a connection before failing (keeps health checks fast when PG is down). */
  connectTimeout?: number;
  applicationName?: string;
  /** PostgreSQL statement_timeout of every connection (ms): a runaway query is cancelled, not left holding a connection. */
  statementTimeoutMs?: number;
  /** PostgreSQL idle_in_transaction_session_timeout (ms): a transaction left open by a stuck client ends and frees its locks. */
  idleInTransactionTimeoutMs?: number;
  /** Called with every statement sent (tests and benchmarks count the statements a request costs). */
  onQuery?: (query: string) => void;
}

/**
 * Seconds before reconnecting after the `retries`-th failed connection in a row. postgres.js's own
 * backoff grows to 10–20 s, counting every pooled connection's failure: after a PostgreSQL restart
 * the server would refuse work for that long once the database is back. Capped at 1 s instead.
 */
export function reconnectBackoff(retries: number): number {
  return (0.5 + Math.random() / 2) * Math.min(0.05 * 2 ** retries, 1);
}

/** Error codes of Node's sockets meaning the database cannot be reached. */
const SOCKET_ERRORS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * True when `err` (or its cause, as drizzle wraps driver errors) says PostgreSQL is unreachable or
 * went away, rather than that the query itself is wrong: postgres.js connection errors, socket
 * errors, SQLSTATE class 08 (connection exception) and 57P01–57P03 (shutdown, cannot connect now).
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code !== 'string') continue;
    if (/^(CONNECTION_|CONNECT_TIMEOUT)/.test(code) || SOCKET_ERRORS.has(code)) return true;
    if (/^08/.test(code) || /^57P0[123]$/.test(code)) return true;
  }
  return false;
}

export function createDatabase(url: string, options: DatabaseOptions = {}): Database {
  const sql = postgres(url, {
    max: options.max ?? 10,
    connect_timeout: options.connectTimeout ?? 5,
    backoff: reconnectBackoff,
    idle_timeout: 60,
    onnotice: () => {},
    ...(options.onQuery ? { debug: (_connection: number, query: string) => options.onQuery!(query) } : {}),
    // Sent in the startup message: no extra round trip per connection.
    connection: {
      application_name: options.applicationName ?? 'tribuna',
      ...(options.statementTimeoutMs ? { statement_timeout: options.statementTimeoutMs } : {}),
      ...(options.idleInTransactionTimeoutMs ? { idle_in_transaction_session_timeout: options.idleInTransactionTimeoutMs } : {}),
    },
  });
  const db = drizzle(sql, { schema });
  return { db, sql, close: () => sql.end({ timeout: 5 }) };
}

interface RejectionLog {
  warn(obj: object, msg: string): void;
  fatal(obj: object, msg: string): void;
}

/**
 * Keeps the process alive through a stray rejection of the database driver once its connection
 * is gone: when PostgreSQL restarts under load, postgres.js can reject a statement of a closed
 * connection that nothing awaits any more (seen in the worker: `write CONNECTION_CLOSED` ended it
 * while BullMQ was already retrying the job that owned the statement). Such a rejection is logged
 * and the process goes on; any other unhandled rejection still ends it with code 1, as Node does.
 */
export function surviveLostConnections(log: RejectionLog): void {
  process.on('unhandledRejection', (reason) => {
    if (isDatabaseUnavailable(reason)) {
      log.warn({ err: reason }, 'a database statement failed after its connection was lost, and nothing awaited it');
      return;
    }
    log.fatal({ err: reason }, 'unhandled promise rejection');
    process.exit(1);
  });
}
