import { sql, type AnyColumn, type SQL, type SQLWrapper } from 'drizzle-orm';
import { bigint, check, date, foreignKey, index, integer, jsonb, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { SHARE_PLATFORMS } from '@tribuna/contracts/api/shares';
import { createdAt, id, lengthBetween, oneOf } from './columns.ts';
import { pollOptions, polls } from './polls.ts';
import { profiles } from './profiles.ts';

/**
 * The UTC day of a vote's time, as `votes_user_poll_day_idx` keys it. PostgreSQL uses that index
 * for a day condition only when the query spells this same expression, so queries call this.
 */
export function votesUtcDay(createdAt: SQL | SQLWrapper | AnyColumn): SQL {
  return sql`((${createdAt} AT TIME ZONE 'UTC')::date)`;
}

export const votes = pgTable(
  'votes',
  {
    // Identity rather than uuid: votes are the hottest insert path.
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    // (poll_id, option_id) references the option of that poll (see below), which in turn
    // references the poll: one foreign-key check per vote instead of two, and a stronger one.
    pollId: uuid('poll_id').notNull(),
    optionId: uuid('option_id').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    points: integer('points').notNull().default(1),
    deviceFingerprint: text('device_fingerprint'),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
  },
  (t) => [
    foreignKey({
      name: 'votes_option_of_poll_fk',
      columns: [t.pollId, t.optionId],
      foreignColumns: [pollOptions.pollId, pollOptions.id],
    }).onDelete('cascade'),
    check('votes_points_positive', sql`${t.points} >= 1`),
    check('votes_fingerprint_len', sql`char_length(${t.deviceFingerprint}) <= 128`),
    check('votes_user_agent_len', sql`char_length(${t.userAgent}) <= 512`),
    index('votes_poll_option_idx').on(t.pollId, t.optionId),
    // A user's votes on a poll, by UTC day: the votes of one (user, poll, day) share a key, so
    // B-tree deduplication keeps them in one posting list and the index stays several times
    // smaller than one keyed by created_at. Its inserts land at a random place (by user): an index
    // that outgrows shared_buffers makes every vote read and write pages back, and the vote rate
    // fell through a long episode. A window query adds votesUtcDay(v) >= votesUtcDay(start) so
    // only the last day or two of the user's votes on that poll are read.
    index('votes_user_poll_day_idx').on(t.userId, t.pollId, votesUtcDay(t.createdAt)),
    index('votes_device_idx').on(t.deviceFingerprint),
    index('votes_created_idx').on(t.createdAt),
  ],
);

/**
 * Votes an admin voided after review (abuse report): moved here out of `votes` (so every count,
 * tally and live total drops them through the triggers on votes) with who, when and why; a restore
 * moves them back with their original id and time. No foreign keys to polls: a poll's deletion
 * deletes its voided votes explicitly.
 */
export const voidedVotes = pgTable(
  'voided_votes',
  {
    id: bigint('id', { mode: 'number' }).primaryKey(),
    pollId: uuid('poll_id').notNull(),
    optionId: uuid('option_id').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    points: integer('points').notNull(),
    deviceFingerprint: text('device_fingerprint'),
    userAgent: text('user_agent'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    voidedAt: timestamp('voided_at', { withTimezone: true }).notNull().defaultNow(),
    voidedBy: uuid('voided_by').references(() => profiles.id, { onDelete: 'set null' }),
    voidReason: text('void_reason').notNull(),
  },
  (t) => [
    check('voided_votes_reason_len', sql`char_length(${t.voidReason}) BETWEEN 1 AND 500`),
    index('voided_votes_poll_idx').on(t.pollId),
    index('voided_votes_user_idx').on(t.userId),
    index('voided_votes_device_idx').on(t.deviceFingerprint),
  ],
);

/**
 * Per user, poll and option: the points and vote rows the user has there, so checking a vote or
 * answering "my votes" reads a handful of rows however many times the user voted. Derived data:
 * statement-level triggers on `votes` keep it in step with every insert and delete, whoever makes
 * them (migration 0003); the application never writes it. No foreign keys: the votes' own cascades
 * delete the rows through those triggers.
 */
export const voteTallies = pgTable(
  'vote_tallies',
  {
    userId: uuid('user_id').notNull(),
    pollId: uuid('poll_id').notNull(),
    optionId: uuid('option_id').notNull(),
    points: integer('points').notNull(),
    votes: integer('votes').notNull(),
    lastVotedAt: timestamp('last_voted_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ name: 'vote_tallies_pk', columns: [t.userId, t.pollId, t.optionId] }),
    // A poll's voters (results, live totals and their reconcile) without reading its votes. Updates
    // of a tally never change these columns, so they stay HOT.
    index('vote_tallies_poll_option_idx').on(t.pollId, t.optionId),
  ],
);

/** Rows per (poll, option) in poll_vote_counts: concurrent vote transactions mostly land on different rows. */
export const VOTE_COUNT_SHARDS = 8;

/**
 * Vote rows and points per poll option, for the back-office (poll list, dashboard) without counting
 * `votes`: derived data kept by statement-level triggers on `votes` (migration 0010), one
 * aggregated upsert per statement. Each option has up to VOTE_COUNT_SHARDS rows (shard =
 * pg_backend_pid() % VOTE_COUNT_SHARDS of the writing connection), so concurrent vote batches on one
 * poll do not queue behind a single hot row until their COMMIT; readers sum the shards. Deleted with
 * the option (its votes go with it).
 */
export const pollVoteCounts = pgTable(
  'poll_vote_counts',
  {
    pollId: uuid('poll_id').notNull(),
    optionId: uuid('option_id').notNull(),
    shard: smallint('shard').notNull(),
    votes: bigint('votes', { mode: 'number' }).notNull(),
    points: bigint('points', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ name: 'poll_vote_counts_pk', columns: [t.pollId, t.optionId, t.shard] }),
    foreignKey({
      name: 'poll_vote_counts_option_fk',
      columns: [t.pollId, t.optionId],
      foreignColumns: [pollOptions.pollId, pollOptions.id],
    }).onDelete('cascade'),
  ],
);

/**
 * Idempotency keys of votes (the Idempotency-Key header): claimed in the transaction that writes
 * the vote, so a retried request finds it exactly when the vote was committed, and replays the
 * stored answer ({ status, body }, written right after COMMIT). Deleted after 24 hours by the
 * worker (votes.purge-requests).
 */
export const voteRequests = pgTable(
  'vote_requests',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    pollId: uuid('poll_id')
      .notNull()
      .references(() => polls.id, { onDelete: 'cascade' }),
    response: jsonb('response'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ name: 'vote_requests_pk', columns: [t.userId, t.key] }),
    check('vote_requests_key_len', lengthBetween(t.key, 8, 100)),
    index('vote_requests_created_idx').on(t.createdAt),
  ],
);

