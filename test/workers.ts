/**
 * Workers of the first group of `npm test` (web unit tests and integration tests share one pool,
 * so both projects must say the same number). Three on two cores: a file waiting on PostgreSQL,
 * Redis or a socket leaves its core to another.
 */
export const MAX_WORKERS = Number(process.env.TEST_MAX_WORKERS ?? 3);
