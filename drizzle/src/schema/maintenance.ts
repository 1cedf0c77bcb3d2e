import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { updatedAt } from './columns.ts';

/**
 * How far a periodic job has proved its work complete, one row per job (e.g. the points sweep's
 * 'points.sweep.votes'): its next run starts from there (minus a safety overlap) instead of
 * rescanning everything. Only ever moved forward.
 */
export const maintenanceWatermarks = pgTable('maintenance_watermarks', {
  name: text('name').primaryKey(),
  value: timestamp('value', { withTimezone: true }).notNull(),
  updatedAt: updatedAt(),
});
