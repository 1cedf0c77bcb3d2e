import { sql, type SQL } from 'drizzle-orm';
import { limitOf } from '@tribuna/drizzle/literals';
import type { DbOrTx, Tx } from '@tribuna/drizzle/client';
import type { SqlRunner } from '@tribuna/drizzle/pipelined';
import type { GroupPrivacy, GroupRelation, GroupRole } from '@tribuna/contracts/groupRules';
import { groupCreationLockKey, xactLock } from '@tribuna/drizzle/locks';

// The only SQL of fan clubs: groups, their members, join requests and bans, and the pinned flag of
// their posts. Who may read what is access/'s; this file only reads and writes rows.

const ts = (column: SQL) => sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
const micros = (column: SQL) => sql`(extract(epoch FROM ${column}) * 1000000)::bigint::text`;

/** Lower case without accents (no extension needed): the directory's search compares names so. */
const FOLD_FROM = 'áàäâãéèëêíìïîóòöôõúùüûñç';
const FOLD_TO = 'aaaaaeeeeiiiiooooouuuunc';
const folded = (value: SQL) => sql`translate(lower(${value}), ${FOLD_FROM}, ${FOLD_TO})`;

/** `q` folded like the names, its LIKE wildcards escaped: a partial match anywhere in the name. */
export function namePattern(q: string): string {
  const plain = q
    .toLowerCase()
    .split('')
    .map((c) => {
      const at = FOLD_FROM.indexOf(c);
      return at === -1 ? c : FOLD_TO[at]!;
    })
    .join('');
  return `%${plain.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export type GroupCardRow = {
  id: string;
  name: string;
  description: string | null;
  avatar_url: string | null;
  cover_url: string | null;
  privacy: GroupPrivacy;
  member_count: number;
  relation: GroupRelation;
};

export type GroupDetailRow = GroupCardRow & { created_at: string; pending_requests: number };

/** The viewer's relation to the group `g` (a member's role, a pending request, a ban, or none). */
function relationOf(viewerId: string | null): SQL {
  if (viewerId === null) return sql`'none'`;
  return sql`coalesce(
    (SELECT gm.role FROM group_members gm WHERE gm.group_id = g.id AND gm.user_id = ${viewerId}),
    CASE WHEN EXISTS (SELECT 1 FROM group_bans b WHERE b.group_id = g.id AND b.user_id = ${viewerId}) THEN 'banned'
      WHEN EXISTS (SELECT 1 FROM group_join_requests r WHERE r.group_id = g.id AND r.user_id = ${viewerId}) THEN 'requested'
      ELSE 'none' END)`;
}

const cardColumns = (viewerId: string | null) => sql`
  g.id, g.name, g.description, g.avatar_url, g.cover_url, g.privacy, g.member_count, ${relationOf(viewerId)} AS relation`;

/** The viewer's own groups matching the pattern (if any), most members first; at most `limit`. */
export async function viewerGroups(db: DbOrTx, viewerId: string, pattern: string | null, limit: number): Promise<GroupCardRow[]> {
  const rows = await db.execute<GroupCardRow>(sql`
    SELECT ${cardColumns(viewerId)}
    FROM group_members m JOIN groups g ON g.id = m.group_id
    WHERE m.user_id = ${viewerId} ${pattern ? sql`AND ${folded(sql`g.name`)} LIKE ${pattern}` : sql``}
    ORDER BY g.member_count DESC, g.id DESC
    ${limitOf(limit)}`);
  return [...rows];
}

export interface DirectoryPosition {
  memberCount: number;
  id: string;
}

/** A page of the groups the viewer is not in (every group for a visitor), most members first (groups_directory_idx). */
export async function otherGroups(
  db: DbOrTx,
  viewerId: string | null,
  pattern: string | null,
  after: DirectoryPosition | null,
  limit: number,
): Promise<GroupCardRow[]> {
  const rows = await db.execute<GroupCardRow>(sql`
    SELECT ${cardColumns(viewerId)}
    FROM groups g
    WHERE TRUE
      ${viewerId ? sql`AND NOT EXISTS (SELECT 1 FROM group_members m WHERE m.group_id = g.id AND m.user_id = ${viewerId})` : sql``}
      ${pattern ? sql`AND ${folded(sql`g.name`)} LIKE ${pattern}` : sql``}
      ${after ? sql`AND (g.member_count, g.id) < (${after.memberCount}::int, ${after.id}::uuid)` : sql``}
    ORDER BY g.member_count DESC NULLS LAST, g.id DESC NULLS LAST
    ${limitOf(limit)}`);
  return [...rows];
}

/** A group's header with the viewer's relation and its pending requests; null when there is no such group. */
export async function findGroup(db: DbOrTx, groupId: string, viewerId: string | null): Promise<GroupDetailRow | null> {
  const rows = await db.execute<GroupDetailRow>(sql`
    SELECT ${cardColumns(viewerId)}, ${ts(sql`g.created_at`)} AS created_at,
      (SELECT count(*)::int FROM group_join_requests r WHERE r.group_id = g.id) AS pending_requests
    FROM groups g WHERE g.id = ${groupId}`);
  return rows[0] ?? null;
}

/**
 * Groups `userId` created in the last `hours` (the daily limit: a rolling window), counted after
 * taking their creation lock: of two creations at once, the second counts the first.
 */
export async function lockAndCountRecentCreations(tx: Tx, userId: string, hours: number): Promise<number> {
  await tx.execute(sql`SELECT ${xactLock(groupCreationLockKey(sql`${userId}`))}`);
  const rows = await tx.execute<{ n: number }>(sql`
    SELECT count(*)::int AS n FROM groups WHERE created_by = ${userId} AND created_at > now() - ${hours}::int * interval '1 hour'`);
  return rows[0]?.n ?? 0;
}

export interface GroupFields {
  name: string;
  description: string | null;
  avatarUrl: string | null;
  coverUrl: string | null;
  privacy: GroupPrivacy;
}

/** A new group with its creator as its admin (one statement: the member count's trigger sees the member). */
export async function insertGroup(tx: Tx, creatorId: string, fields: GroupFields): Promise<string> {
  const rows = await tx.execute<{ id: string }>(sql`
    WITH created AS (
      INSERT INTO groups (name, description, avatar_url, cover_url, privacy, created_by)
      VALUES (${fields.name}, ${fields.description}, ${fields.avatarUrl}, ${fields.coverUrl}, ${fields.privacy}, ${creatorId})
      RETURNING id
    ), admin AS (
      INSERT INTO group_members (group_id, user_id, role) SELECT id, ${creatorId}, 'admin' FROM created
    )
    SELECT id FROM created`);
  return rows[0]!.id;
}

export type LockedGroup = GroupFields & { id: string; createdBy: string | null };

/**
 * The group's row, locked until the transaction ends: every change of its members, requests, bans
 * or fields takes this lock first, so two of them never decide on the same state (the last admin).
 */
export async function lockGroup(tx: Tx, groupId: string): Promise<LockedGroup | null> {
  const rows = await tx.execute<{
    id: string;
    name: string;
    description: string | null;
    avatar_url: string | null;
    cover_url: string | null;
    privacy: GroupPrivacy;
    created_by: string | null;
  }>(sql`SELECT id, name, description, avatar_url, cover_url, privacy, created_by FROM groups WHERE id = ${groupId} FOR UPDATE`);
  const row = rows[0];
  return row
    ? {
        id: row.id,
        name: row.name,
        description: row.description,
        avatarUrl: row.avatar_url,
        coverUrl: row.cover_url,
        privacy: row.privacy,
        createdBy: row.created_by,
      }
    : null;
}

export async function updateGroup(tx: Tx, groupId: string, changes: Partial<GroupFields>): Promise<void> {
  const sets: SQL[] = [];
  if (changes.name !== undefined) sets.push(sql`name = ${changes.name}`);
  if (changes.description !== undefined) sets.push(sql`description = ${changes.description}`);
  if (changes.avatarUrl !== undefined) sets.push(sql`avatar_url = ${changes.avatarUrl}`);
  if (changes.coverUrl !== undefined) sets.push(sql`cover_url = ${changes.coverUrl}`);
  if (changes.privacy !== undefined) sets.push(sql`privacy = ${changes.privacy}`);
  if (sets.length === 0) return;
  await tx.execute(sql`UPDATE groups SET ${sql.join(sets, sql`, `)}, updated_at = now() WHERE id = ${groupId}`);
}

/** Deletes the group: its members, requests, bans and posts go with it (ON DELETE CASCADE). */
export async function deleteGroup(tx: Tx, groupId: string): Promise<void> {
  await tx.execute(sql`DELETE FROM groups WHERE id = ${groupId}`);
}

// --- Members ----------------------------------------------------------------------------------

export async function roleOf(db: DbOrTx, groupId: string, userId: string): Promise<GroupRole | null> {
  const rows = await db.execute<{ role: GroupRole }>(sql`SELECT role FROM group_members WHERE group_id = ${groupId} AND user_id = ${userId}`);
  return rows[0]?.role ?? null;
}

export async function adminCount(tx: Tx, groupId: string): Promise<number> {
  const rows = await tx.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM group_members WHERE group_id = ${groupId} AND role = 'admin'`);
  return rows[0]?.n ?? 0;
}

