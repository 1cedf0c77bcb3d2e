import { sql } from 'drizzle-orm';
import type { SqlRunner } from '@tribuna/drizzle/pipelined';
import { readableBy, visiblePost } from './predicates.ts';
import type { Viewer } from './viewer.ts';
import type { GroupRole } from '@tribuna/contracts/groupRules';

/** Whether a visible post exists that this viewer may see. */
export async function isPostVisible(db: SqlRunner, postId: string, viewer: Viewer | null): Promise<boolean> {
  const rows = await db.execute(sql`SELECT 1 FROM posts p WHERE p.id = ${postId} AND ${visiblePost(viewer)}`);
  return rows.length > 0;
}

/** Which of `viewers` may see the visible post: one statement however many they are. */
export async function postReaders(db: SqlRunner, postId: string, viewers: Viewer[]): Promise<Set<string>> {
  if (viewers.length === 0) return new Set();
  const input = JSON.stringify(viewers.map((v) => ({ reader: v.id, admin: v.isAdmin })));
  const rows = await db.execute<{ reader: string }>(sql`
    SELECT i.reader FROM json_to_recordset(${input}::json) AS i(reader uuid, admin boolean)
    JOIN posts p ON p.id = ${postId} AND NOT p.is_hidden
    WHERE i.admin OR ${readableBy(sql`i.reader`, sql.raw('p'))}`);
  return new Set(rows.map((r) => r.reader));
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
