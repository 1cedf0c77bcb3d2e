import { sql, type SQL } from 'drizzle-orm';
import { limitOf } from '@tribuna/drizzle/literals';
import { relationLockKey, xactLock } from '@tribuna/drizzle/locks';
import type { SqlRunner } from '@tribuna/drizzle/pipelined';

// The SQL of follows: the follow rows themselves (profiles.followers_count and following_count
// follow them through statement triggers, migration 0030: never written here) and the lists.

const ts = (column: SQL) => sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * The profile to follow, locked against a concurrent account deletion until the follow commits:
 * null when there is none, else whether its owner deleted the account.
 */
export async function lockFollowee(tx: SqlRunner, userId: string): Promise<{ deleted: boolean } | null> {
  const rows = await tx.execute<{ deleted: boolean }>(sql`SELECT deleted_at IS NOT NULL AS deleted FROM profiles WHERE id = ${userId} FOR SHARE`);
  return rows[0] ?? null;
}

/** Whether a profile exists (deleted accounts included). */
export async function profileExists(db: SqlRunner, userId: string): Promise<boolean> {
  const rows = await db.execute(sql`SELECT 1 FROM profiles WHERE id = ${userId}`);
  return rows.length > 0;
}

/** Writes the follow unless it is there already; whether it was written. */
export async function insertFollow(tx: SqlRunner, followerId: string, followeeId: string): Promise<boolean> {
  const rows = await tx.execute(sql`
    INSERT INTO follows (follower_id, followee_id) VALUES (${followerId}, ${followeeId})
    ON CONFLICT DO NOTHING RETURNING 1`);
  return rows.length > 0;
}

/** Removes the follow; whether there was one. */
export async function deleteFollow(tx: SqlRunner, followerId: string, followeeId: string): Promise<boolean> {
  const rows = await tx.execute(sql`DELETE FROM follows WHERE follower_id = ${followerId} AND followee_id = ${followeeId} RETURNING 1`);
  return rows.length > 0;
}

/** Ends the follows between `a` and `b`, both ways (a block: issue 29); the follows that ended. */
export async function deleteFollowsBetween(tx: SqlRunner, a: string, b: string): Promise<{ followerId: string; followeeId: string }[]> {
  const rows = await tx.execute<{ follower_id: string; followee_id: string }>(sql`
    DELETE FROM follows WHERE (follower_id = ${a} AND followee_id = ${b}) OR (follower_id = ${b} AND followee_id = ${a})
    RETURNING follower_id, followee_id`);
  return rows.map((r) => ({ followerId: r.follower_id, followeeId: r.followee_id }));
}

/** Serialises every change of the relation between two people (a follow, a block) until the transaction ends. */
export async function lockRelation(tx: SqlRunner, a: string, b: string): Promise<void> {
  await tx.execute(sql`SELECT ${xactLock(relationLockKey(sql`${a}`, sql`${b}`))}`);
}

/** A profile's followers counter (as the triggers keep it; read after the change, in its transaction). */
export async function followersCount(db: SqlRunner, userId: string): Promise<number> {
  const rows = await db.execute<{ n: number }>(sql`SELECT followers_count AS n FROM profiles WHERE id = ${userId}`);
  return rows[0]?.n ?? 0;
}

/** A keyset position in a list: when the follow began (microseconds) and the listed person's id. */
export interface FollowPosition {
  atMicros: bigint;
  id: string;
}

export type FollowEntryRow = {
  id: string;
  display_name: string | null;
  username: string | null;
  avatar_url: string | null;
  since: string;
  sort_micros: string;
  viewer_follows: boolean;
};

/** Which side of the follows a list shows: a profile's followers, or whom it follows. */
const SIDES = {
  followers: { owner: sql.raw('f.followee_id'), listed: sql.raw('f.follower_id') },
  following: { owner: sql.raw('f.follower_id'), listed: sql.raw('f.followee_id') },
} as const;
export type FollowSide = keyof typeof SIDES;

/**
 * A page of a profile's followers or followed (limit + 1 rows tell whether there is more), newest
 * follow first, each person with whether `viewerId` follows them: one statement, walking
 * follows_followee_idx or follows_follower_idx from the position.
 */
export async function followPage(
  db: SqlRunner,
  side: FollowSide,
  userId: string,
  viewerId: string | null,
  after: FollowPosition | null,
  limit: number,
): Promise<FollowEntryRow[]> {
  const { owner, listed } = SIDES[side];
  const position = after
    ? sql`AND (f.created_at, ${listed}) < (timestamptz 'epoch' + ${after.atMicros.toString()}::bigint * interval '1 microsecond', ${after.id}::uuid)`
    : sql``;
  const viewerFollows = viewerId ? sql`EXISTS (SELECT 1 FROM follows v WHERE v.follower_id = ${viewerId} AND v.followee_id = pr.id)` : sql`FALSE`;
  const rows = await db.execute<FollowEntryRow>(sql`
    SELECT pr.id, pr.display_name, pr.username, pr.avatar_url, ${ts(sql`f.created_at`)} AS since,
      (extract(epoch FROM f.created_at) * 1000000)::bigint::text AS sort_micros, ${viewerFollows} AS viewer_follows
    FROM follows f JOIN profiles pr ON pr.id = ${listed}
    WHERE ${owner} = ${userId} ${position}
    -- NULLS LAST, as the indexes are built (a plain DESC is an order no index provides).
    ORDER BY f.created_at DESC NULLS LAST, ${listed} DESC NULLS LAST
    ${limitOf(limit)}`);
  return [...rows];
}