/** Makes `userId` a member (and drops their request, if any). */
export async function addMember(tx: Tx, groupId: string, userId: string): Promise<void> {
  await tx.execute(sql`DELETE FROM group_join_requests WHERE group_id = ${groupId} AND user_id = ${userId}`);
  await tx.execute(sql`INSERT INTO group_members (group_id, user_id, role) VALUES (${groupId}, ${userId}, 'member') ON CONFLICT DO NOTHING`);
}

/** Whether a membership was removed. */
export async function removeMember(tx: Tx, groupId: string, userId: string): Promise<boolean> {
  const rows = await tx.execute(sql`DELETE FROM group_members WHERE group_id = ${groupId} AND user_id = ${userId} RETURNING user_id`);
  return rows.length > 0;
}

export async function setRole(tx: Tx, groupId: string, userId: string, role: GroupRole): Promise<void> {
  await tx.execute(sql`UPDATE group_members SET role = ${role} WHERE group_id = ${groupId} AND user_id = ${userId}`);
}

type PersonColumns = {
  user_id: string;
  display_name: string | null;
  username: string | null;
  avatar_url: string | null;
};

export type MemberRow = PersonColumns & { role: GroupRole; joined_at: string; rank: number; joined_micros: string };

const ROLE_RANK = sql`CASE m.role WHEN 'admin' THEN 0 WHEN 'moderator' THEN 1 ELSE 2 END`;
const person = sql`pr.id AS user_id, pr.display_name, pr.username, pr.avatar_url`;

