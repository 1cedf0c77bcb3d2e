import { sql, type SQL } from 'drizzle-orm';
import type { Viewer } from './viewer.ts';

// Who may see which posts, as SQL conditions on a post row (alias `p` unless given): the one rule
// the feed, the post page, comments, profile tabs, notifications and live topics filter with.
// Repositories of any domain put these in their WHERE clauses; nothing else writes this rule.

// --- Mutes and blocks (issue 29) -------------------------------------------------------------------
//
// 'Bloquear' works both ways and everywhere: a post (and so its comments, reactions, live topic,
// mentions and notifications) of someone in a block with the reader is not readable (readableBy),
// nor a comment written by them, nor their notifications. 'Silenciar' works one way and on lists:
// the walls, comment threads and notifications leave the muted person out; their own profile and a
// post of theirs opened by its address still show (the muter went there on purpose, and the
// profile is where they take the mute back).

/**
 * The people whose posts, comments and notifications `readerId` does not see listed: the ones they
 * muted, the ones they blocked, and the ones who blocked them. An uncorrelated subquery: in
 * `x NOT IN (…)` PostgreSQL reads it once per statement into a hash (a hashed subplan), so a reader
 * with a thousand mutes costs one index range scan per statement, not a probe per row.
 */
function hiddenAuthorsOf(readerId: string): SQL {
  return sql`(SELECT hm.muted_id FROM user_mutes hm WHERE hm.user_id = ${readerId}
    UNION ALL SELECT hb.blocked_id FROM user_blocks hb WHERE hb.blocker_id = ${readerId}
    UNION ALL SELECT hb.blocker_id FROM user_blocks hb WHERE hb.blocked_id = ${readerId})`;
}

/**
 * Whether the person in `column` (an author, an actor) is shown to the reader in lists: not muted by
 * them and in no block with them. `readerId` a value (one hashed subplan per statement) or a column
 * (a batch of readers: primary-key probes per row).
 */
export function listedAuthor(readerId: string | SQL, column: SQL): SQL {
  if (typeof readerId === 'string') return sql`${column} NOT IN ${hiddenAuthorsOf(readerId)}`;
  return sql`(NOT EXISTS (SELECT 1 FROM user_mutes hm WHERE hm.user_id = ${readerId} AND hm.muted_id = ${column}) AND ${unblocked(readerId, column)})`;
}

/**
 * Whether the person in `column` is in no block with the reader, either way. `readerId` a value (a
 * hashed subplan over the reader's blocks, both ways) or a column (primary-key probes per row).
 */
export function unblocked(readerId: string | SQL, column: SQL): SQL {
  if (typeof readerId === 'string') {
    return sql`${column} NOT IN (SELECT ub.blocked_id FROM user_blocks ub WHERE ub.blocker_id = ${readerId}
      UNION ALL SELECT ub.blocker_id FROM user_blocks ub WHERE ub.blocked_id = ${readerId})`;
  }
  return sql`(NOT EXISTS (SELECT 1 FROM user_blocks ub WHERE ub.blocker_id = ${readerId} AND ub.blocked_id = ${column})
    AND NOT EXISTS (SELECT 1 FROM user_blocks ub WHERE ub.blocker_id = ${column} AND ub.blocked_id = ${readerId}))`;
}

/**
 * Whether the post `alias` is one a reader who is not an admin may see: public outside groups or
 * in a public group, a group post of a group they can read, a followers-only post (outside groups)
 * of someone they follow, or their own; never one of somebody in a block with them, either way
 * (unblocked), unless `blocks` is false: an author's or a moderator's own dealings with an item
 * (editing or deleting it) are not a reading. `readerId` is a value, a column (a batch of
 * readers), or null for somebody signed out.
 */
export function readableBy(readerId: string | SQL | null, alias: SQL = sql.raw('p'), { blocks = true }: { blocks?: boolean } = {}): SQL {
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
  const notBlocked = readerId !== null && blocks ? sql` AND ${unblocked(readerId, sql`${alias}.user_id`)}` : sql``;
  return sql`(((${alias}.visibility = 'public' AND (${alias}.group_id IS NULL OR ${groupReadable}))
    OR (${alias}.visibility = 'group' AND ${groupReadable})${followed}${own})${notBlocked})`;
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
export function canSee(viewer: Viewer | null, alias: SQL = sql.raw('p'), options: { blocks?: boolean } = {}): SQL {
  if (viewer?.isAdmin) return sql`TRUE`;
  return readableBy(viewer?.id ?? null, alias, options);
}

/** A post still shown (not hidden) that `viewer` may see. */
export function visiblePost(viewer: Viewer | null, alias: SQL = sql.raw('p'), options: { blocks?: boolean } = {}): SQL {
  return sql`NOT ${alias}.is_hidden AND ${canSee(viewer, alias, options)}`;
}

/**
 * A post `viewer` may see (visiblePost), or their own post hidden by moderation (issue 29), which
 * its author still sees as 'Oculto por moderación' on its page and their profile's posts tab
 * (nobody else does, admins included; walls never show it).
 */
export function visibleOrOwnModerated(viewer: Viewer | null, alias: SQL = sql.raw('p')): SQL {
  if (!viewer) return visiblePost(null, alias);
  return sql`(${visiblePost(viewer, alias)} OR (${alias}.moderation_hidden_at IS NOT NULL AND ${alias}.user_id = ${viewer.id}))`;
}

/**
 * A comment (alias `c`) shown in a thread to `viewer`: not hidden, or their own hidden by
 * moderation (issue 29: 'Oculto por moderación', for its author only).
 */
export function commentShownTo(viewer: Viewer | null, alias: SQL = sql.raw('c')): SQL {
  if (!viewer) return sql`NOT ${alias}.is_hidden`;
  return sql`(NOT ${alias}.is_hidden OR (${alias}.moderation_hidden_at IS NOT NULL AND ${alias}.user_id = ${viewer.id}))`;
}

/**
 * The posts of a profile's owner that `viewer` may see there: the owner all of theirs (those hidden
 * by moderation too, marked so); anybody else (admins included: pass them as plain readers) the
 * PUBLIC ones they may read, and the followers-only ones when they follow the owner (readableBy decides that).
 */
export function shownOnProfile(ownerId: string, viewer: Viewer | null, alias: SQL = sql.raw('p')): SQL {
  const own = viewer?.id === ownerId;
  return own ? visibleOrOwnModerated(viewer, alias) : sql`${visiblePost(viewer, alias)} AND ${alias}.visibility IN ('public', 'followers')`;
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
export function followingWall(readerId: string, alias: SQL = sql.raw('p'), { hideAuthors = false }: { hideAuthors?: boolean } = {}): SQL {
  // A block ends the follows both ways, so only mutes can leave out someone followed; asked only of
  // a reader who has any (`hideAuthors`: safety/flags.ts), the others' statement stays as it was.
  const listed = hideAuthors ? sql` AND ${listedAuthor(readerId, sql`${alias}.user_id`)}` : sql``;
  return sql`NOT ${alias}.is_hidden AND ${alias}.group_id IS NULL AND ${alias}.visibility IN ('public', 'followers')
    AND ${alias}.user_id IN (SELECT f.followee_id FROM follows f WHERE f.follower_id = ${readerId})${listed}`;
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
