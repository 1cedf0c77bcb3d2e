import { sql, type SQL } from 'drizzle-orm';
import type { Db, DbOrTx, Tx } from '@tribuna/drizzle/client';
import { schema } from '@tribuna/drizzle';
import { advanceWatermark, watermark, WATERMARK_OVERLAP_MINUTES, watermarkSince } from '../watermarks.ts';
import { LOCK_KEYS, xactLock } from '@tribuna/drizzle/locks';

const { pageViews, profiles, reportActiveBits, reportActiveUsers, reportDaily, reportUserNumbers, votes } = schema;
const { ACTIVITY_BLOCK_BITS } = schema;

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
 * Every write of the report aggregates holds this transaction-level advisory lock, so two runs
 * (the 5-minute schedule, the midnight one, a recompute on demand, on any number of workers)
 * never interleave their delete-then-insert of the same days.
 */
const AGGREGATES_LOCK = xactLock(LOCK_KEYS.reportAggregates);

/** First instant of calendar day `day` of `timeZone` (PostgreSQL knows every DST rule). */
const startOf = (day: SQL, timeZone: string) => sql`(${day}::timestamp AT TIME ZONE ${timeZone})`;
/** The calendar day of `timeZone` a timestamptz column falls on. */
const localDay = (column: SQL, timeZone: string) => sql`((${column} AT TIME ZONE ${timeZone})::date)`;

/**
 * Recomputes the aggregates of the calendar days `from`..`to` (inclusive, YYYY-MM-DD, in
 * `timeZone`) from the raw votes, page views and profiles, in one transaction: the days'
 * report_active_users rows (who voted or viewed a page signed in, once per person and day) are
 * deleted and inserted again, then each day's report_daily row is upserted, its active_users
 * counted from those rows. Set-based (one statement per table over the whole range, whatever
 * its length), and idempotent: running it again, or after late rows arrive, converges on the
 * same rows.
 */