export interface MemberPosition {
  rank: number;
  joinedMicros: string;
  userId: string;
}

const memberColumns = sql`${person}, m.role, ${ts(sql`m.joined_at`)} AS joined_at, ${ROLE_RANK} AS rank, ${micros(sql`m.joined_at`)} AS joined_micros`;

/** Some members of the group, as the members list shows them. */
export async function membersOf(db: DbOrTx, groupId: string, userIds: string[]): Promise<MemberRow[]> {
  const rows = await db.execute<MemberRow>(sql`
    SELECT ${memberColumns}
    FROM group_members m JOIN profiles pr ON pr.id = m.user_id
    WHERE m.group_id = ${groupId} AND m.user_id = ANY(${`{${userIds.join(',')}}`}::uuid[])`);
  return [...rows];
}

/** A page of members: admins, then moderators, then members, oldest first. */
export async function membersPage(db: DbOrTx, groupId: string, after: MemberPosition | null, limit: number): Promise<MemberRow[]> {
  const rows = await db.execute<MemberRow>(sql`
    SELECT ${memberColumns}
    FROM group_members m JOIN profiles pr ON pr.id = m.user_id
    WHERE m.group_id = ${groupId}
      ${
        after
          ? sql`AND (${ROLE_RANK}, m.joined_at, m.user_id) > (${after.rank}::int, timestamptz 'epoch' + ${after.joinedMicros}::bigint * interval '1 microsecond', ${after.userId}::uuid)`
          : sql``
      }
    ORDER BY rank, m.joined_at, m.user_id
    ${limitOf(limit)}`);
  return [...rows];
}

