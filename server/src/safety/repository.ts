import { sql, type SQL } from 'drizzle-orm';
import { limitOf } from '@tribuna/drizzle/literals';
import type { SqlRunner } from '@tribuna/drizzle/pipelined';

// The SQL of mutes and blocks (issue 29): their rows and the settings' lists. What they hide, and
// from whom, is the access policy's (access/predicates.ts listedAuthor, unblocked, readableBy).

const ts = (column: SQL) => sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * The profile acted on, locked against a concurrent account deletion until the change commits:
 * null when there is none, else whether its owner deleted the account.
 */
export async function lockTarget(tx: SqlRunner, userId: string): Promise<{ deleted: boolean } | null> {
  const rows = await tx.execute<{ deleted: boolean }>(sql`SELECT deleted_at IS NOT NULL AS deleted FROM profiles WHERE id = ${userId} FOR SHARE`);
  return rows[0] ?? null;
}

/** Whether a profile exists whose owner did not delete the account. */
export async function activeProfileExists(db: SqlRunner, userId: string): Promise<boolean> {
  const rows = await db.execute(sql`SELECT 1 FROM profiles WHERE id = ${userId} AND deleted_at IS NULL`);
  return rows.length > 0;
}

/** Writes the mute unless it is there; whether it was written. */
export async function insertMute(tx: SqlRunner, userId: string, mutedId: string): Promise<boolean> {
  const rows = await tx.execute(sql`INSERT INTO user_mutes (user_id, muted_id) VALUES (${userId}, ${mutedId}) ON CONFLICT DO NOTHING RETURNING 1`);
  return rows.length > 0;
}

/** Removes the mute; whether there was one. */
export async function deleteMute(tx: SqlRunner, userId: string, mutedId: string): Promise<boolean> {
  const rows = await tx.execute(sql`DELETE FROM user_mutes WHERE user_id = ${userId} AND muted_id = ${mutedId} RETURNING 1`);
  return rows.length > 0;
}

/** Writes the block unless it is there; whether it was written. */
export async function insertBlock(tx: SqlRunner, blockerId: string, blockedId: string): Promise<boolean> {
  const rows = await tx.execute(sql`INSERT INTO user_blocks (blocker_id, blocked_id) VALUES (${blockerId}, ${blockedId}) ON CONFLICT DO NOTHING RETURNING 1`);
  return rows.length > 0;
}

/** Removes the block; whether there was one. */
export async function deleteBlock(tx: SqlRunner, blockerId: string, blockedId: string): Promise<boolean> {
  const rows = await tx.execute(sql`DELETE FROM user_blocks WHERE blocker_id = ${blockerId} AND blocked_id = ${blockedId} RETURNING 1`);
  return rows.length > 0;
}

/** Whether `userId` muted and blocked `targetId` (read in the change's transaction, after it). */
export async function stateOf(db: SqlRunner, userId: string, targetId: string): Promise<{ muted: boolean; blocked: boolean }> {
  const rows = await db.execute<{ muted: boolean; blocked: boolean }>(sql`
    SELECT EXISTS (SELECT 1 FROM user_mutes WHERE user_id = ${userId} AND muted_id = ${targetId}) AS muted,
      EXISTS (SELECT 1 FROM user_blocks WHERE blocker_id = ${userId} AND blocked_id = ${targetId}) AS blocked`);
  return rows[0] ?? { muted: false, blocked: false };
}

/**
 * The people `userId` hides from their walls (muted, blocked, or who blocked them), at most
 * `limit` of them (the caller asks one more than it keeps to know there are more).
 */
export async function hiddenAuthors(db: SqlRunner, userId: string, limit: number): Promise<string[]> {
  const rows = await db.execute<{ id: string }>(sql`
    SELECT id FROM (
      SELECT muted_id AS id FROM user_mutes WHERE user_id = ${userId}
      UNION SELECT blocked_id FROM user_blocks WHERE blocker_id = ${userId}
      UNION SELECT blocker_id FROM user_blocks WHERE blocked_id = ${userId}
    ) hidden ${limitOf(limit)}`);
  return rows.map((row) => row.id);
}

/** A keyset position in a list: when the mute or block began (microseconds) and the person's id. */
export interface SafetyPosition {
  atMicros: bigint;
  id: string;
}

export type SafetyEntryRow = {
  id: string;
  display_name: string | null;
  username: string | null;
  avatar_url: string | null;
  since: string;
  sort_micros: string;
};

/** Which list: the people a user muted, or blocked. */
const LISTS = {
  muted: { table: sql.raw('user_mutes'), owner: sql.raw('s.user_id'), listed: sql.raw('s.muted_id') },
  blocked: { table: sql.raw('user_blocks'), owner: sql.raw('s.blocker_id'), listed: sql.raw('s.blocked_id') },
} as const;
export type SafetyList = keyof typeof LISTS;

/**
 * A page of the people `userId` muted or blocked (limit + 1 rows tell whether there is more),
 * newest first: one statement walking user_mutes_list_idx or user_blocks_list_idx from the position.
 */
export async function listPage(db: SqlRunner, list: SafetyList, userId: string, after: SafetyPosition | null, limit: number): Promise<SafetyEntryRow[]> {
  const { table, owner, listed } = LISTS[list];
  const position = after
    ? sql`AND (s.created_at, ${listed}) < (timestamptz 'epoch' + ${after.atMicros.toString()}::bigint * interval '1 microsecond', ${after.id}::uuid)`
    : sql``;
  const rows = await db.execute<SafetyEntryRow>(sql`
    SELECT pr.id, pr.display_name, pr.username, pr.avatar_url, ${ts(sql`s.created_at`)} AS since,
      (extract(epoch FROM s.created_at) * 1000000)::bigint::text AS sort_micros
    FROM ${table} s JOIN profiles pr ON pr.id = ${listed}
    WHERE ${owner} = ${userId} ${position}
    -- NULLS LAST, as the indexes are built (a plain DESC is an order no index provides).
    ORDER BY s.created_at DESC NULLS LAST, ${listed} DESC NULLS LAST
    ${limitOf(limit)}`);
  return [...rows];
}
