import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { ROLES } from '@tribuna/contracts/roles';
import { createdAt, id, lengthBetween, oneOf, updatedAt } from './columns.ts';

/** Public profile. Everything here may be shown to other users (no e-mail, no OIDC subject). */
export const profiles = pgTable(
  'profiles',
  {
    id: id(),
    displayName: text('display_name'),
    username: text('username'),
    bio: text('bio'),
    avatarUrl: text('avatar_url'),
    bannerUrl: text('banner_url'),
    role: text('role', { enum: ROLES }).notNull().default('user'),
    isSuspended: boolean('is_suspended').notNull().default(false),
    totalPoints: integer('total_points').notNull().default(0),
    /** Set when the owner deleted the account (the profile is anonymised and kept for their posts). */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('profiles_display_name_len', lengthBetween(t.displayName, 1, 50)),
    check('profiles_username_format', sql`${t.username} ~ '^[a-z0-9_]{3,20}$'`),
    check('profiles_bio_len', sql`char_length(${t.bio}) <= 500`),
    check('profiles_role', oneOf(t.role, ROLES)),
    uniqueIndex('profiles_username_lower_uq').on(sql`lower(${t.username})`),
    index('profiles_created_at_idx').on(t.createdAt),
    index('profiles_display_name_idx').on(sql`lower(${t.displayName})`),
    // The admin users search (partial, case ignored): trigram indexes (extension pg_trgm, migration 0013).
    index('profiles_display_name_trgm_idx').using('gin', sql`lower(${t.displayName}) gin_trgm_ops`),
    index('profiles_username_trgm_idx').using('gin', sql`lower(${t.username}) gin_trgm_ops`),
  ],
);

/** Private account data: only the owner's sign-in and admins ever read it. */
export const accounts = pgTable(
  'accounts',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    email: text('email'),
    emailVerified: boolean('email_verified').notNull().default(false),
    oidcIssuer: text('oidc_issuer').notNull(),
    oidcSubject: text('oidc_subject').notNull(),
    lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('accounts_oidc_uq').on(t.oidcIssuer, t.oidcSubject),
    index('accounts_email_idx').on(sql`lower(${t.email})`),
    index('accounts_email_trgm_idx').using('gin', sql`lower(${t.email}) gin_trgm_ops`),
    check('accounts_email_len', sql`char_length(${t.email}) <= 320`),
  ],
);
