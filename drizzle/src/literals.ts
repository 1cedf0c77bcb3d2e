import { sql, type SQL } from 'drizzle-orm';

/**
 * `LIMIT n` with n written into the statement, not bound. With a bound limit, PostgreSQL's generic
 * plan of a prepared statement (postgres.js prepares every statement) guesses a tenth of the rows,
 * costs it far above the custom plans of the first runs, and so plans the statement again on every
 * execution: about a millisecond of planning for a page whose execution takes a tenth of that. A
 * literal lets the generic plan know its few rows, and it is kept after five runs. One prepared
 * statement per distinct limit: use it with the few limits a query is called with.
 */
export function limitOf(n: number): SQL {
  if (!Number.isSafeInteger(n) || n < 0 || n > 1_000_000) throw new RangeError(`bad limit ${n}`);
  return sql.raw(`LIMIT ${n}`);
}
