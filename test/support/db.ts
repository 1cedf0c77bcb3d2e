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
  await database.sql.unsafe(`TRUNCATE ${list} RESTART IDENTITY CASCADE`);
}
