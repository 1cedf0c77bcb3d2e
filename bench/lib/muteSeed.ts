// Mutes for the feed benchmark (issue 29), on top of the seeded wall and follows: readers who each
// muted exactly `mutesPerReader` writers, none of them among the 'Siguiendo' wall's readers, so the
// public wall of a fan who silenced a thousand people is measured next to one who silenced nobody.
import { createDatabase } from '@tribuna/drizzle/client';

export interface MuteSeedOptions {
  readers: number;
  mutesPerReader: number;
}

export const DEFAULT_MUTE_SEED: MuteSeedOptions = { readers: 800, mutesPerReader: 1_000 };

export interface MuteSeedResult {
  seconds: number;
  /** The readers (ids) who each muted exactly mutesPerReader writers. */
  muterIds: string[];
  counts: { mutes: number; mutesPerReaderMin: number; mutesPerReaderMax: number };
}

/**
 * `writerIds`: the wall's writers; `exclude`: users who must not mute (the 'Siguiendo' readers).
 * Muter i (the i-th writer not excluded) mutes the writers at offsets 1, 3, 5, … from it (distinct,
 * never itself), so about a third of the wall's authors vanish from each muter's pages.
 */
export async function seedMutes(
  databaseUrl: string,
  writerIds: string[],
  exclude: string[],
  options: MuteSeedOptions = DEFAULT_MUTE_SEED,
): Promise<MuteSeedResult> {
  const started = performance.now();
  const excluded = new Set(exclude);
  const muters = writerIds.filter((id) => !excluded.has(id)).slice(0, options.readers);
  if (muters.length < options.readers) throw new Error(`seedMutes: only ${muters.length} users can mute`);
  if (options.mutesPerReader * 2 + 1 > writerIds.length) throw new Error(`seedMutes: ${options.mutesPerReader} mutes each need more writers`);
  const database = createDatabase(databaseUrl, { max: 1, applicationName: 'tribuna-bench-mute-seed' });
  const sql = database.sql;
  try {
    await sql`
      INSERT INTO user_mutes (user_id, muted_id, created_at)
      SELECT m.id, w.id, now() - (k || ' minutes')::interval
      FROM unnest(${muters}::uuid[]) WITH ORDINALITY m(id, i)
      JOIN unnest(${writerIds}::uuid[]) WITH ORDINALITY me(id, n) ON me.id = m.id
      CROSS JOIN generate_series(0, ${options.mutesPerReader - 1}::int) k
      JOIN unnest(${writerIds}::uuid[]) WITH ORDINALITY w(id, n) ON w.n = ((me.n - 1 + 1 + 2 * k) % ${writerIds.length}::int) + 1`;
    await sql`VACUUM ANALYZE user_mutes`;
    const [counts] = await sql<MuteSeedResult['counts'][]>`
      SELECT (SELECT count(*)::int FROM user_mutes) AS mutes,
        coalesce(min(n), 0)::int AS "mutesPerReaderMin", coalesce(max(n), 0)::int AS "mutesPerReaderMax"
      FROM (SELECT count(*) AS n FROM user_mutes WHERE user_id = ANY(${muters}::uuid[]) GROUP BY user_id) t`;
    return { seconds: Math.round((performance.now() - started) / 100) / 10, muterIds: muters, counts: counts! };
  } finally {
    await database.close();
  }
}
