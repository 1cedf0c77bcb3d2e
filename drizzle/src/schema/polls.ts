import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, text, timestamp, unique, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { POLL_STATUSES } from '@tribuna/contracts/api/polls';
import { contestants, seasons } from './catalog.ts';
import { createdAt, id, lengthBetween, oneOf, updatedAt } from './columns.ts';

export const POLL_MODES = ['manual', 'countdown'] as const;

export const polls = pgTable(
  'polls',
  {
    id: id(),
    title: text('title').notNull(),
    description: text('description'),
    seasonId: uuid('season_id')
      .notNull()
      .references(() => seasons.id, { onDelete: 'restrict' }),
    pollMode: text('poll_mode', { enum: POLL_MODES }).notNull().default('manual'),
    startDate: timestamp('start_date', { withTimezone: true }),
    endDate: timestamp('end_date', { withTimezone: true }),
    showResults: boolean('show_results').notNull().default(true),
    status: text('status', { enum: POLL_STATUSES }).notNull().default('draft'),
    isFeatured: boolean('is_featured').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('polls_title_len', lengthBetween(t.title, 1, 200)),
    check('polls_description_len', sql`char_length(${t.description}) <= 2000`),
    check('polls_status', oneOf(t.status, POLL_STATUSES)),
    check('polls_mode', oneOf(t.pollMode, POLL_MODES)),
    check('polls_dates_order', sql`${t.startDate} IS NULL OR ${t.endDate} IS NULL OR ${t.startDate} <= ${t.endDate}`),
    // "Fijar en Landing" makes a poll the single featured one.
    uniqueIndex('polls_one_featured_uq')
      .on(t.isFeatured)
      .where(sql`${t.isFeatured}`),
    // The home page shows the featured poll whatever its status, and a draft is never public.
    check('polls_featured_not_draft', sql`NOT (${t.isFeatured} AND ${t.status} = 'draft')`),
    index('polls_status_created_idx').on(t.status, t.createdAt),
    index('polls_season_idx').on(t.seasonId),
  ],
);

/** An option is either a contestant or a custom text (a deleted contestant leaves neither). */
export const pollOptions = pgTable(
  'poll_options',
  {
    id: id(),
    pollId: uuid('poll_id')
      .notNull()
      .references(() => polls.id, { onDelete: 'cascade' }),
    contestantId: uuid('contestant_id').references(() => contestants.id, { onDelete: 'set null' }),
    text: text('text'),
    order: integer('order').notNull().default(0),
    /**
     * Removed by an admin's edit while it had votes: off the ballot and the results, its votes kept
     * (the voters' history shows 'Opción eliminada'). Options without votes are deleted instead.
     */
    removedAt: timestamp('removed_at', { withTimezone: true }),
  },
  (t) => [
    check('poll_options_text_len', lengthBetween(t.text, 1, 200)),
    check('poll_options_contestant_or_text', sql`NOT (${t.contestantId} IS NOT NULL AND ${t.text} IS NOT NULL)`),
    check('poll_options_order', sql`${t.order} >= 0`),
    uniqueIndex('poll_options_poll_order_uq').on(t.pollId, t.order),
    // Target of votes' (poll_id, option_id) foreign key: a vote's option belongs to its poll.
    unique('poll_options_poll_id_id_uq').on(t.pollId, t.id),
  ],
);

export const pollPointsConfig = pgTable(
  'poll_points_config',
  {
    pollId: uuid('poll_id')
      .primaryKey()
      .references(() => polls.id, { onDelete: 'cascade' }),
    pointsPerVote: integer('points_per_vote').notNull().default(1),
    maxPointsPerUser: integer('max_points_per_user').notNull().default(1),
    dailyReset: boolean('daily_reset').notNull().default(false),
    bonusForSharing: integer('bonus_for_sharing').notNull().default(5),
  },
  (t) => [
    check('poll_points_config_points_per_vote', sql`${t.pointsPerVote} = 1`),
    check('poll_points_config_max_points', sql`${t.maxPointsPerUser} BETWEEN 1 AND 1000`),
    check('poll_points_config_bonus', sql`${t.bonusForSharing} BETWEEN 0 AND 1000`),
  ],
);
