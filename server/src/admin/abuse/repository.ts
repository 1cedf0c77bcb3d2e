import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx, Tx } from '@tribuna/drizzle/client';
import { abuseScans, contestants, pollOptions, pollPointsConfig, polls, profiles, voidedVotes, votes } from '@tribuna/drizzle/schema/index';
import { LOCK_KEYS, xactLock } from '@tribuna/drizzle/locks';

// The abuse report's reads and the void/restore moves. Vote ids travel as one JSON parameter of
// strings (bigints), so a batch of any size is one statement with a fixed text.

const idList = (ids: readonly string[]) => sql`(SELECT json_array_elements_text(${JSON.stringify(ids)}::json)::bigint)`;

// --- scans ---

export interface ScanRow {
  id: string;
  status: 'queued' | 'running' | 'done' | 'failed';
  progress: number;
  requestedBy: string | null;
  flaggedDevices: number;
  flaggedUsers: number;
  suspiciousVotes: number;
  report: unknown;
  error: string | null;
  startedAt: Date;
  finishedAt: Date | null;
}

const scanColumns = {
  id: abuseScans.id,
  status: abuseScans.status,
  progress: abuseScans.progress,
  requestedBy: abuseScans.requestedBy,
  flaggedDevices: abuseScans.flaggedDevices,
  flaggedUsers: abuseScans.flaggedUsers,
  suspiciousVotes: abuseScans.suspiciousVotes,
  report: abuseScans.report,
  error: abuseScans.error,
  startedAt: abuseScans.startedAt,
  finishedAt: abuseScans.finishedAt,
};

/** The newest scan, whatever its status (index abuse_scans_started_idx). */
export async function findLatestScan(db: DbOrTx): Promise<ScanRow | null> {
  const [row] = await db
    .select(scanColumns)
    .from(abuseScans)
    .orderBy(sql`${abuseScans.startedAt} DESC, ${abuseScans.id} DESC`)
    .limit(1);
  return row ?? null;
}

/** Serialises the admins' "start a scan" (two clicks at once make one scan). */
export async function lockScanStart(tx: Tx): Promise<void> {
  await tx.execute(sql`SELECT ${xactLock(LOCK_KEYS.abuseScanStart)}`);
}

/** The newest queued or running scan started after `since` (older ones are presumed dead). */
export async function findActiveScan(tx: DbOrTx, since: Date): Promise<ScanRow | null> {
  const [row] = await tx
    .select(scanColumns)
    .from(abuseScans)
    .where(sql`${abuseScans.status} IN ('queued', 'running') AND ${abuseScans.startedAt} > ${since.toISOString()}::timestamptz`)
    .orderBy(sql`${abuseScans.startedAt} DESC`)
    .limit(1);
  return row ?? null;
}

/** Queued or running scans started before `before` never finished (a worker died): failed. */
export async function failStaleScans(tx: DbOrTx, before: Date, error: string): Promise<void> {
  await tx
    .update(abuseScans)
    .set({ status: 'failed', error, finishedAt: sql`now()` })
    .where(sql`${abuseScans.status} IN ('queued', 'running') AND ${abuseScans.startedAt} <= ${before.toISOString()}::timestamptz`);
}

export async function insertQueuedScan(tx: DbOrTx, requestedBy: string): Promise<ScanRow> {
  const [row] = await tx.insert(abuseScans).values({ status: 'queued', progress: 0, requestedBy }).returning(scanColumns);
  return row!;
}

// --- the votes behind a flag ---

export interface AbuseVoteRow extends Record<string, unknown> {
  id: string;
  poll_id: string;
  poll_title: string | null;
  option_label: string | null;
  user_id: string;
  display_name: string | null;
  points: number;
  device_fingerprint: string | null;
  created_at: string;
  voided_at: string | null;
  voided_by: string | null;
  voided_by_name: string | null;
  void_reason: string | null;
}

/**
 * Live and voided votes of one device or one user, newest first, at most `limit` (each table read
 * through its device or user index, `limit` rows at most from each).
 */
