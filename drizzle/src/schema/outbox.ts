import { bigserial, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The transactional outbox: work outside PostgreSQL (a job to enqueue, a cluster event that
 * matters) recorded in the transaction of the change that calls for it, so it commits or rolls
 * back with the change. A relay on every server instance (server/src/outbox/relay.ts) carries each
 * row out at least once, then deletes it; a row whose delivery failed waits `available_at` and is
 * tried again, by this instance or another one after a crash.
 */
export const outbox = pgTable(
  'outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** 'job' (a BullMQ job: name, payload, job id) or 'event' (a cluster event: name, payload). */
    kind: text('kind').notNull(),
    name: text('name').notNull(),
    payload: jsonb('payload').notNull(),
    /** A job's id in its queue: BullMQ ignores a second add with the same id, so a redelivery is harmless. */
    jobId: text('job_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Not delivered before then (now at first; later after each failed attempt). */
    availableAt: timestamp('available_at', { withTimezone: true }).notNull().defaultNow(),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
  },
  (t) => [index('outbox_available_idx').on(t.availableAt, t.id)],
);
