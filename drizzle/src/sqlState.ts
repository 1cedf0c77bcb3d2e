// Reading PostgreSQL errors as postgres.js reports them (drizzle wraps them: the driver's error is its cause).

/** The SQLSTATE of `err` or of one of its causes (e.g. '23505' unique violation), if any. */
export function sqlState(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

/** The constraint a violation names (e.g. 'vote_requests_pk'), if any. */
export function constraintOf(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const name = (e as { constraint_name?: unknown }).constraint_name;
    if (typeof name === 'string') return name;
  }
  return undefined;
}

/** Class 23 (a foreign key, check or unique constraint refused a row) or 22 (a value PostgreSQL refused). */
export function isRowError(err: unknown): boolean {
  const state = sqlState(err);
  return state !== undefined && (state.startsWith('23') || state.startsWith('22'));
}

/** lock_timeout expired (55P03): a writer gave up waiting for a lock; nothing was written. */
export const LOCK_NOT_AVAILABLE = '55P03';
