import { createDatabase, type Database } from '@tribuna/drizzle/client';
import { fileContext } from './fileContext.ts';

/** A connection to this test file's database. Close it in afterAll. */
export function testDatabase(): Database {
  return createDatabase(fileContext().databaseUrl, { max: 5, applicationName: 'tribuna-test' });
}

/** Databases whose user may not set session_replication_role (not a superuser): emptied with TRUNCATE. */
const withoutReplicaRole = new WeakSet<Database>();

/**
 * Empties every application table (not the migrations journal) and restarts their sequences, like
 * `TRUNCATE … RESTART IDENTITY CASCADE` (no row trigger fires, votes' TRUNCATE triggers only empty
 * tables emptied here too). A TRUNCATE of every table gives each table and index a new file, which
 * costs a second on a busy machine, before every test; the few rows a test leaves are deleted in
 * milliseconds instead, with the replica role so that no trigger and no foreign-key check runs
 * (tables in any order). Users who may not take that role get the TRUNCATE.
 */
export async function truncateAll(database: Database): Promise<void> {
  const [tables, sequences] = await Promise.all([
    database.sql<{ tablename: string }[]>`SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`,
    // The sequences owned by a column of those tables (serial and identity), as TRUNCATE RESTART IDENTITY restarts them.
    database.sql<{ name: string }[]>`
      SELECT DISTINCT format('%I', s.relname) AS name
      FROM pg_class s
      JOIN pg_depend d ON d.classid = 'pg_class'::regclass AND d.objid = s.oid AND d.deptype IN ('a', 'i')
      JOIN pg_class t ON t.oid = d.refobjid
      JOIN pg_namespace n ON n.oid = t.relnamespace
      WHERE s.relkind = 'S' AND n.nspname = 'public' AND t.relkind IN ('r', 'p')`,
  ]);
  if (tables.length === 0) return;
  const list = tables.map((r) => `"${r.tablename}"`);
  const statements = withoutReplicaRole.has(database)
    ? [`TRUNCATE ${list.join(', ')} RESTART IDENTITY CASCADE`]
    : [
        'SET LOCAL session_replication_role = replica',
        ...list.map((table) => `DELETE FROM public.${table}`),
        ...sequences.map(({ name }) => `ALTER SEQUENCE public.${name} RESTART`),
      ];
  // TRUNCATE takes its exclusive locks table by table, and DELETE its row locks, while the app
  // under test may still be reading or writing a few of those tables (a live reconcile, a dashboard
  // refresh): PostgreSQL may then pick us as a deadlock victim. Nothing was emptied in that case:
  // try again.
  for (let attempt = 1; ; attempt++) {
    try {
      await database.sql.begin((tx) => tx.unsafe(statements.join(';\n')).simple());
      return;
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code === '42501' && !withoutReplicaRole.has(database)) {
        withoutReplicaRole.add(database);
        return truncateAll(database);
      }
      if (code !== '40P01' || attempt >= 5) throw err;
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
    }
  }
}