/** The ids of the group's admins and moderators (who are told of its requests). */
export async function staffIds(db: DbOrTx, groupId: string): Promise<string[]> {
  const rows = await db.execute<{ user_id: string }>(sql`SELECT user_id FROM group_members WHERE group_id = ${groupId} AND role IN ('admin', 'moderator')`);
  return rows.map((r) => r.user_id);
}

/** The ids of every member of the group (those who lose access when it is deleted or turns private). */
export async function memberIds(db: DbOrTx, groupId: string): Promise<string[]> {
  const rows = await db.execute<{ user_id: string }>(sql`SELECT user_id FROM group_members WHERE group_id = ${groupId}`);
  return rows.map((r) => r.user_id);
}

// --- Requests and bans ------------------------------------------------------------------------

export type PersonRow = PersonColumns & { created_at: string; created_micros: string };

export interface ListPosition {
  atMicros: string;
  userId: string;
}

/** Whether a request was recorded (false: one was pending already). */
export async function insertRequest(tx: Tx, groupId: string, userId: string): Promise<boolean> {
  const rows = await tx.execute(
    sql`INSERT INTO group_join_requests (group_id, user_id) VALUES (${groupId}, ${userId}) ON CONFLICT DO NOTHING RETURNING user_id`,
  );
  return rows.length > 0;
}

/** Whether a pending request was deleted. */
export async function deleteRequest(tx: Tx, groupId: string, userId: string): Promise<boolean> {
  const rows = await tx.execute(sql`DELETE FROM group_join_requests WHERE group_id = ${groupId} AND user_id = ${userId} RETURNING user_id`);
  return rows.length > 0;
}

