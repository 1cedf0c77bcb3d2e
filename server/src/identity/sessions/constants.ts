/** Session lifetimes, in one place so tests can reason about them (they move expires_at in the DB). */

/** The session cookie's name over plain http (development, tests): browsers refuse __Host- cookies without Secure. */
export const SESSION_COOKIE = 'tribuna_session';

/**
 * Its name over https (production): with the __Host- prefix a browser only keeps the cookie when it
 * is Secure, Path=/ and has no Domain, so no subdomain nor plain-http page can set or shadow it.
 */
export const SECURE_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;

const DAY_MS = 24 * 60 * 60 * 1000;

/** A full session lives this long after its last refresh. */
export const SESSION_TTL_MS = 14 * DAY_MS;

/**
 * Rolling refresh (the spec's automatic token refresh): a request made when less than this
 * remains extends expires_at to a full TTL again and re-sets the cookie.
 */
export const SESSION_REFRESH_THRESHOLD_MS = 7 * DAY_MS;

/**
 * However often it is used, a session ends this long after its sign-in (created_at): the rolling
 * refresh never extends it past that, and an older session is refused.
 */
export const SESSION_MAX_LIFETIME_MS = 30 * DAY_MS;

/** A sign-in waiting for its second factor must be completed quickly; it is never refreshed. */
export const MFA_PENDING_TTL_MS = 15 * 60 * 1000;

/**
 * last_seen_at is written at most this often per session (not on every request): hourly is as
 * fine as anything reads it (the purge of ended sessions goes by expires_at), and every write is a
 * new row version of a table every signed-in request reads.
 */
export const LAST_SEEN_RESOLUTION_MS = 60 * 60 * 1000;

/** Bytes of randomness in the cookie token; the database keeps only its SHA-256. */
export const SESSION_TOKEN_BYTES = 32;

export const USER_AGENT_MAX_LENGTH = 512;
