import { sql, type SQL } from 'drizzle-orm';
import type { Viewer } from './viewer.ts';

// Who may see which posts, as SQL conditions on a post row (alias `p` unless given): the one rule
// the feed, the post page, comments, profile tabs, notifications and live topics filter with.
// Repositories of any domain put these in their WHERE clauses; nothing else writes this rule.

/**
 * Whether the post `alias` is one a reader who is not an admin may see: public outside groups or
 * in a public group, a group post of a group they can read, a followers-only post (outside groups)
 * of someone they follow, or their own. `readerId` is a value, a column (a batch of readers), or
 * null for somebody signed out.
 */
export function readableBy(readerId: string | SQL | null, alias: SQL = sql.raw('p')): SQL {
  const groupReadable =
    readerId !== null
      ? sql`EXISTS (SELECT 1 FROM groups g WHERE g.id = ${alias}.group_id AND (g.privacy = 'public' OR EXISTS (SELECT 1 FROM group_members gm WHERE gm.group_id = g.id AND gm.user_id = ${readerId})))`
      : sql`EXISTS (SELECT 1 FROM groups g WHERE g.id = ${alias}.group_id AND g.privacy = 'public')`;
  const own = readerId !== null ? sql` OR ${alias}.user_id = ${readerId}` : sql``;
  // For one reader, the people they follow are read once per statement (an uncorrelated IN: a
  // hashed subplan over their follows). For a column of readers, one probe per (reader, post).
  const followed =
    readerId === null
      ? sql``
      : typeof readerId === 'string'
        ? sql`
    OR (${alias}.visibility = 'followers' AND ${alias}.group_id IS NULL
      AND ${alias}.user_id IN (SELECT f.followee_id FROM follows f WHERE f.follower_id = ${readerId}))`
        : sql`
    OR (${alias}.visibility = 'followers' AND ${alias}.group_id IS NULL
      AND EXISTS (SELECT 1 FROM follows f WHERE f.follower_id = ${readerId} AND f.followee_id = ${alias}.user_id))`;
  return sql`((${alias}.visibility = 'public' AND (${alias}.group_id IS NULL OR ${groupReadable}))
    OR (${alias}.visibility = 'group' AND ${groupReadable})${followed}${own})`;
}

/**
 * A group's wall as every reader of the group sees it (alias `p`): its posts not hidden, public or
 * for the group. Only for a caller that has already asked the policy whether the viewer may read
 * the group (mayReadGroup): the rows are then the same for every such reader, and the wall shares
 * them (wall/pageCache.ts). Followers-only posts are never in a group (refused when written).
 */
export function groupWallForReaders(groupId: string, alias: SQL = sql.raw('p')): SQL {
  return sql`NOT ${alias}.is_hidden AND ${alias}.group_id = ${groupId} AND ${alias}.visibility IN ('public', 'group')`;
}

/**
 * The posts of group `groupId` that `viewer` may see (a group's wall): readableBy's rule for posts of
 * that group (public or group visibility while the group is readable, and one's own; admins every
 * post), with the group's readability asked once per statement (an InitPlan on its id) rather than
 * for every post: a private group's wall of thousands of posts costs one membership probe.
 */
export function visibleInGroup(viewer: Viewer | null, groupId: string, alias: SQL = sql.raw('p')): SQL {
  const inGroup = sql`NOT ${alias}.is_hidden AND ${alias}.group_id = ${groupId}`;
  if (viewer?.isAdmin) return inGroup;
  const readable = viewer
    ? sql`EXISTS (SELECT 1 FROM groups g WHERE g.id = ${groupId} AND (g.privacy = 'public' OR EXISTS (SELECT 1 FROM group_members gm WHERE gm.group_id = g.id AND gm.user_id = ${viewer.id})))`
    : sql`EXISTS (SELECT 1 FROM groups g WHERE g.id = ${groupId} AND g.privacy = 'public')`;
  const own = viewer ? sql` OR ${alias}.user_id = ${viewer.id}` : sql``;
  return sql`${inGroup} AND ((${alias}.visibility IN ('public', 'group') AND ${readable})${own})`;
}

/**
 * Which posts a viewer may see: public ones, their own, and those of a group they may read (every
 * post of a public group, of a private one only for members). Admins see everything.
 */
export function canSee(viewer: Viewer | null, alias: SQL = sql.raw('p')): SQL {
  if (viewer?.isAdmin) return sql`TRUE`;
  return readableBy(viewer?.id ?? null, alias);
}

/** A post still shown (not hidden) that `viewer` may see. */
export function visiblePost(viewer: Viewer | null, alias: SQL = sql.raw('p')): SQL {
  return sql`NOT ${alias}.is_hidden AND ${canSee(viewer, alias)}`;
}

/**
 * The posts of a profile's owner that `viewer` may see there: the owner all of theirs; anybody else
 * (admins included: pass them as plain readers) the PUBLIC ones they may read, and the
 * followers-only ones when they follow the owner (readableBy decides that).
 */
export function shownOnProfile(ownerId: string, viewer: Viewer | null, alias: SQL = sql.raw('p')): SQL {
  const own = viewer?.id === ownerId;
  return sql`${visiblePost(viewer, alias)}${own ? sql`` : sql` AND ${alias}.visibility IN ('public', 'followers')`}`;
}

/**
 * The posts of the people `readerId` follows, outside groups (the 'Siguiendo' wall); what the
 * reader may see of them is visiblePost's.
 */
export function byFollowed(readerId: string, alias: SQL = sql.raw('p')): SQL {
  return sql`${alias}.group_id IS NULL AND ${alias}.user_id IN (SELECT f.followee_id FROM follows f WHERE f.follower_id = ${readerId})`;
}

/**
 * The 'Siguiendo' wall of `readerId` (alias `p`): the shown posts outside groups of the people they
 * follow, public or followers-only. The same rows as visiblePost(reader) AND byFollowed(reader) for
 * any reader, admins included (outside groups a post is public or followers-only, the reader
 * follows its author, and nobody follows themselves), in one hashed subplan over the reader's
 * follows instead of readableBy's branches: the page's own scan (posts_feed_* indexes) stays cheap.
 */
export function followingWall(readerId: string, alias: SQL = sql.raw('p')): SQL {
  return sql`NOT ${alias}.is_hidden AND ${alias}.group_id IS NULL AND ${alias}.visibility IN ('public', 'followers')
    AND ${alias}.user_id IN (SELECT f.followee_id FROM follows f WHERE f.follower_id = ${readerId})`;
}

/**
 * Whether the user `userId` (a value or a column) may see the post `alias` now, reading their own
 * notifications: the reader's rule, or any post for an account with the admin role.
 */
export function readableByAccount(userId: SQL, alias: SQL = sql.raw('p')): SQL {
  return sql`(${readableBy(userId, alias)} OR EXISTS (SELECT 1 FROM profiles me WHERE me.id = ${userId} AND me.role = 'admin'))`;
}

/** The groups of a profile listed to `viewer`: all of them to the owner, the public ones to anybody else (alias `g`). */
export function groupListedOnProfile(ownerId: string, viewer: Viewer | null, alias: SQL = sql.raw('g')): SQL {
  return viewer?.id === ownerId ? sql`TRUE` : sql`${alias}.privacy = 'public'`;
}
