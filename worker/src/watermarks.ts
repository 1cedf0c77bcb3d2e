import { sql } from 'drizzle-orm';
import type { DbOrTx } from '@tribuna/drizzle/client';
import { schema } from '@tribuna/drizzle';

// Where the worker's incremental jobs got to (maintenance_watermarks): the points sweep
// (points/service.ts) and today's report run (reports/repository.ts).

/** Moves the watermark `name` to `value` (a timestamptz), never backwards. */
export async function advanceWatermark(db: DbOrTx, name: string, value: string): Promise<void> {
  await db.execute(sql`
    INSERT INTO ${schema.maintenanceWatermarks} AS w (name, value) VALUES (${name}, ${value}::timestamptz)
    ON CONFLICT (name) DO UPDATE SET value = greatest(w.value, excluded.value), updated_at = now()`);
}
