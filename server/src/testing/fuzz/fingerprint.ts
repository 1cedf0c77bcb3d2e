import type { Database } from '@tribuna/drizzle/client';

/** A digest of every row of every table of the public schema, by table (one query). */
export async function tableDigests(database: Database): Promise<Record<string, string>> {
  const tables = await database.sql<{ tablename: string }[]>`SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`;
  const rows = await database.sql.unsafe<{ name: string; digest: string }[]>(
    tables
      .map(({ tablename }) => `SELECT '${tablename}' AS name, md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS digest FROM "${tablename}" t`)
      .join(' UNION ALL '),
  );
  return Object.fromEntries(rows.map((row) => [row.name, row.digest]));
}

/** Tables whose digest differs between two readings. */
export function changedTables(before: Record<string, string>, after: Record<string, string>): string[] {
  return Object.keys({ ...before, ...after }).filter((name) => before[name] !== after[name]);
}