export async function recomputeDays(db: Db, from: string, to: string, timeZone: string): Promise<DailyReport[]> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT ${AGGREGATES_LOCK}`);
    return writeDays(tx, from, to, timeZone);
  });
}

/** (day in `timeZone`, user) of every vote and signed-in page view created in [startsAt, endsAt), each pair once. */
function activePairs(startsAt: SQL, endsAt: SQL, timeZone: string): SQL {
  return sql`
    SELECT ${localDay(sql`${votes.createdAt}`, timeZone)}, ${votes.userId} FROM ${votes}
    WHERE ${votes.createdAt} >= ${startsAt} AND ${votes.createdAt} < ${endsAt}
    UNION
    SELECT ${localDay(sql`${pageViews.createdAt}`, timeZone)}, ${pageViews.userId} FROM ${pageViews}
    WHERE ${pageViews.userId} IS NOT NULL AND ${pageViews.createdAt} >= ${startsAt} AND ${pageViews.createdAt} < ${endsAt}`;
}

async function writeDays(tx: Tx, from: string, to: string, timeZone: string): Promise<DailyReport[]> {
  const fromDay = sql`${from}::date`;
  const toDay = sql`${to}::date`;
  const startsAt = startOf(fromDay, timeZone);
  const endsAt = startOf(sql`(${toDay} + 1)`, timeZone);

  await tx.execute(sql`DELETE FROM ${reportActiveUsers} WHERE ${reportActiveUsers.day} BETWEEN ${fromDay} AND ${toDay}`);
  await tx.execute(sql`INSERT INTO ${reportActiveUsers} (day, user_id) ${activePairs(startsAt, endsAt, timeZone)}`);
  await writeActivityBits(tx, fromDay, toDay);
  return writeDaily(tx, fromDay, toDay, timeZone);
}

/**
 * Upserts the report_daily rows of `fromDay`..`toDay`: active_users counted from their
 * report_active_users rows, the other figures from the raw rows of each day.
 */
async function writeDaily(tx: Tx, fromDay: SQL, toDay: SQL, timeZone: string): Promise<DailyReport[]> {
  const startsAt = startOf(fromDay, timeZone);
  const endsAt = startOf(sql`(${toDay} + 1)`, timeZone);
  const countPerDay = (table: SQL, column: SQL) => sql`
    SELECT ${localDay(column, timeZone)} AS day, count(*)::int AS n FROM ${table}
    WHERE ${column} >= ${startsAt} AND ${column} < ${endsAt}
    GROUP BY 1`;

  const rows = await tx.execute<DailyReportRow>(sql`
    INSERT INTO ${reportDaily} (day, active_users, new_users, total_votes, page_views, computed_at)
    SELECT d.day, coalesce(a.n, 0), coalesce(p.n, 0), coalesce(v.n, 0), coalesce(w.n, 0), now()
    FROM (SELECT g::date AS day FROM generate_series(${fromDay}, ${toDay}, interval '1 day') AS g) AS d
    LEFT JOIN (
      SELECT day, count(*)::int AS n FROM ${reportActiveUsers}
      WHERE day BETWEEN ${fromDay} AND ${toDay} GROUP BY day
    ) AS a ON a.day = d.day
    LEFT JOIN (${countPerDay(sql`${profiles}`, sql`${profiles.createdAt}`)}) AS p ON p.day = d.day
    LEFT JOIN (${countPerDay(sql`${votes}`, sql`${votes.createdAt}`)}) AS v ON v.day = d.day
    LEFT JOIN (${countPerDay(sql`${pageViews}`, sql`${pageViews.createdAt}`)}) AS w ON w.day = d.day
    ON CONFLICT (day) DO UPDATE SET
      active_users = EXCLUDED.active_users,
      new_users = EXCLUDED.new_users,
      total_votes = EXCLUDED.total_votes,
      page_views = EXCLUDED.page_views,
      computed_at = EXCLUDED.computed_at
    RETURNING to_char(day, 'YYYY-MM-DD') AS day, active_users, new_users, total_votes, page_views
  `);
  return rows.map(toDailyReport).sort((a, b) => a.day.localeCompare(b.day));
}

/** Watermark (maintenance_watermarks) of the incremental run of today: see refreshToday. */
export const TODAY_WATERMARK = 'reports.today-active';

/**
 * Today's aggregates (the 5-minute schedule and the worker's start-up run), in one transaction
 * under the aggregates lock. Today is now() of that transaction in `timeZone`, and now() is also
 * the watermark stored at the end ('reports.today-active'): every vote and page view that started
 * before it has been folded in, but for late commits, which the overlap covers.
 *
 * - No watermark, or one on another day (the first run of the day, or of a new deployment): the
 *   full recompute of today (recomputeDays' path).
 * - A watermark on today: incremental. Only the votes and signed-in page views created since the
 *   watermark minus WATERMARK_OVERLAP_MINUTES are read, their users added to today's
 *   report_active_users (ON CONFLICT DO NOTHING); then today's user numbers, activity bitmap and
 *   report_daily row are rewritten from today's report_active_users, as the full path does.
 *
 * Exact as long as today's rows are only ever added, since a (day, user) pair once active stays
 * active. Two cases are not: a user whose only activity of today disappears (every vote of
 * today voided, or the account deleted: report_active_users has no foreign key) stays counted
 * active, and a restored vote (it keeps its original created_at) of a user removed meanwhile by a
 * full recompute of today (aggregate-day, recompute-all) is not seen. Both are corrected by the
 * next full recompute of today, at the latest the {days: 2} run just after midnight, which
 * recomputes yesterday in full. The other figures (new users, votes, page views) are always
 * counted from the raw rows, so they are always exact.
 */
export async function refreshToday(db: Db, timeZone: string): Promise<DailyReport[]> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT ${AGGREGATES_LOCK}`);
    const [run] = await tx.execute<{ today: string; started_at: string; since: string | null }>(sql`
      SELECT to_char(${localDay(sql`now()`, timeZone)}, 'YYYY-MM-DD') AS today, now()::text AS started_at,
        CASE WHEN ${localDay(watermark(TODAY_WATERMARK), timeZone)} = ${localDay(sql`now()`, timeZone)}
          THEN ${watermarkSince(TODAY_WATERMARK, WATERMARK_OVERLAP_MINUTES)} END AS since`);
    const { today, started_at: startedAt, since } = run!;
    const reports = since === null ? await writeDays(tx, today, today, timeZone) : await addToToday(tx, today, since, timeZone);
    await advanceWatermark(tx, TODAY_WATERMARK, startedAt);
    return reports;
  });
}

/** The incremental path of refreshToday: adds the users active on `today` since `since`. */
async function addToToday(tx: Tx, today: string, since: string, timeZone: string): Promise<DailyReport[]> {
  const day = sql`${today}::date`;
  // Never before today's first instant: the overlap may reach back into yesterday.
  const startsAt = sql`greatest(${since}::timestamptz, ${startOf(day, timeZone)})`;
  const endsAt = startOf(sql`(${day} + 1)`, timeZone);
  await tx.execute(sql`
    INSERT INTO ${reportActiveUsers} (day, user_id) ${activePairs(startsAt, endsAt, timeZone)}
    ON CONFLICT (day, user_id) DO NOTHING`);
  await writeActivityBits(tx, day, day);
  return writeDaily(tx, day, day, timeZone);
}

