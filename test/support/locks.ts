// Pausing a statement where a test wants it (a worker job's middle, one side of a race): the test
// holds a PostgreSQL lock in an open transaction of its own, the statement waits on it for as long
// as the test likes, and the test sees it waiting in pg_stat_activity. Deterministic where polling
// for "the middle" is not (on a quiet machine the job finishes before the poll sees it).
import postgres from 'postgres';
import { waitUntil } from '../faults/support/wait.ts';

/** The worker's application_name (worker/src/main.ts). */
export const WORKER_APPLICATION = 'tribuna-worker';

export interface LockHolder {
  /** Its backend's pid: what the paused statements are blocked by. */
  pid: number;
  /** The reserved connection, inside the transaction (BEGIN already sent). */
  sql: postgres.ReservedSql;
  /** Rolls the transaction back (every lock released) and closes the connection. */
  release(): Promise<void>;
}

/** A connection of its own with a transaction open, to take locks in. */
export async function openLockHolder(url: string): Promise<LockHolder> {
  const client = postgres(url, { max: 1, onnotice: () => {}, connection: { application_name: 'tribuna-faults-locks' } });
  const sql = await client.reserve();
  await sql`BEGIN`;
  const [row] = await sql<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`;
  let released = false;
  return {
    pid: row!.pid,
    sql,
    release: async () => {
      if (released) return;
      released = true;
      await sql`ROLLBACK`.catch(() => undefined);
      sql.release();
      await client.end({ timeout: 1 });
    },
  };
}

export interface BlockedOptions {
  /** The pid whose lock they wait on (pg_blocking_pids); any lock when left out. */
  blockedBy?: number;
  /** An ILIKE pattern of the waiting statement. */
  query: string;
  /** How many backends must be waiting (default 1). */
  count?: number;
  applicationName?: string;
  timeoutMs?: number;
  what: string;
}

/**
 * Waits until `count` backends of `applicationName` (the worker's by default) wait on a lock, held
 * by `blockedBy` when given, while running a statement like `query`; answers their pids.
 */
export async function waitForBlocked(sql: postgres.Sql, options: BlockedOptions): Promise<number[]> {
  const { blockedBy, query, count = 1, applicationName = WORKER_APPLICATION, timeoutMs = 120_000, what } = options;
  let seen: number[] = [];
  await waitUntil(
    async () => {
      const rows = await sql<{ pid: number }[]>`
        SELECT pid FROM pg_stat_activity
        WHERE application_name = ${applicationName} AND wait_event_type = 'Lock' AND query ILIKE ${query}
          AND (${blockedBy ?? null}::int IS NULL OR ${blockedBy ?? null}::int = ANY (pg_blocking_pids(pid)))`;
      seen = rows.map((r) => r.pid);
      return seen.length >= count;
    },
    { timeoutMs, intervalMs: 100, what },
  );
  return seen;
}

/** Waits until no backend of `applicationName` is left (a killed worker's statements have ended). */
export async function waitForNoBackends(sql: postgres.Sql, what: string, applicationName = WORKER_APPLICATION): Promise<void> {
  await waitUntil(
    async () => {
      const [row] = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = ${applicationName}`;
      return row!.n === 0;
    },
    { timeoutMs: 60_000, intervalMs: 100, what },
  );
}