export async function listVotes(db: DbOrTx, by: { fingerprint: string } | { userId: string }, limit: number): Promise<AbuseVoteRow[]> {
  // The tables are aliased `v` below.
  const where: SQL = 'fingerprint' in by ? sql`v.device_fingerprint = ${by.fingerprint}` : sql`v.user_id = ${by.userId}::uuid`;
  const label = sql`coalesce(c.full_name, o.text, '')`;
  return db.execute<AbuseVoteRow>(sql`
    SELECT * FROM (
      (SELECT v.id::text AS id, v.poll_id, p.title AS poll_title, ${label} AS option_label, v.user_id, u.display_name, v.points,
          v.device_fingerprint, v.created_at, NULL::timestamptz AS voided_at, NULL::uuid AS voided_by, NULL::text AS voided_by_name,
          NULL::text AS void_reason
        FROM ${votes} v
        LEFT JOIN ${polls} p ON p.id = v.poll_id
        LEFT JOIN ${pollOptions} o ON o.poll_id = v.poll_id AND o.id = v.option_id
        LEFT JOIN ${contestants} c ON c.id = o.contestant_id
        LEFT JOIN ${profiles} u ON u.id = v.user_id
        WHERE ${where}
        ORDER BY v.created_at DESC, v.id DESC LIMIT ${limit})
      UNION ALL
      (SELECT v.id::text, v.poll_id, p.title, ${label}, v.user_id, u.display_name, v.points,
          v.device_fingerprint, v.created_at, v.voided_at, v.voided_by, a.display_name, v.void_reason
        FROM ${voidedVotes} v
        LEFT JOIN ${polls} p ON p.id = v.poll_id
        LEFT JOIN ${pollOptions} o ON o.poll_id = v.poll_id AND o.id = v.option_id
        LEFT JOIN ${contestants} c ON c.id = o.contestant_id
        LEFT JOIN ${profiles} u ON u.id = v.user_id
        LEFT JOIN ${profiles} a ON a.id = v.voided_by
        WHERE ${where}
        ORDER BY v.created_at DESC, v.id DESC LIMIT ${limit})
    ) AS listed
    ORDER BY created_at DESC, id::bigint DESC
    LIMIT ${limit}`);
}

// --- void and restore ---

export interface MovedVote {
  id: string;
  pollId: string;
  optionId: string;
  userId: string;
  points: number;
  /** The option is on the poll's ballot: the vote counts in the results and the live totals. */
  onBallot: boolean;
}

interface MovedRow extends Record<string, unknown> {
  id: string;
  poll_id: string;
  option_id: string;
  user_id: string;
  points: number;
  on_ballot: boolean;
}

const toMoved = (r: MovedRow): MovedVote => ({
  id: r.id,
  pollId: r.poll_id,
  optionId: r.option_id,
  userId: r.user_id,
  points: r.points,
  onBallot: r.on_ballot,
});

/** The (user, poll) pairs of the given votes in `table` (to lock them as the vote writer does). */
export async function voterKeysOf(tx: Tx, table: 'votes' | 'voided_votes', ids: readonly string[]) {
  const source = table === 'votes' ? votes : voidedVotes;
  const rows = await tx.execute<{ user_id: string; poll_id: string }>(sql`
    SELECT DISTINCT user_id, poll_id FROM ${source} WHERE id IN ${idList(ids)}`);
  return rows.map((r) => ({ userId: r.user_id, pollId: r.poll_id }));
}

/**
 * Moves votes from `votes` to `voided_votes` with who, when and why, in one statement: the
 * statement triggers on `votes` take them out of vote_tallies and poll_vote_counts.
 */
export async function moveToVoided(tx: Tx, ids: readonly string[], adminId: string, reason: string): Promise<MovedVote[]> {
  const rows = await tx.execute<MovedRow>(sql`
    WITH moved AS (
      DELETE FROM ${votes} WHERE id IN ${idList(ids)}
      RETURNING id, poll_id, option_id, user_id, points, device_fingerprint, user_agent, created_at
    ),
    kept AS (
      INSERT INTO ${voidedVotes} (id, poll_id, option_id, user_id, points, device_fingerprint, user_agent, created_at, voided_at, voided_by, void_reason)
      SELECT id, poll_id, option_id, user_id, points, device_fingerprint, user_agent, created_at, now(), ${adminId}, ${reason} FROM moved
    )
    SELECT m.id::text AS id, m.poll_id, m.option_id, m.user_id, m.points,
      EXISTS (SELECT 1 FROM ${pollOptions} o WHERE o.poll_id = m.poll_id AND o.id = m.option_id AND o.removed_at IS NULL) AS on_ballot
    FROM moved m`);
  return rows.map(toMoved);
}

export interface VoidedCandidate {
  id: string;
  pollId: string;
  optionId: string;
  userId: string;
  points: number;
  createdAt: Date;
  /** Its option still exists (else it cannot go back: the option was deleted). */
  optionExists: boolean;
  maxPointsPerUser: number;
  dailyReset: boolean;
  /** Calendar day of the vote in SHOW_TIMEZONE (the points window of a daily-reset poll). */
  day: string;
}

