import { sql, type SQL } from 'drizzle-orm';

// Every PostgreSQL advisory lock of Tribuna, by name, in one place: two domains that serialise on
// the same key (a vote batch and the admin voiding votes, say) name it here instead of each
// rebuilding it from a string of its own, and no two locks can pick the same number by accident.
// The key expressions are exactly the ones in use before they moved here (changing one while an
// older instance still runs would let both hold "the same" lock).

/** Session lock of the migrator (drizzle/src/migrate.ts): concurrent starters migrate one at a time. */
export const MIGRATIONS_LOCK_KEY = 727274;

/** The key of each lock that guards one thing (a bigint expression). */
export const LOCK_KEYS = {
  /** Concurrent seeders of one database (server/src/seed). */
  seeding: sql.raw('727275'),
  /** Rewrapping the second-factor secrets under a new key (identity/factors). */
  factorSecrets: sql.raw(`hashtext('tribuna:auth_factors.secret')`),
  /** Starting an abuse scan: at most one queued or running (admin/abuse). */
  abuseScanStart: sql.raw(`hashtextextended('tribuna:abuse-scan-start', 0)`),
  /** Changing which poll is featured on the landing (admin/polls). */
  featuredPolls: sql.raw(`hashtextextended('tribuna:polls:featured', 0)`),
  /** Every write of the report aggregates (worker/src/reports). */
  reportAggregates: sql.raw(`hashtext('tribuna.report-aggregates')`),
} as const satisfies Record<string, SQL>;

/** First key of the two-int form for sign-ins of one identity (its own key space: never a clash with the bigint keys). */
const SIGN_IN_NAMESPACE = 727275;

/** Sign-ins of one (issuer, subject): two racing first sign-ins create one profile (identity/accounts). */
export const signInLockKey = (issuer: string, subject: string): SQL => sql`${sql.raw(String(SIGN_IN_NAMESPACE))}, hashtext(${`${issuer}\n${subject}`})`;

/**
 * Every writer of one (user, poll): a vote batch, and the admin voiding votes (votes/repository.ts
 * lockVoters). `user` and `poll` are text expressions of the statement.
 */
export const voterLockKey = (user: SQL, poll: SQL): SQL => sql`hashtextextended(${user} || ':' || ${poll}, 0)`;

/** Every tap of one reader on one item (wall/repository.ts): `table` names the reactions' table. */
export const reactionLockKey = (table: SQL, item: SQL, reader: SQL): SQL =>
  sql`hashtextextended(${table} || ':' || ${item}::text || ':' || ${reader}::text, 0)`;

/** `pg_advisory_xact_lock(key)`: held until the transaction ends. */
export const xactLock = (key: SQL): SQL => sql`pg_advisory_xact_lock(${key})`;

/** Group creations of one fan (groups/repository.ts): two at once cannot both pass the daily limit. */
export const groupCreationLockKey = (user: SQL): SQL => sql`hashtextextended('tribuna:group-create:' || ${user}::text, 0)`;

/**
 * Every change of the relation between two people, whichever acts (follows, blocks: issue 29): a
 * follow and a block of the same two never interleave, so no follow outlives a block. `a` and `b`
 * are uuid expressions, in any order.
 */
export const relationLockKey = (a: SQL, b: SQL): SQL =>
  sql`hashtextextended('tribuna:relation:' || least(${a}::uuid, ${b}::uuid)::text || ':' || greatest(${a}::uuid, ${b}::uuid)::text, 0)`;
