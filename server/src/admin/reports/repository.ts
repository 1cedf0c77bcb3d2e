import { sql } from 'drizzle-orm';
import type { DbOrTx } from '@tribuna/drizzle/client';
import { schema } from '@tribuna/drizzle';
import type { DayRange } from './periods.ts';

const { reportActiveBits, reportDaily, reportVersion } = schema;

export interface DailyRow {
  day: string;
  activeUsers: number;
  newUsers: number;
  totalVotes: number;
  pageViews: number;
  /** When the worker wrote the row (null: no row for that day yet). */
  computedAt: Date | null;
}

interface DailyRecord extends Record<string, unknown> {
  day: string;
  active_users: number;
  new_users: number;
  total_votes: number;
  page_views: number;
  computed_at: string | Date | null;
}

/** Every day of the range, newest first, with the worker's figures (zeros where it wrote none). */
export async function listDays(db: DbOrTx, range: DayRange): Promise<DailyRow[]> {
  const rows = await db.execute<DailyRecord>(sql`
    SELECT to_char(d.day, 'YYYY-MM-DD') AS day,
           coalesce(r.active_users, 0) AS active_users, coalesce(r.new_users, 0) AS new_users,
           coalesce(r.total_votes, 0) AS total_votes, coalesce(r.page_views, 0) AS page_views,
           r.computed_at
    FROM (SELECT g::date AS day FROM generate_series(${range.from}::date, ${range.to}::date, interval '1 day') AS g) AS d
    LEFT JOIN ${reportDaily} AS r ON r.day = d.day
    ORDER BY d.day DESC
  `);
  return rows.map((r) => ({
    day: r.day,
    activeUsers: r.active_users,
    newUsers: r.new_users,
    totalVotes: r.total_votes,
    pageViews: r.page_views,
    computedAt: r.computed_at === null ? null : new Date(r.computed_at),
  }));
}

/**
 * People active on at least one day of the range, each counted once: the days' activity bitmaps
 * (report_active_bits, one per block of 8192 users) OR-ed per block, then their bits counted.
 */
export async function countActiveUsers(db: DbOrTx, range: DayRange): Promise<number> {
  const [row] = await db.execute<{ n: number }>(sql`
    SELECT coalesce(sum(bit_count(b)), 0)::int AS n FROM (
      SELECT bit_or(${reportActiveBits.bits}) AS b FROM ${reportActiveBits}
      WHERE ${reportActiveBits.day} BETWEEN ${range.from}::date AND ${range.to}::date
      GROUP BY ${reportActiveBits.block}
    ) AS blocks
  `);
  return row!.n;
}

/**
 * The aggregates' version (report_version): a new, never repeated number for every change of
 * report_daily or report_active_bits; null before the first change (nothing to cache under).
 */
export async function readVersion(db: DbOrTx): Promise<number | null> {
  const [row] = await db
    .select({ version: reportVersion.version })
    .from(reportVersion)
    .where(sql`${reportVersion.id} = 1`);
  return row?.version ?? null;
}