/**
 * The same days as bitmaps (report_active_bits), from the report_active_users rows just written:
 * users active for the first time get their number (only those: an identity consumed by a
 * conflict would leave holes, and every five-minute run would widen the bitmaps), then each day's
 * blocks are rebuilt with bit (n % 8192) set for user number n.
 */
async function writeActivityBits(tx: Tx, fromDay: SQL, toDay: SQL): Promise<void> {
  const blockBits = sql.raw(String(ACTIVITY_BLOCK_BITS));
  await tx.execute(sql`
    INSERT INTO ${reportUserNumbers} (user_id)
    SELECT DISTINCT a.user_id FROM ${reportActiveUsers} a
    WHERE a.day BETWEEN ${fromDay} AND ${toDay}
      AND NOT EXISTS (SELECT 1 FROM ${reportUserNumbers} n WHERE n.user_id = a.user_id)
    ORDER BY a.user_id
  `);
  await tx.execute(sql`DELETE FROM ${reportActiveBits} WHERE ${reportActiveBits.day} BETWEEN ${fromDay} AND ${toDay}`);
  await tx.execute(sql`
    INSERT INTO ${reportActiveBits} (day, block, bits)
    SELECT a.day, n.n / ${blockBits}, bit_or(B'1'::bit(${blockBits}) >> (n.n % ${blockBits}))
    FROM ${reportActiveUsers} a JOIN ${reportUserNumbers} n ON n.user_id = a.user_id
    WHERE a.day BETWEEN ${fromDay} AND ${toDay}
    GROUP BY 1, 2
  `);
}

export interface FullRecompute {
  from: string;
  to: string;
  days: number;
  activeUserRows: number;
}

/**
 * Recomputes every day from the first vote, page view or profile to today (in `timeZone`) in one
 * transaction, and drops the aggregates of days outside that range (they describe rows that no
 * longer exist). Readers keep seeing the previous figures until it commits.
 */
export async function recomputeAllDays(db: Db, timeZone: string): Promise<FullRecompute> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT ${AGGREGATES_LOCK}`);
    const [range] = await tx.execute<{ from: string; to: string }>(sql`
      WITH today AS (SELECT (now() AT TIME ZONE ${timeZone})::date AS day),
      first AS (
        SELECT least(
          (SELECT min(${votes.createdAt}) FROM ${votes}),
          (SELECT min(${pageViews.createdAt}) FROM ${pageViews}),
          (SELECT min(${profiles.createdAt}) FROM ${profiles})
        ) AS at
      )
      SELECT to_char(least(coalesce(${localDay(sql`first.at`, timeZone)}, today.day), today.day), 'YYYY-MM-DD') AS "from",
             to_char(today.day, 'YYYY-MM-DD') AS "to"
      FROM today, first
    `);
    const { from, to } = range!;
    await tx.execute(sql`DELETE FROM ${reportDaily} WHERE day < ${from}::date OR day > ${to}::date`);
    await tx.execute(sql`DELETE FROM ${reportActiveUsers} WHERE day < ${from}::date OR day > ${to}::date`);
    await tx.execute(sql`DELETE FROM ${reportActiveBits} WHERE day < ${from}::date OR day > ${to}::date`);
    const days = await writeDays(tx, from, to, timeZone);
    const [count] = await tx.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM ${reportActiveUsers}`);
    return { from, to, days: days.length, activeUserRows: count!.n };
  });
}

/** The last `count` calendar days of `timeZone` ending today: the first and the last, as YYYY-MM-DD. */
export async function recentRange(db: DbOrTx, timeZone: string, count: number): Promise<{ from: string; to: string }> {
  const [row] = await db.execute<{ from: string; to: string }>(sql`
    SELECT to_char((now() AT TIME ZONE ${timeZone})::date - ${count - 1}::int, 'YYYY-MM-DD') AS "from",
           to_char((now() AT TIME ZONE ${timeZone})::date, 'YYYY-MM-DD') AS "to"
  `);
  return row!;
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

/** The users counted active on `day` (report_active_users), sorted. */
export async function listActiveUsers(db: DbOrTx, day: string): Promise<string[]> {
  const rows = await db.execute<{ user_id: string }>(sql`SELECT user_id FROM ${reportActiveUsers} WHERE day = ${day}::date ORDER BY user_id`);
  return rows.map((r) => r.user_id);
}

function toDailyReport(row: DailyReportRow): DailyReport {
  return {
    day: row.day,
    activeUsers: row.active_users,
    newUsers: row.new_users,
    totalVotes: row.total_votes,
    pageViews: row.page_views,
  };
}
