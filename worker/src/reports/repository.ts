import { sql } from 'drizzle-orm';
import type { DbOrTx } from '@tribuna/drizzle/client';
import { schema } from '@tribuna/drizzle';

const { pageViews, profiles, reportDaily, votes } = schema;

export interface DailyReport {
  day: string;
  activeUsers: number;
  newUsers: number;
  totalVotes: number;
  pageViews: number;
}

interface DailyReportRow extends Record<string, unknown> {
  day: string;
  active_users: number;
  new_users: number;
  total_votes: number;
  page_views: number;
}

/**
 * Recomputes the report_daily row of one calendar day of `timeZone` from the raw tables and
 * upserts it, so running it again (or after late rows arrive) converges on the same row.
 * The day's boundaries are computed by PostgreSQL (`AT TIME ZONE`), which knows every DST rule.
 */
export async function upsertDailyReport(db: DbOrTx, day: string, timeZone: string): Promise<DailyReport> {
  const rows = await db.execute<DailyReportRow>(sql`
    WITH bounds AS (
      SELECT (${day}::date::timestamp AT TIME ZONE ${timeZone}) AS starts_at,
             ((${day}::date + 1)::timestamp AT TIME ZONE ${timeZone}) AS ends_at
    ),
    day_votes AS (
      SELECT ${votes.userId} AS user_id FROM ${votes}, bounds
      WHERE ${votes.createdAt} >= bounds.starts_at AND ${votes.createdAt} < bounds.ends_at
    ),
    day_views AS (
      SELECT ${pageViews.userId} AS user_id FROM ${pageViews}, bounds
      WHERE ${pageViews.createdAt} >= bounds.starts_at AND ${pageViews.createdAt} < bounds.ends_at
    ),
    figures AS (
      SELECT
        (SELECT count(*) FROM (
          SELECT user_id FROM day_votes
          UNION
          SELECT user_id FROM day_views WHERE user_id IS NOT NULL
        ) AS active)::int AS active_users,
        (SELECT count(*) FROM ${profiles}, bounds
          WHERE ${profiles.createdAt} >= bounds.starts_at AND ${profiles.createdAt} < bounds.ends_at)::int AS new_users,
        (SELECT count(*) FROM day_votes)::int AS total_votes,
        (SELECT count(*) FROM day_views)::int AS page_views
    )
    INSERT INTO ${reportDaily} (day, active_users, new_users, total_votes, page_views, computed_at)
    SELECT ${day}::date, active_users, new_users, total_votes, page_views, now() FROM figures
    ON CONFLICT (day) DO UPDATE SET
      active_users = EXCLUDED.active_users,
      new_users = EXCLUDED.new_users,
      total_votes = EXCLUDED.total_votes,
      page_views = EXCLUDED.page_views,
      computed_at = EXCLUDED.computed_at
    RETURNING to_char(day, 'YYYY-MM-DD') AS day, active_users, new_users, total_votes, page_views
  `);
  const row = rows[0];
  if (!row) throw new Error(`report_daily upsert for ${day} returned no row`);
  return {
    day: row.day,
    activeUsers: row.active_users,
    newUsers: row.new_users,
    totalVotes: row.total_votes,
    pageViews: row.page_views,
  };
}

/** The last `count` calendar days of `timeZone` ending today, oldest first, as YYYY-MM-DD. */
export async function recentDays(db: DbOrTx, timeZone: string, count: number): Promise<string[]> {
  const rows = await db.execute<{ day: string }>(sql`
    SELECT to_char((now() AT TIME ZONE ${timeZone})::date - offs, 'YYYY-MM-DD') AS day
    FROM generate_series(${count - 1}::int, 0, -1) AS offs
  `);
  return rows.map((r) => r.day);
}

export async function findDailyReport(db: DbOrTx, day: string): Promise<DailyReport | null> {
  const rows = await db
    .select({
      day: reportDaily.day,
      activeUsers: reportDaily.activeUsers,
      newUsers: reportDaily.newUsers,
      totalVotes: reportDaily.totalVotes,
      pageViews: reportDaily.pageViews,
    })
    .from(reportDaily)
    .where(sql`${reportDaily.day} = ${day}::date`);
  return rows[0] ?? null;
}