/** The voided votes asked for, with what deciding their restore needs. */
export async function findVoided(tx: Tx, ids: readonly string[], timeZone: string): Promise<VoidedCandidate[]> {
  const rows = await tx.execute<{
    id: string;
    poll_id: string;
    option_id: string;
    user_id: string;
    points: number;
    created_at: string;
    option_exists: boolean;
    max_points: number | null;
    daily_reset: boolean | null;
    day: string;
  }>(sql`
    SELECT v.id::text AS id, v.poll_id, v.option_id, v.user_id, v.points, v.created_at,
      EXISTS (SELECT 1 FROM ${pollOptions} o WHERE o.poll_id = v.poll_id AND o.id = v.option_id) AS option_exists,
      cfg.max_points_per_user AS max_points, cfg.daily_reset,
      to_char(v.created_at AT TIME ZONE ${timeZone}, 'YYYY-MM-DD') AS day
    FROM ${voidedVotes} v
    LEFT JOIN ${pollPointsConfig} cfg ON cfg.poll_id = v.poll_id
    WHERE v.id IN ${idList(ids)}
    ORDER BY v.created_at, v.id`);
  return rows.map((r) => ({
    id: r.id,
    pollId: r.poll_id,
    optionId: r.option_id,
    userId: r.user_id,
    points: r.points,
    createdAt: new Date(r.created_at),
    optionExists: r.option_exists,
    maxPointsPerUser: r.max_points ?? 1,
    dailyReset: r.daily_reset ?? false,
    day: r.day,
  }));
}

export interface PairStanding {
  userId: string;
  pollId: string;
  /** Live votes of the user on the poll's ballot (single choice: one means they voted again). */
  ballotVotes: number;
  /** Points per SHOW_TIMEZONE day of every live vote of the user on the poll. */
  pointsByDay: Map<string, number>;
}

/** Where each (user, poll) stands now in `votes` (read after their locks). */
export async function standingOf(tx: Tx, keys: readonly { userId: string; pollId: string }[], timeZone: string): Promise<PairStanding[]> {
  if (keys.length === 0) return [];
  const rows = await tx.execute<{ user_id: string; poll_id: string; day: string; points: number; ballot_votes: number }>(sql`
    SELECT v.user_id, v.poll_id, to_char(v.created_at AT TIME ZONE ${timeZone}, 'YYYY-MM-DD') AS day,
      sum(v.points)::int AS points,
      count(*) FILTER (WHERE EXISTS (
        SELECT 1 FROM ${pollOptions} o WHERE o.poll_id = v.poll_id AND o.id = v.option_id AND o.removed_at IS NULL
      ))::int AS ballot_votes
    FROM json_to_recordset(${JSON.stringify(keys.map((k) => ({ u: k.userId, p: k.pollId })))}::json) AS k(u uuid, p uuid)
    JOIN ${votes} v ON v.user_id = k.u AND v.poll_id = k.p
    GROUP BY 1, 2, 3`);
  const byPair = new Map<string, PairStanding>();
  for (const r of rows) {
    const key = `${r.user_id}|${r.poll_id}`;
    let standing = byPair.get(key);
    if (!standing) {
      standing = { userId: r.user_id, pollId: r.poll_id, ballotVotes: 0, pointsByDay: new Map() };
      byPair.set(key, standing);
    }
    standing.ballotVotes += r.ballot_votes;
    standing.pointsByDay.set(r.day, (standing.pointsByDay.get(r.day) ?? 0) + r.points);
  }
  return [...byPair.values()];
}

/** Moves voided votes back into `votes` with their original id and time (the triggers count them again). */
export async function moveBack(tx: Tx, ids: readonly string[]): Promise<MovedVote[]> {
  if (ids.length === 0) return [];
  const rows = await tx.execute<MovedRow>(sql`
    WITH moved AS (
      DELETE FROM ${voidedVotes} WHERE id IN ${idList(ids)}
      RETURNING id, poll_id, option_id, user_id, points, device_fingerprint, user_agent, created_at
    ),
    back AS (
      INSERT INTO ${votes} (id, poll_id, option_id, user_id, points, device_fingerprint, user_agent, created_at)
      OVERRIDING SYSTEM VALUE
      SELECT id, poll_id, option_id, user_id, points, device_fingerprint, user_agent, created_at FROM moved
    )
    SELECT m.id::text AS id, m.poll_id, m.option_id, m.user_id, m.points,
      EXISTS (SELECT 1 FROM ${pollOptions} o WHERE o.poll_id = m.poll_id AND o.id = m.option_id AND o.removed_at IS NULL) AS on_ballot
    FROM moved m`);
  return rows.map(toMoved);
}

/** Names and avatars of voters, and whether they may be named (for the live voters lists). */
export async function voterProfiles(db: DbOrTx, userIds: readonly string[]) {
  if (userIds.length === 0) return [];
  const rows = await db.execute<{ id: string; display_name: string | null; avatar_url: string | null; show_in_voter_lists: boolean }>(sql`
    SELECT id, display_name, avatar_url, show_in_voter_lists FROM ${profiles}
    WHERE id IN (SELECT json_array_elements_text(${JSON.stringify(userIds)}::json)::uuid)`);
  return rows.map((r) => ({ userId: r.id, displayName: r.display_name, avatarUrl: r.avatar_url, listed: r.show_in_voter_lists }));
}
