import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '@tribuna/drizzle/client';
import { schema } from '@tribuna/drizzle';
import { watermarkSince } from '../watermarks.ts';

const { pollPointsConfig, polls, profiles, shareHistory, userPointsHistory } = schema;

export type AwardOutcome = 'awarded' | 'already-awarded' | 'skipped';

interface AwardRow extends Record<string, unknown> {
  eligible: number;
  credited: number;
}

/**
 * One statement, so one transaction: the history row is inserted unless the award exists (the
 * partial unique index on (user_id, reason, reference_id)), and the user's total moves only by
 * the rows actually inserted. Running it twice, or twice at once, awards once.
 */
function grant(source: SQL, reason: 'vote' | 'share') {
  return sql`
    WITH source AS (${source}),
    inserted AS (
      INSERT INTO ${userPointsHistory} (user_id, points, reason, reference_id, description)
      SELECT user_id, points, ${reason}, reference_id, description FROM source WHERE points <> 0
      ON CONFLICT (user_id, reason, reference_id) WHERE reference_id IS NOT NULL DO NOTHING
      RETURNING user_id, points
    ),
    credited AS (
      -- Per user: one UPDATE row may only apply once, and a batch can hold several awards of a user.
      UPDATE ${profiles} p SET total_points = p.total_points + mine.points
      FROM (SELECT user_id, sum(points)::int AS points, count(*)::int AS awards FROM inserted GROUP BY user_id) AS mine
      WHERE p.id = mine.user_id
      RETURNING mine.awards
    )
    SELECT (SELECT count(*) FROM source WHERE points <> 0)::int AS eligible, (SELECT coalesce(sum(awards), 0) FROM credited)::int AS credited`;
}

function outcomeOf(rows: AwardRow[]): AwardOutcome {
  const row = rows[0];
  if (!row || row.eligible === 0) return 'skipped';
  return row.credited > 0 ? 'awarded' : 'already-awarded';
}

/** The poll's points_per_vote under `referenceId`; skipped when the poll or the user no longer exists. */
export async function grantVoteAward(db: DbOrTx, userId: string, pollId: string, referenceId: string): Promise<AwardOutcome> {
  const { eligible, credited } = await grantVoteAwards(db, [{ userId, pollId, referenceId }]);
  return outcomeOf([{ eligible, credited }]);
}

export interface VoteAwardKey {
  userId: string;
  pollId: string;
  referenceId: string;
}

/** Several vote awards in one statement (one transaction): how many were eligible and how many granted now. */
export async function grantVoteAwards(db: DbOrTx, keys: VoteAwardKey[]): Promise<{ eligible: number; credited: number }> {
  if (keys.length === 0) return { eligible: 0, credited: 0 };
  const json = JSON.stringify(keys.map((k) => ({ u: k.userId, p: k.pollId, r: k.referenceId })));
  const source = sql`
    SELECT DISTINCT ON (u.id, k.r) u.id AS user_id, coalesce(c.points_per_vote, 1) AS points, k.r AS reference_id,
      'Voto en «' || p.title || '»' AS description
    FROM json_to_recordset(${json}::json) AS k(u uuid, p uuid, r text)
    JOIN ${polls} p ON p.id = k.p
    JOIN ${profiles} u ON u.id = k.u
    LEFT JOIN ${pollPointsConfig} c ON c.poll_id = p.id
    ORDER BY u.id, k.r`;
  const [row] = await db.execute<AwardRow>(grant(source, 'vote'));
  return { eligible: row?.eligible ?? 0, credited: row?.credited ?? 0 };
}

/**
 * Whether the poll `p` was active when share `s` was made: only such a share pays its bonus. Not
 * past its end date then, and either active now or changed since the share (a poll closed and last
 * changed before the share was closed when shared; one changed after may have been closed after,
 * and its share was judged by the server: points_earned is 0 for a closed poll). Shares recorded
 * with a bonus for closed polls (before the server checked) are refused here.
 */
const pollWasActiveWhenShared = sql`(p.status <> 'draft'
  AND (p.end_date IS NULL OR p.end_date > s.shared_at)
  AND (p.status = 'active' OR p.updated_at > s.shared_at))`;

/** The share's points_earned; skipped when the share is gone, earns nothing, or its poll was not active when shared. */
export async function grantShareAward(db: DbOrTx, shareId: string): Promise<AwardOutcome> {
  const source = sql`
    SELECT s.user_id, s.points_earned AS points,
      'share:' || s.poll_id || ':' || to_char(s.share_day, 'YYYY-MM-DD') AS reference_id,
      'Compartiste «' || p.title || '»' AS description
    FROM ${shareHistory} s JOIN ${polls} p ON p.id = s.poll_id
    WHERE s.id = ${shareId}::uuid AND ${pollWasActiveWhenShared}`;
  return outcomeOf(await db.execute<AwardRow>(grant(source, 'share')));
}

/** Start of the calendar day `days - 1` days before today in `timeZone` (days = 3: today and the 2 before). */
const windowStart = (timeZone: string, days: number) => sql`(((now() AT TIME ZONE ${timeZone})::date - ${days - 1}::int)::timestamp AT TIME ZONE ${timeZone})`;

