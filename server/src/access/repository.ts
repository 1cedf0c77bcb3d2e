import { sql, type SQL } from 'drizzle-orm';
import type { SqlRunner } from '@tribuna/drizzle/pipelined';
import { readableBy, unblocked, visibleOrOwnModerated, visiblePost } from './predicates.ts';
import type { Viewer } from './viewer.ts';
import type { GroupRole } from '@tribuna/contracts/groupRules';

/** Whether a visible post exists that this viewer may see. */
export async function isPostVisible(db: SqlRunner, postId: string, viewer: Viewer | null): Promise<boolean> {
  const rows = await db.execute(sql`SELECT 1 FROM posts p WHERE p.id = ${postId} AND ${visiblePost(viewer)}`);
  return rows.length > 0;
}

/** isPostVisible, or the viewer's own post hidden by moderation (its page, issue 29). */
export async function isPostPageVisible(db: SqlRunner, postId: string, viewer: Viewer | null): Promise<boolean> {
  const rows = await db.execute(sql`SELECT 1 FROM posts p WHERE p.id = ${postId} AND ${visibleOrOwnModerated(viewer)}`);
  return rows.length > 0;
}

/**
 * Which of `viewers` may see the visible post, and are in no block with `actorId` either way when
 * given (whoever wrote what concerns them: a comment's author): one statement however many they are.
 */
export async function postReaders(db: SqlRunner, postId: string, viewers: Viewer[], actorId?: string): Promise<Set<string>> {
  if (viewers.length === 0) return new Set();
  const input = JSON.stringify(viewers.map((v) => ({ reader: v.id, admin: v.isAdmin })));
  const actor = actorId ? sql` AND ${unblocked(sql`i.reader`, sql`${actorId}::uuid`)}` : sql``;
  const rows = await db.execute<{ reader: string }>(sql`
    SELECT i.reader FROM json_to_recordset(${input}::json) AS i(reader uuid, admin boolean)
    JOIN posts p ON p.id = ${postId} AND NOT p.is_hidden
    WHERE (i.admin OR ${readableBy(sql`i.reader`, sql.raw('p'))})${actor}`);
  return new Set(rows.map((r) => r.reader));
}

/**
 * Which of `readerIds` do not see `author` listed (muted it, or in a block with it either way): one
 * statement, the author's blocks by their indexes, the readers' mutes of it by user_mutes' primary key.
 */
export async function readersHiding(db: SqlRunner, author: { userId: string } | { commentId: string }, readerIds: string[]): Promise<Set<string>> {
  if (readerIds.length === 0) return new Set();
  const ids = `{${readerIds.join(',')}}`;
  const authorId: SQL = 'userId' in author ? sql`${author.userId}::uuid` : sql`(SELECT c.user_id FROM comments c WHERE c.id = ${author.commentId})`;
  const rows = await db.execute<{ id: string }>(sql`
    WITH a AS (SELECT ${authorId} AS id)
    SELECT m.user_id AS id FROM user_mutes m, a WHERE m.muted_id = a.id AND m.user_id = ANY(${ids}::uuid[])
    UNION SELECT b.blocker_id FROM user_blocks b, a WHERE b.blocked_id = a.id AND b.blocker_id = ANY(${ids}::uuid[])
    UNION SELECT b.blocked_id FROM user_blocks b, a WHERE b.blocker_id = a.id AND b.blocked_id = ANY(${ids}::uuid[])`);
  return new Set(rows.map((r) => r.id));
}

/** Whether `a` and `b` are in a block, either way. */
export async function blockedBetween(db: SqlRunner, a: string, b: string): Promise<boolean> {
  const rows = await db.execute(sql`
    SELECT 1 FROM user_blocks WHERE (blocker_id = ${a} AND blocked_id = ${b}) OR (blocker_id = ${b} AND blocked_id = ${a})`);
  return rows.length > 0;
}

/** A profile as `viewerId` stands with it: whether it exists, and the mutes and blocks between them. */
export interface ProfileRelation {
  /** The profile's owner blocked the viewer. */
  blocksViewer: boolean;
  /** The viewer blocked the profile's owner. */
  viewerBlocked: boolean;
  /** The viewer muted the profile's owner. */
  viewerMuted: boolean;
}

export async function profileRelation(db: SqlRunner, userId: string, viewerId: string | null): Promise<ProfileRelation | null> {
  const rows = await db.execute<{ blocks_viewer: boolean; viewer_blocked: boolean; viewer_muted: boolean }>(
    viewerId
      ? sql`SELECT
          EXISTS (SELECT 1 FROM user_blocks b WHERE b.blocker_id = pr.id AND b.blocked_id = ${viewerId}) AS blocks_viewer,
          EXISTS (SELECT 1 FROM user_blocks b WHERE b.blocker_id = ${viewerId} AND b.blocked_id = pr.id) AS viewer_blocked,
          EXISTS (SELECT 1 FROM user_mutes m WHERE m.user_id = ${viewerId} AND m.muted_id = pr.id) AS viewer_muted
        FROM profiles pr WHERE pr.id = ${userId}`
      : sql`SELECT FALSE AS blocks_viewer, FALSE AS viewer_blocked, FALSE AS viewer_muted FROM profiles pr WHERE pr.id = ${userId}`,
  );
  const row = rows[0];
  return row ? { blocksViewer: row.blocks_viewer, viewerBlocked: row.viewer_blocked, viewerMuted: row.viewer_muted } : null;
}

export interface GroupAccess {
  exists: boolean;
  isPublic: boolean;
  isMember: boolean;
  /** The user's role in the group (null: not a member). */
  role: GroupRole | null;
}

export async function groupAccess(db: SqlRunner, groupId: string, userId: string | null): Promise<GroupAccess> {
  const rows = await db.execute<{ privacy: string; role: GroupRole | null }>(sql`
    SELECT g.privacy, ${userId ? sql`(SELECT gm.role FROM group_members gm WHERE gm.group_id = g.id AND gm.user_id = ${userId})` : sql`NULL::text`} AS role
    FROM groups g WHERE g.id = ${groupId}`);
  const row = rows[0];
  return row
    ? { exists: true, isPublic: row.privacy === 'public', isMember: row.role !== null, role: row.role }
    : { exists: false, isPublic: false, isMember: false, role: null };
}
