import { boolean, check, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, oneOf } from './columns.ts';
import { profiles } from './profiles.ts';

export const SESSION_LEVELS = ['aal1', 'aal2'] as const;

/** Server-side sessions; the cookie carries an opaque token whose SHA-256 is `id`. */
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    /** aal1 until a second factor has been verified when the user has one enrolled. */
    level: text('level', { enum: SESSION_LEVELS }).notNull().default('aal1'),
    /**
     * Signed in with Google (or the dev form) but a verified second factor is still owed: every
     * guard treats the session as signed out until a code completes it.
     */
    mfaPending: boolean('mfa_pending').notNull().default(false),
    userAgent: text('user_agent'),
    ip: text('ip'),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [check('sessions_level', oneOf(t.level, SESSION_LEVELS)), index('sessions_user_idx').on(t.userId), index('sessions_expires_idx').on(t.expiresAt)],
);

export const FACTOR_STATUSES = ['unverified', 'verified'] as const;

/** Second factors (TOTP), the spec's enrol / challenge / verify / unenrol. */
export const authFactors = pgTable(
  'auth_factors',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    factorType: text('factor_type').notNull().default('totp'),
    secret: text('secret').notNull(),
    status: text('status', { enum: FACTOR_STATUSES }).notNull().default('unverified'),
    lastUsedStep: integer('last_used_step'),
    createdAt: createdAt(),
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
  },
  (t) => [
    check('auth_factors_type', oneOf(t.factorType, ['totp'])),
    check('auth_factors_status', oneOf(t.status, FACTOR_STATUSES)),
    index('auth_factors_user_idx').on(t.userId),
  ],
);
