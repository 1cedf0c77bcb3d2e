import { sql, type SQL } from 'drizzle-orm';
import { limitOf } from '@tribuna/drizzle/literals';
import type { DbOrTx } from '@tribuna/drizzle/client';
import type { GroupPrivacy, GroupRole } from '@tribuna/contracts/groupRules';
import { groupListedOnProfile, shownOnProfile } from '../../access/predicates.ts';
import type { Viewer } from '../../access/viewer.ts';

// The SQL of a profile's header and tabs (GET /api/profiles/:userId/…). Who may see what is the
// access policy's (access/predicates.ts shownOnProfile): the owner sees all of their posts and
// comments that are not hidden; anybody else (admins included: pass them as plain readers) only
// what sits on public posts they may read, and on followers-only ones when they follow the owner.

const ts = (column: SQL) => sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

export type PublicProfileRow = {
  id: string;
  display_name: string | null;
  username: string | null;
  bio: string | null;
  avatar_url: string | null;
  banner_url: string | null;
  is_deleted: boolean;
  created_at: string;
  followers_count: number;
  following_count: number;
  viewer_follows: boolean;
  /** The viewer muted the profile's owner (issue 29). */
  viewer_muted: boolean;
  /** The viewer blocked the profile's owner. */
  viewer_blocked: boolean;
  /** The profile's owner blocked the viewer: the profile is not found for them. */
  blocks_viewer: boolean;
};

/**
 * A profile, whether its owner deleted the account, its follow counters, and whether `viewerId`
 * follows, muted or blocked it, or is blocked by it (issue 29): one statement, primary-key probes.
 */
export async function findPublicProfile(db: DbOrTx, userId: string, viewerId: string | null): Promise<PublicProfileRow | null> {
  const viewerFollows = viewerId ? sql`EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = ${viewerId} AND f.followee_id = pr.id)` : sql`FALSE`;
  const safety = viewerId
    ? sql`EXISTS (SELECT 1 FROM user_mutes m WHERE m.user_id = ${viewerId} AND m.muted_id = pr.id) AS viewer_muted,
      EXISTS (SELECT 1 FROM user_blocks b WHERE b.blocker_id = ${viewerId} AND b.blocked_id = pr.id) AS viewer_blocked,
      EXISTS (SELECT 1 FROM user_blocks b WHERE b.blocker_id = pr.id AND b.blocked_id = ${viewerId}) AS blocks_viewer`
    : sql`FALSE AS viewer_muted, FALSE AS viewer_blocked, FALSE AS blocks_viewer`;
  const rows = await db.execute<PublicProfileRow>(sql`
    SELECT pr.id, pr.display_name, pr.username, pr.bio, pr.avatar_url, pr.banner_url,
      pr.deleted_at IS NOT NULL AS is_deleted, ${ts(sql`pr.created_at`)} AS created_at,
      pr.followers_count, pr.following_count, ${viewerFollows} AS viewer_follows, ${safety}
    FROM profiles pr WHERE pr.id = ${userId}`);
  return rows[0] ?? null;
}

/** The counters: every vote row, and the posts and comments `viewer` may see (as the tabs list them). */
export async function profileCounts(db: DbOrTx, userId: string, viewer: Viewer | null): Promise<{ votes: number; posts: number; comments: number }> {
  const rows = await db.execute<{ votes: number; posts: number; comments: number }>(sql`
    SELECT
      (SELECT count(*)::int FROM votes v WHERE v.user_id = ${userId}) AS votes,
      (SELECT count(*)::int FROM posts p WHERE p.user_id = ${userId} AND ${shownOnProfile(userId, viewer)}) AS posts,
      (SELECT count(*)::int FROM comments c JOIN posts p ON p.id = c.post_id
        WHERE c.user_id = ${userId} AND NOT c.is_hidden AND ${shownOnProfile(userId, viewer)}) AS comments`);
  return rows[0] ?? { votes: 0, posts: 0, comments: 0 };
}

export type VoteHistoryRow = {
  id: string;
  poll_id: string;
  poll_title: string;
  poll_status: string;
  poll_ended: boolean;
  option_text: string | null;
  option_removed: boolean;
  contestant_name: string | null;
  contestant_photo_url: string | null;
  points: number;
  created_at: string;
};

