import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '@tribuna/drizzle/client';
import { schema } from '@tribuna/drizzle';

// Where the worker's incremental jobs got to (maintenance_watermarks): the points sweep
// (points/service.ts) and today's report run (reports/repository.ts).

/**
 * How far before its watermark an incremental run starts reading. A row's created_at is its
 * writer's transaction start, so a row committed after the previous run read the table may be a
 * little older than that run's start. The server writes votes, shares and page views in a
 * statement or two and a COMMIT, and PostgreSQL ends its statements after 30 s and its idle
 * transactions after 10 s (server/src/plugins/db.ts).
 */
export const WATERMARK_OVERLAP_MINUTES = 2;

/** Moves the watermark `name` to `value` (a timestamptz), never backwards. */
export async function advanceWatermark(db: DbOrTx, name: string, value: string): Promise<void> {
  await db.execute(sql`
    INSERT INTO ${schema.maintenanceWatermarks} AS w (name, value) VALUES (${name}, ${value}::timestamptz)
    ON CONFLICT (name) DO UPDATE SET value = greatest(w.value, excluded.value), updated_at = now()`);
}

/** The watermark `name` (a timestamptz; NULL when there is none yet), as a scalar subquery. */
export const watermark = (name: string): SQL => sql`(SELECT w.value FROM ${schema.maintenanceWatermarks} w WHERE w.name = ${name})`;

/**
 * Where an incremental run starts reading: the watermark `name` minus `overlapMinutes` (rows are
 * stamped with their transaction's start, so a late commit may be a little older than the last
 * run), as PostgreSQL writes a timestamptz so it goes back unchanged; NULL when there is none yet.
 */
export const watermarkSince = (name: string, overlapMinutes: number): SQL => sql`(${watermark(name)} - make_interval(mins => ${overlapMinutes}::int))::text`;
