import { sql } from 'drizzle-orm';
import { ABUSE_MESSAGES } from '@tribuna/contracts/abuseRules';
import type { Db, DbOrTx, Tx } from '@tribuna/drizzle/client';
import { abuseScans, profiles, votes } from '@tribuna/drizzle/schema/index';

// The abuse scan's SQL, set-based inside one transaction: `votes` is read ONCE, into its distinct
// (user, device) pairs with their vote counts (collectPairs); the flags, counts and report rows are
// computed from those pairs. Everything lives in temporary tables dropped at COMMIT.

export type ScanStatus = 'queued' | 'running' | 'done' | 'failed';

export interface ScanRow {
  id: string;
  status: ScanStatus;
}

/**
 * A new scan row, already running (a scheduled scan: nobody asked for it). A scheduled scan still
 * 'running' was cut off (its worker died; the job is being retried now, or was given up): the
 * schedule runs one at a time, so it is marked failed rather than left running for ever.
 */
export async function createRunningScan(db: Db): Promise<ScanRow> {
  return db.transaction(async (tx) => {
    await tx
      .update(abuseScans)
      .set({ status: 'failed', error: ABUSE_MESSAGES.scanInterrupted, finishedAt: sql`now()` })
      .where(sql`${abuseScans.requestedBy} IS NULL AND ${abuseScans.status} = 'running'`);
    const [row] = await tx.insert(abuseScans).values({ status: 'running', progress: 0 }).returning({ id: abuseScans.id, status: abuseScans.status });
    return row!;
  });
}

/**
 * Takes the scan `scanId` for running: a queued one, or a running or failed one again (a retried
 * job after a crash or an error). A scan already done is left as it is (the job ran twice): null.
 */
export async function claimScan(db: DbOrTx, scanId: string): Promise<ScanRow | null | 'done'> {
  const rows = await db.execute<{ id: string; status: ScanStatus }>(sql`
    WITH current AS (SELECT id, status FROM ${abuseScans} WHERE id = ${scanId}),
    claimed AS (
      UPDATE ${abuseScans} s SET status = 'running', progress = 0, error = NULL, finished_at = NULL
      FROM current WHERE s.id = current.id AND current.status <> 'done'
      RETURNING s.id, s.status
    )
    SELECT current.id, coalesce(claimed.status, current.status) AS status FROM current LEFT JOIN claimed ON claimed.id = current.id`);
  const row = rows[0];
  if (!row) return null;
  return row.status === 'done' ? 'done' : { id: row.id, status: row.status };
}

export async function setProgress(db: DbOrTx, scanId: string, progress: number): Promise<void> {
  await db.execute(sql`UPDATE ${abuseScans} SET progress = ${progress} WHERE id = ${scanId} AND status = 'running'`);
}

export async function finishScan(
  db: DbOrTx,
  scanId: string,
  result: { flaggedDevices: number; flaggedUsers: number; suspiciousVotes: number; report: unknown },
): Promise<void> {
  await db.execute(sql`
    UPDATE ${abuseScans} SET status = 'done', progress = 100, finished_at = now(), error = NULL,
      flagged_devices = ${result.flaggedDevices}, flagged_users = ${result.flaggedUsers},
      suspicious_votes = ${result.suspiciousVotes}, report = ${JSON.stringify(result.report)}::jsonb
    WHERE id = ${scanId}`);
}

export async function failScan(db: DbOrTx, scanId: string, error: string): Promise<void> {
  await db.execute(sql`
    UPDATE ${abuseScans} SET status = 'failed', finished_at = now(), error = ${error.slice(0, 1000)} WHERE id = ${scanId}`);
}

/**
 * The one pass over `votes`: vote rows per distinct (user, device) pair, a device-less pair
 * included, into the temporary table abuse_pairs (user_id, fp, votes). Every figure after this
 * reads these pairs (one per account and device, far fewer than the votes), never `votes` again.
 */
export async function collectPairs(tx: Tx): Promise<void> {
  await tx.execute(sql`
    CREATE TEMPORARY TABLE abuse_pairs ON COMMIT DROP AS
    SELECT ${votes.userId} AS user_id, ${votes.deviceFingerprint} AS fp, count(*)::int AS votes
    FROM ${votes}
    GROUP BY ${votes.userId}, ${votes.deviceFingerprint}`);
  await tx.execute(sql`CREATE INDEX ON abuse_pairs (fp)`);
  await tx.execute(sql`CREATE INDEX ON abuse_pairs (user_id)`);
  await tx.execute(sql`ANALYZE abuse_pairs`);
}

/**
 * Devices (fingerprints) `minAccounts` or more distinct accounts voted from, into the temporary
 * table abuse_flagged_devices (fp, accounts, votes); answers how many.
 */