/** The user's latest vote rows, newest first, with their poll and option (a removed option: flagged). */
export async function voteHistory(db: DbOrTx, userId: string, limit: number): Promise<VoteHistoryRow[]> {
  const rows = await db.execute<VoteHistoryRow>(sql`
    SELECT v.id::text AS id, v.poll_id, pl.title AS poll_title, pl.status AS poll_status,
      (pl.end_date IS NOT NULL AND pl.end_date <= now()) AS poll_ended,
      o.text AS option_text, (o.id IS NULL OR o.removed_at IS NOT NULL) AS option_removed,
      c.full_name AS contestant_name, c.photo_url AS contestant_photo_url,
      v.points, ${ts(sql`v.created_at`)} AS created_at
    FROM votes v
    JOIN polls pl ON pl.id = v.poll_id
    LEFT JOIN poll_options o ON o.id = v.option_id
    LEFT JOIN contestants c ON c.id = o.contestant_id
    WHERE v.user_id = ${userId}
    ORDER BY v.created_at DESC, v.id DESC
    ${limitOf(limit)}`);
  return [...rows];
}

/** A keyset position in a newest-first list: the row's time in microseconds and its id. */
export interface ListPosition {
  atMicros: bigint;
  id: string;
}

export type ProfileCommentRow = {
  id: string;
  content: string;
  parent_comment_id: string | null;
  edited_at: string | null;
  created_at: string;
  sort_micros: string;
  post_id: string;
  post_content: string;
  author_id: string;
  author_display_name: string | null;
  author_username: string | null;
  author_avatar_url: string | null;
};

/** A page of the user's visible comments (limit + 1 rows tell whether there is more), newest first. */
export async function commentsPage(
  db: DbOrTx,
  userId: string,
  viewer: Viewer | null,
  after: ListPosition | null,
  limit: number,
  excerptChars: number,
): Promise<ProfileCommentRow[]> {
  const position = after
    ? sql`AND (c.created_at, c.id) < (timestamptz 'epoch' + ${after.atMicros.toString()}::bigint * interval '1 microsecond', ${after.id}::uuid)`
    : sql``;
  const rows = await db.execute<ProfileCommentRow>(sql`
    SELECT c.id, c.content, c.parent_comment_id, ${ts(sql`c.edited_at`)} AS edited_at, ${ts(sql`c.created_at`)} AS created_at,
      (extract(epoch FROM c.created_at) * 1000000)::bigint::text AS sort_micros,
      p.id AS post_id, left(p.content, ${excerptChars}) AS post_content,
      pr.id AS author_id, pr.display_name AS author_display_name, pr.username AS author_username, pr.avatar_url AS author_avatar_url
    FROM comments c
    JOIN posts p ON p.id = c.post_id
    JOIN profiles pr ON pr.id = p.user_id
    WHERE c.user_id = ${userId} AND NOT c.is_hidden AND ${shownOnProfile(userId, viewer)} ${position}
    ORDER BY c.created_at DESC, c.id DESC
    ${limitOf(limit)}`);
  return [...rows];
}

export type ProfileGroupRow = {
  id: string;
  name: string;
  description: string | null;
  avatar_url: string | null;
  cover_url: string | null;
  privacy: GroupPrivacy;
  role: GroupRole;
  joined_at: string;
};

/** The user's group memberships `viewer` may see listed (access/predicates.ts), newest first. */
export async function memberships(db: DbOrTx, userId: string, viewer: Viewer | null, limit: number): Promise<ProfileGroupRow[]> {
  const rows = await db.execute<ProfileGroupRow>(sql`
    SELECT g.id, g.name, g.description, g.avatar_url, g.cover_url, g.privacy, gm.role, ${ts(sql`gm.joined_at`)} AS joined_at
    FROM group_members gm JOIN groups g ON g.id = gm.group_id
    WHERE gm.user_id = ${userId} AND ${groupListedOnProfile(userId, viewer)}
    ORDER BY gm.joined_at DESC, g.id DESC
    ${limitOf(limit)}`);
  return [...rows];
}