/**
 * Where a sweep's scan starts: the window's start, or `since` (a timestamptz as PostgreSQL writes
 * it) when later; greatest() ignores the NULL of no `since`.
 */
const scanStart = (timeZone: string, days: number, since: string | null | undefined, ...later: SQL[]) =>
  sql`greatest(${sql.join([windowStart(timeZone, days), sql`${since ?? null}::timestamptz`, ...later], sql`, `)})`;

/** A vote award the sweep looks for: (user, poll, day of the vote in the show's time zone). */
export interface MissingVoteAward {
  userId: string;
  pollId: string;
  day: string;
}

export interface ScanBounds<K> {
  /** Only rows from this instant on (a timestamptz as PostgreSQL writes it); none: the whole window. */
  since?: string | null;
  /** Only what sorts after this key (the last one of the previous round of the same sweep). */
  after?: K;
}

/** A sweep's query: up to `limit` missing awards of the last `days` days in `timeZone` within `bounds`, in key order. */
export type FindMissing<K> = (db: DbOrTx, timeZone: string, days: number, limit: number, bounds?: ScanBounds<K>) => Promise<K[]>;

/** (user, poll, day in timeZone) that have votes in the window but no vote award, in (day, poll, user) order. */
export const findMissingVoteAwards: FindMissing<MissingVoteAward> = async (db, timeZone, days, limit, { since, after } = {}) => {
  // Past a previous round's last key, the votes of the days before its day are not read again.
  const from = after ? scanStart(timeZone, days, since, sql`(${after.day}::date::timestamp AT TIME ZONE ${timeZone})`) : scanStart(timeZone, days, since);
  const rows = await db.execute<{ user_id: string; poll_id: string; day: string }>(sql`
    WITH voted AS (
      SELECT v.user_id, v.poll_id, to_char(v.created_at AT TIME ZONE ${timeZone}, 'YYYY-MM-DD') AS day
      FROM ${schema.votes} v
      WHERE v.created_at >= ${from}
      GROUP BY 1, 2, 3
    )
    SELECT voted.user_id, voted.poll_id, voted.day FROM voted
    WHERE ${after ? sql`(voted.day, voted.poll_id, voted.user_id) > (${after.day}::text, ${after.pollId}::uuid, ${after.userId}::uuid)` : sql`true`}
      AND NOT EXISTS (
        SELECT 1 FROM ${userPointsHistory} h
        WHERE h.user_id = voted.user_id AND h.reason = 'vote'
          AND h.reference_id = 'vote:' || voted.poll_id || ':' || voted.day
      )
    ORDER BY voted.day, voted.poll_id, voted.user_id
    LIMIT ${limit}`);
  return rows.map((r) => ({ userId: r.user_id, pollId: r.poll_id, day: r.day }));
};

/** A share the sweep looks for; `sharedAt` as PostgreSQL writes it (microseconds kept, for the next round's key). */
export interface MissingShareAward {
  id: string;
  sharedAt: string;
}

/** Shares in the window that earn points (of a poll active when shared) but have no share award, in (shared_at, id) order. */
export const findMissingShareAwards: FindMissing<MissingShareAward> = async (db, timeZone, days, limit, { since, after } = {}) => {
  const rows = await db.execute<{ id: string; shared_at: string }>(sql`
    SELECT s.id, s.shared_at::text AS shared_at FROM ${shareHistory} s JOIN ${polls} p ON p.id = s.poll_id
    WHERE s.shared_at >= ${scanStart(timeZone, days, since)} AND s.points_earned > 0 AND ${pollWasActiveWhenShared}
      AND ${after ? sql`(s.shared_at, s.id) > (${after.sharedAt}::timestamptz, ${after.id}::uuid)` : sql`true`}
      AND NOT EXISTS (
        SELECT 1 FROM ${userPointsHistory} h
        WHERE h.user_id = s.user_id AND h.reason = 'share'
          AND h.reference_id = 'share:' || s.poll_id || ':' || to_char(s.share_day, 'YYYY-MM-DD')
      )
    ORDER BY s.shared_at, s.id
    LIMIT ${limit}`);
  return rows.map((r) => ({ id: r.id, sharedAt: r.shared_at }));
};

/**
 * The instant a sweep starts, on PostgreSQL's clock, and where its incremental scan starts: the
 * watermark `name` minus `overlapMinutes`, or null when there is none yet. Both as PostgreSQL
 * writes a timestamptz, so they go back to it unchanged.
 */
export async function sweepStart(db: DbOrTx, name: string, overlapMinutes: number): Promise<{ startedAt: string; since: string | null }> {
  const [row] = await db.execute<{ started_at: string; since: string | null }>(sql`
    SELECT clock_timestamp()::text AS started_at,
      ${watermarkSince(name, overlapMinutes)} AS since`);
  return { startedAt: row!.started_at, since: row!.since };
}

/** Today in `timeZone`, as PostgreSQL says it (YYYY-MM-DD). */
export async function today(db: DbOrTx, timeZone: string): Promise<string> {
  const rows = await db.execute<{ day: string }>(sql`SELECT to_char(now() AT TIME ZONE ${timeZone}, 'YYYY-MM-DD') AS day`);
  return rows[0]!.day;
}