export async function pendingRequests(db: DbOrTx, groupId: string): Promise<number> {
  const rows = await db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM group_join_requests WHERE group_id = ${groupId}`);
  return rows[0]?.n ?? 0;
}

/** Pending requests, oldest first (group_join_requests_group_idx). */
export async function requestsPage(db: DbOrTx, groupId: string, after: ListPosition | null, limit: number): Promise<PersonRow[]> {
  const rows = await db.execute<PersonRow>(sql`
    SELECT ${person}, ${ts(sql`r.created_at`)} AS created_at, ${micros(sql`r.created_at`)} AS created_micros
    FROM group_join_requests r JOIN profiles pr ON pr.id = r.user_id
    WHERE r.group_id = ${groupId}
      ${after ? sql`AND (r.created_at, r.user_id) > (timestamptz 'epoch' + ${after.atMicros}::bigint * interval '1 microsecond', ${after.userId}::uuid)` : sql``}
    ORDER BY r.created_at, r.user_id
    ${limitOf(limit)}`);
  return [...rows];
}

export async function isBanned(db: DbOrTx, groupId: string, userId: string): Promise<boolean> {
  const rows = await db.execute(sql`SELECT 1 FROM group_bans WHERE group_id = ${groupId} AND user_id = ${userId}`);
  return rows.length > 0;
}

/** Bans `userId` (a pending request of theirs goes). */
export async function insertBan(tx: Tx, groupId: string, userId: string, bannedBy: string): Promise<void> {
  await tx.execute(sql`DELETE FROM group_join_requests WHERE group_id = ${groupId} AND user_id = ${userId}`);
  await tx.execute(sql`
    INSERT INTO group_bans (group_id, user_id, banned_by) VALUES (${groupId}, ${userId}, ${bannedBy})
    ON CONFLICT (group_id, user_id) DO UPDATE SET banned_by = EXCLUDED.banned_by, created_at = now()`);
}

/** Whether a ban was lifted. */
export async function deleteBan(tx: Tx, groupId: string, userId: string): Promise<boolean> {
  const rows = await tx.execute(sql`DELETE FROM group_bans WHERE group_id = ${groupId} AND user_id = ${userId} RETURNING user_id`);
  return rows.length > 0;
}

/** Banned fans, newest first. */
export async function bansPage(db: DbOrTx, groupId: string, after: ListPosition | null, limit: number): Promise<PersonRow[]> {
  const rows = await db.execute<PersonRow>(sql`
    SELECT ${person}, ${ts(sql`b.created_at`)} AS created_at, ${micros(sql`b.created_at`)} AS created_micros
    FROM group_bans b JOIN profiles pr ON pr.id = b.user_id
    WHERE b.group_id = ${groupId}
      ${after ? sql`AND (b.created_at, b.user_id) < (timestamptz 'epoch' + ${after.atMicros}::bigint * interval '1 microsecond', ${after.userId}::uuid)` : sql``}
    ORDER BY b.created_at DESC, b.user_id DESC
    ${limitOf(limit)}`);
  return [...rows];
}

// --- Pinned posts -----------------------------------------------------------------------------

export interface PinTarget {
  groupId: string | null;
  isHidden: boolean;
  isPinned: boolean;
}

/** The group of a post (null: none, or no such post); a post never changes group. */
export async function groupOfPost(db: DbOrTx, postId: string): Promise<string | null> {
  const rows = await db.execute<{ group_id: string | null }>(sql`SELECT group_id FROM posts WHERE id = ${postId}`);
  return rows[0]?.group_id ?? null;
}

/** A post's group and flags, locked for the transaction (pinning). */
export async function lockPinTarget(tx: Tx, postId: string): Promise<PinTarget | null> {
  const rows = await tx.execute<{ group_id: string | null; is_hidden: boolean; is_pinned: boolean }>(
    sql`SELECT group_id, is_hidden, is_pinned FROM posts WHERE id = ${postId} FOR UPDATE`,
  );
  const row = rows[0];
  return row ? { groupId: row.group_id, isHidden: row.is_hidden, isPinned: row.is_pinned } : null;
}

/** Visible pinned posts of the group (posts_group_pinned_idx). */
export async function pinnedCount(tx: Tx, groupId: string): Promise<number> {
  const rows = await tx.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM posts WHERE group_id = ${groupId} AND is_pinned AND NOT is_hidden`);
  return rows[0]?.n ?? 0;
}

export async function setPinned(tx: Tx, postId: string, pinned: boolean): Promise<void> {
  await tx.execute(sql`UPDATE posts SET is_pinned = ${pinned} WHERE id = ${postId}`);
}

// --- Live -------------------------------------------------------------------------------------

/** Which of `postIds` (the posts watched on an instance) are of the group, or gone (deleted with it). */
export async function postsOfGroupOrGone(db: SqlRunner, groupId: string, postIds: string[]): Promise<string[]> {
  if (postIds.length === 0) return [];
  const ids = `{${postIds.join(',')}}`;
  const rows = await db.execute<{ id: string }>(sql`
    SELECT i.id::text AS id FROM unnest(${ids}::uuid[]) AS i(id)
    WHERE NOT EXISTS (SELECT 1 FROM posts p WHERE p.id = i.id AND p.group_id IS DISTINCT FROM ${groupId}::uuid)`);
  return rows.map((r) => r.id);
}
