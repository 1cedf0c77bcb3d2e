import { sql } from 'drizzle-orm';
import { bigint, bit, check, date, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { DEVICE_TYPES } from '@tribuna/contracts/api/pageViews';
import { createdAt, id, oneOf } from './columns.ts';
import { profiles } from './profiles.ts';

export const pageViews = pgTable(
  'page_views',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: uuid('user_id').references(() => profiles.id, { onDelete: 'set null' }),
    pagePath: text('page_path').notNull(),
    referrer: text('referrer'),
    userAgent: text('user_agent'),
    sessionId: text('session_id').notNull(),
    deviceType: text('device_type', { enum: DEVICE_TYPES }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    check('page_views_path_len', sql`char_length(${t.pagePath}) BETWEEN 1 AND 2048`),
    check('page_views_referrer_len', sql`char_length(${t.referrer}) <= 2048`),
    check('page_views_user_agent_len', sql`char_length(${t.userAgent}) <= 512`),
    check('page_views_session_len', sql`char_length(${t.sessionId}) BETWEEN 8 AND 64`),
    check('page_views_device_type', oneOf(t.deviceType, DEVICE_TYPES)),
    index('page_views_created_idx').on(t.createdAt),
    index('page_views_user_created_idx').on(t.userId, t.createdAt),
  ],
);

/** One row per calendar day in SHOW_TIMEZONE, written by the worker's report aggregation. */
export const reportDaily = pgTable(
  'report_daily',
  {
    day: date('day').primaryKey(),
    activeUsers: integer('active_users').notNull().default(0),
    newUsers: integer('new_users').notNull().default(0),
    totalVotes: integer('total_votes').notNull().default(0),
    pageViews: integer('page_views').notNull().default(0),
    computedAt: timestamp('computed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('report_daily_non_negative', sql`${t.activeUsers} >= 0 AND ${t.newUsers} >= 0 AND ${t.totalVotes} >= 0 AND ${t.pageViews} >= 0`)],
);

/**
 * Who was active on which day (SHOW_TIMEZONE): voted or viewed a page signed in. Written by the
 * report aggregation with its report_daily row, so that a period's active users are counted
 * exactly, each person once, without reading the raw votes and page views.
 */
export const reportActiveUsers = pgTable(
  'report_active_users',
  {
    day: date('day').notNull(),
    userId: uuid('user_id').notNull(),
  },
  (t) => [primaryKey({ name: 'report_active_users_pk', columns: [t.day, t.userId] })],
);

/** Users per block of the activity bitmaps (report_active_bits). */
export const ACTIVITY_BLOCK_BITS = 8192;

/**
 * A small number per user for the activity bitmaps, given by the report aggregation the first day
 * the user is active and never reused.
 */
export const reportUserNumbers = pgTable(
  'report_user_numbers',
  {
    userId: uuid('user_id').primaryKey(),
    n: integer('n').notNull().generatedAlwaysAsIdentity({ startWith: 0, minValue: 0 }),
  },
  (t) => [uniqueIndex('report_user_numbers_n_uq').on(t.n)],
);

/**
 * report_active_users as bitmaps: for each day, one row per block of 8192 user numbers with the
 * bit (n % 8192) set for user number n. A period's active users are the bits of the blocks OR-ed
 * over its days (bit_or, bit_count): a few milliseconds for a year, each person counted once.
 */
export const reportActiveBits = pgTable(
  'report_active_bits',
  {
    day: date('day').notNull(),
    block: integer('block').notNull(),
    bits: bit('bits', { dimensions: ACTIVITY_BLOCK_BITS }).notNull(),
  },
  (t) => [primaryKey({ name: 'report_active_bits_pk', columns: [t.block, t.day] })],
);

/**
 * One row: a number raised by statement-level triggers on report_daily and report_active_bits
 * whenever the report aggregates change (migration 0016), in the writer's own transaction. The
 * server caches each period's report under it, so a read between two aggregation runs costs one
 * primary-key lookup and a read after a run sees the new figures on every instance at once.
 */
export const reportVersion = pgTable(
  'report_version',
  {
    id: integer('id').primaryKey().default(1),
    version: bigint('version', { mode: 'number' }).notNull().default(0),
  },
  (t) => [check('report_version_single_row', sql`${t.id} = 1`)],
);

export const ABUSE_SCAN_STATUSES = ['queued', 'running', 'done', 'failed'] as const;

/** Results of the worker's abuse scans (devices shared by accounts, users on many devices). */
export const abuseScans = pgTable(
  'abuse_scans',
  {
    id: id(),
    status: text('status', { enum: ABUSE_SCAN_STATUSES }).notNull().default('queued'),
    /** 0-100 while running. */
    progress: integer('progress').notNull().default(0),
    /** The admin who asked for it (null: the schedule). */
    requestedBy: uuid('requested_by').references(() => profiles.id, { onDelete: 'set null' }),
    flaggedDevices: integer('flagged_devices').notNull().default(0),
    flaggedUsers: integer('flagged_users').notNull().default(0),
    suspiciousVotes: integer('suspicious_votes').notNull().default(0),
    /** Full report: devices with their accounts, users with their devices. */
    report: jsonb('report'),
    error: text('error'),
    startedAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    check('abuse_scans_status', oneOf(t.status, ABUSE_SCAN_STATUSES)),
    check('abuse_scans_progress', sql`${t.progress} BETWEEN 0 AND 100`),
    index('abuse_scans_started_idx').on(t.startedAt),
  ],
);
