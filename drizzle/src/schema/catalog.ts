import { sql } from 'drizzle-orm';
import { boolean, check, date, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, lengthBetween, oneOf, updatedAt } from './columns.ts';

export const realities = pgTable(
  'realities',
  {
    id: id(),
    name: text('name').notNull(),
    active: boolean('active').notNull().default(true),
    /** Soft delete by an admin: hidden from every list, kept for the polls and votes that name it. */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [check('realities_name_len', lengthBetween(t.name, 1, 100))],
);

export const seasons = pgTable(
  'seasons',
  {
    id: id(),
    realityId: uuid('reality_id')
      .notNull()
      .references(() => realities.id, { onDelete: 'restrict' }),
    number: integer('number').notNull(),
    year: integer('year').notNull(),
    startDate: date('start_date'),
    endDate: date('end_date'),
    active: boolean('active').notNull().default(false),
    /** Soft delete by an admin: hidden from every list, kept for the polls and votes that name it. */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('seasons_number_positive', sql`${t.number} >= 1`),
    check('seasons_year_range', sql`${t.year} BETWEEN 2000 AND 2100`),
    check('seasons_dates_order', sql`${t.startDate} IS NULL OR ${t.endDate} IS NULL OR ${t.startDate} <= ${t.endDate}`),
    uniqueIndex('seasons_reality_number_uq').on(t.realityId, t.number),
    // Activating a season deactivates the others of the same reality: at most one active each.
    uniqueIndex('seasons_one_active_per_reality_uq')
      .on(t.realityId)
      .where(sql`${t.active}`),
  ],
);

export const CONTESTANT_STATUSES = ['active', 'eliminated', 'finalist', 'winner'] as const;

export const contestants = pgTable(
  'contestants',
  {
    id: id(),
    seasonId: uuid('season_id')
      .notNull()
      .references(() => seasons.id, { onDelete: 'restrict' }),
    fullName: text('full_name').notNull(),
    photoUrl: text('photo_url'),
    status: text('status', { enum: CONTESTANT_STATUSES }).notNull().default('active'),
    eliminationDate: date('elimination_date'),
    finalPosition: integer('final_position'),
    /** Soft delete by an admin: hidden from every list, kept for the polls and votes that name it. */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('contestants_full_name_len', lengthBetween(t.fullName, 1, 100)),
    check('contestants_status', oneOf(t.status, CONTESTANT_STATUSES)),
    check('contestants_final_position', sql`${t.finalPosition} IS NULL OR ${t.finalPosition} >= 1`),
    index('contestants_season_idx').on(t.seasonId, t.fullName),
  ],
);