export const shareHistory = pgTable(
  'share_history',
  {
    id: id(),
    pollId: uuid('poll_id')
      .notNull()
      .references(() => polls.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    platform: text('platform', { enum: SHARE_PLATFORMS }).notNull(),
    pointsEarned: integer('points_earned').notNull().default(0),
    /** Calendar day of the share in SHOW_TIMEZONE: sharing is allowed once per poll per day. */
    shareDay: date('share_day').notNull(),
    sharedAt: timestamp('shared_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('share_history_platform', oneOf(t.platform, SHARE_PLATFORMS)),
    check('share_history_points', sql`${t.pointsEarned} >= 0`),
    uniqueIndex('share_history_once_per_day_uq').on(t.pollId, t.userId, t.shareDay),
    // The points sweep's keyset scan of recent shares (worker/src/points findMissingShareAwards),
    // every 5 minutes: without it, a read of the whole history each time.
    index('share_history_shared_at_idx').on(t.sharedAt, t.id),
  ],
);

export const POINT_REASONS = ['vote', 'share', 'admin_adjustment'] as const;

export const userPointsHistory = pgTable(
  'user_points_history',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    points: integer('points').notNull(),
    reason: text('reason', { enum: POINT_REASONS }).notNull(),
    /** Deterministic key of the award (e.g. vote:<poll>:<day>) making awards idempotent. */
    referenceId: text('reference_id'),
    description: text('description'),
    createdAt: createdAt(),
  },
  (t) => [
    check('user_points_history_points_nonzero', sql`${t.points} <> 0`),
    check('user_points_history_reason', oneOf(t.reason, POINT_REASONS)),
    check('user_points_history_description_len', sql`char_length(${t.description}) <= 500`),
    uniqueIndex('user_points_history_award_uq')
      .on(t.userId, t.reason, t.referenceId)
      .where(sql`${t.referenceId} IS NOT NULL`),
    index('user_points_history_user_idx').on(t.userId, t.createdAt),
  ],
);
