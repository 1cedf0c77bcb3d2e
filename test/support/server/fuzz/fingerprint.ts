import type { Database } from '@tribuna/drizzle/client';

/** The digest query of each database (its tables are listed once: tests create none). */
const digestQueries = new WeakMap<Database, Promise<string>>();

function digestQuery(database: Database): Promise<string> {
  let query = digestQueries.get(database);
  if (!query) {
    query = database.sql<{ tablename: string }[]>`SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`.then((tables) =>
      tables
        .map(
          ({ tablename }) =>
            `SELECT '${tablename}' AS name, md5(coalesce(string_agg(t.ctid::text || ':' || t.xmin::text, '|' ORDER BY t.ctid), '')) AS digest FROM "${tablename}" t`,
        )
        .join(' UNION ALL '),
    );
    query.catch(() => digestQueries.delete(database));
    digestQueries.set(database, query);
  }
  return query;
}

/**
 * A digest of every table of the public schema, by table (one query): of where each live row
 * version is stored (ctid) and which transaction wrote it (xmin). Any committed INSERT, UPDATE or
 * DELETE changes it, even an UPDATE that writes the same values (the new row version carries its
 * writer's xmin); a row lock (SELECT … FOR UPDATE) or a rolled-back write does not. It reads no
 * column, so it costs a fraction of hashing every row's text, and more so as tables grow.
 */
export async function tableDigests(database: Database): Promise<Record<string, string>> {
  const rows = await database.sql.unsafe<{ name: string; digest: string }[]>(await digestQuery(database));
  return Object.fromEntries(rows.map((row) => [row.name, row.digest]));
}

/** Tables whose digest differs between two readings. */
export function changedTables(before: Record<string, string>, after: Record<string, string>): string[] {
  return Object.keys({ ...before, ...after }).filter((name) => before[name] !== after[name]);
}
