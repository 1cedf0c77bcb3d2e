import { createDatabase, type Database } from '@tribuna/drizzle/client';
import { fileContext } from './fileContext.ts';

/** A connection to this test file's database. Close it in afterAll. */
export function testDatabase(): Database {
  return createDatabase(fileContext().databaseUrl, { max: 5, applicationName: 'tribuna-test' });
}

/** Empties every application table (not the migrations journal). */
export async function truncateAll(database: Database): Promise<void> {
  const rows = await database.sql<{ tablename: string }[]>`
    SELECT tablename FROM pg_tables WHERE schemaname = 'public'`;
  if (rows.length === 0) return;
  const list = rows.map((r) => `"${r.tablename}"`).join(', ');
  // TRUNCATE takes its exclusive locks table by table, while the app under test may still be
  // reading a few of those tables (a live reconcile, a dashboard refresh): PostgreSQL may then pick
  // the TRUNCATE as a deadlock victim. Nothing was emptied in that case: try again.
  for (let attempt = 1; ; attempt++) {
    try {
      await database.sql.unsafe(`TRUNCATE ${list} RESTART IDENTITY CASCADE`);
      return;
    } catch (err) {
      if ((err as { code?: string }).code !== '40P01' || attempt >= 5) throw err;
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
    }
  }
}
