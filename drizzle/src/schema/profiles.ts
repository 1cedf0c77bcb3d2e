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
    /**
     * The owner's choice "Mostrar mi nombre en las listas de votantes": false keeps them out of
     * every voters list (HTTP results, live voters messages); their votes still count. Shown by
     * default, as the spec's voters lists are, and as fans who vote on a public poll expect.
     */
    showInVoterLists: boolean('show_in_voter_lists').notNull().default(true),
    /** Followers and followed accounts, kept by statement triggers on follows (migration 0030). */
    followersCount: integer('followers_count').notNull().default(0),
    followingCount: integer('following_count').notNull().default(0),
    /** Silenced by moderation until then (issue 29): no posting, commenting or reacting before. */
    silencedUntil: timestamp('silenced_until', { withTimezone: true }),
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
    check('accounts_email_len', sql`char_length(${t.email}) <= 320`),
  ],
);

/**
 * What the admin users search reads (migration 0015): one row per profile with its account's
 * e-mail, kept by triggers on profiles and accounts (each writes only its own columns, so
 * concurrent changes to both never overwrite each other). `doc` is the three searchable texts in
 * lower case, one per line, under one trigram index: a search is one LIKE on one table, and a
 * search without a line break cannot match across two fields. Private: admins only.
 */
export const adminUserSearch = pgTable(
  'admin_user_search',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    displayName: text('display_name'),
    username: text('username'),
    email: text('email'),
    role: text('role', { enum: ROLES }).notNull(),
    isSuspended: boolean('is_suspended').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    doc: text('doc')
      .notNull()
      .generatedAlwaysAs(sql`coalesce(lower(display_name), '') || E'\\n' || coalesce(lower(username), '') || E'\\n' || coalesce(lower(email), '')`),
  },
  (t) => [
    index('admin_user_search_doc_trgm_idx').using('gin', sql`${t.doc} gin_trgm_ops`),
    index('admin_user_search_created_idx')
      // Read backwards: newest first (ORDER BY created_at DESC, user_id DESC).
      .on(t.createdAt, t.userId),
  ],
);