export async function flagDevices(tx: Tx, minAccounts: number): Promise<number> {
  await tx.execute(sql`
    CREATE TEMPORARY TABLE abuse_flagged_devices ON COMMIT DROP AS
    SELECT fp, count(*)::int AS accounts, sum(votes)::int AS votes
    FROM abuse_pairs
    WHERE fp IS NOT NULL
    GROUP BY fp
    HAVING count(*) >= ${minAccounts}`);
  const [row] = await tx.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM abuse_flagged_devices`);
  return row?.n ?? 0;
}

/**
 * Users who voted from `minDevices` or more distinct devices, into the temporary table
 * abuse_flagged_users (user_id, devices, votes: every vote of the user, with or without a
 * fingerprint); answers how many.
 */
export async function flagUsers(tx: Tx, minDevices: number): Promise<number> {
  await tx.execute(sql`
    CREATE TEMPORARY TABLE abuse_flagged_users ON COMMIT DROP AS
    SELECT user_id, count(fp)::int AS devices, sum(votes)::int AS votes
    FROM abuse_pairs
    GROUP BY user_id
    HAVING count(fp) >= ${minDevices}`);
  const [row] = await tx.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM abuse_flagged_users`);
  return row?.n ?? 0;
}

/** Distinct votes cast from a flagged device or by a flagged user (each vote is in exactly one pair). */
export async function countSuspiciousVotes(tx: Tx): Promise<number> {
  const [row] = await tx.execute<{ n: number }>(sql`
    SELECT coalesce(sum(p.votes), 0)::int AS n FROM abuse_pairs p
    WHERE p.fp IN (SELECT fp FROM abuse_flagged_devices)
       OR p.user_id IN (SELECT user_id FROM abuse_flagged_users)`);
  return row?.n ?? 0;
}

export interface TopDevice {
  fingerprint: string;
  accountCount: number;
  voteCount: number;
  userIds: string[];
}

/** The `limit` flagged devices with the most accounts (then votes), with the accounts seen on each. */
export async function topDevices(tx: Tx, limit: number): Promise<TopDevice[]> {
  const rows = await tx.execute<{ fp: string; accounts: number; votes: number; user_ids: string[] }>(sql`
    WITH top AS (
      SELECT fp, accounts, votes FROM abuse_flagged_devices ORDER BY accounts DESC, votes DESC, fp LIMIT ${limit}
    )
    SELECT top.fp, top.accounts, top.votes, ARRAY(SELECT p.user_id FROM abuse_pairs p WHERE p.fp = top.fp) AS user_ids
    FROM top
    ORDER BY top.accounts DESC, top.votes DESC, top.fp`);
  return rows.map((r) => ({ fingerprint: r.fp, accountCount: r.accounts, voteCount: r.votes, userIds: r.user_ids }));
}

export interface TopUser {
  userId: string;
  deviceCount: number;
  devices: string[];
}

/** The `limit` flagged users with the most devices (then votes), with their devices (most used first, at most `devicesEach`). */
export async function topUsers(tx: Tx, limit: number, devicesEach: number): Promise<TopUser[]> {
  const rows = await tx.execute<{ user_id: string; devices: number; fps: string[] }>(sql`
    WITH top AS (
      SELECT user_id, devices, votes FROM abuse_flagged_users ORDER BY devices DESC, votes DESC, user_id LIMIT ${limit}
    )
    SELECT top.user_id, top.devices,
      ARRAY(
        SELECT p.fp FROM abuse_pairs p WHERE p.user_id = top.user_id AND p.fp IS NOT NULL
        ORDER BY p.votes DESC, p.fp LIMIT ${devicesEach}
      ) AS fps
    FROM top
    ORDER BY top.devices DESC, top.votes DESC, top.user_id`);
  return rows.map((r) => ({ userId: r.user_id, deviceCount: r.devices, devices: r.fps }));
}

export interface AccountFigures {
  userId: string;
  displayName: string | null;
  username: string | null;
  isSuspended: boolean;
  /** Seconds since the account was created (0 for a clock skew into the future). */
  ageSeconds: number;
  voteCount: number;
}

/** Age and total votes of each account (its pairs; after collectPairs). */
export async function accountFigures(tx: Tx, userIds: string[]): Promise<AccountFigures[]> {
  if (userIds.length === 0) return [];
  const rows = await tx.execute<{
    id: string;
    display_name: string | null;
    username: string | null;
    is_suspended: boolean;
    age_seconds: number;
    vote_count: number;
  }>(sql`
    SELECT p.id, p.display_name, p.username, p.is_suspended,
      greatest(0, extract(epoch FROM (now() - p.created_at)))::float8 AS age_seconds,
      (SELECT coalesce(sum(x.votes), 0) FROM abuse_pairs x WHERE x.user_id = p.id)::int AS vote_count
    FROM ${profiles} p
    WHERE p.id IN (SELECT json_array_elements_text(${JSON.stringify(userIds)}::json)::uuid)`);
  return rows.map((r) => ({
    userId: r.id,
    displayName: r.display_name,
    username: r.username,
    isSuspended: r.is_suspended,
    ageSeconds: Number(r.age_seconds),
    voteCount: r.vote_count,
  }));
}
