import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from '@tribuna/drizzle/client';
import type { SqlRunner } from '@tribuna/drizzle/pipelined';
import { feedCounts } from '@tribuna/drizzle/schema/index';
import type { FeedSort, PostVisibility, ReactionType } from '@tribuna/contracts/wallRules';
import {
  byFollowed,
  canSee,
  commentShownTo,
  followingWall,
  listedAuthor,
  unblocked,
  readableBy,
  shownOnProfile,
  groupWallForReaders,
  visibleInGroup,
  visibleOrOwnModerated,
  visiblePost,
} from '../access/predicates.ts';
import type { Viewer } from '../access/viewer.ts';
import { reactionLockKey, xactLock } from '@tribuna/drizzle/locks';
import { limitOf } from '@tribuna/drizzle/literals';

export interface FeedFilters {
  sort: FeedSort;
  userId?: string;
  groupId?: string;
  visibility?: PostVisibility;
  /** The 'Siguiendo' wall of this reader: posts of the people they follow, outside groups. */
  followedBy?: string;
  /** Leave pinned posts out (a group's wall shows them apart, on top: feedPage's pinnedOf). */
  unpinned?: boolean;
  /**
   * A group's wall read for all its readers at once (access/predicates.ts groupWallForReaders): the
   * caller has checked that the viewer may read the group, and reads it without a viewer.
   */
  forGroupReaders?: boolean;
  /**
   * Leave out the authors this reader does not see listed: those they muted or blocked, and those
   * who blocked them (access/predicates.ts listedAuthor; issue 29). Set for a reader who has any
   * (safety/flags.ts) on the walls, never on a profile's posts tab.
   */
  hiddenAuthorsOf?: string;
}

/** A keyset position: the sort key in microseconds since the epoch, and the id breaking ties. */
export interface FeedPosition {
  atMicros: bigint;
  id: string;
}

type AuthorColumns = {
  author_id: string;
  author_display_name: string | null;
  author_username: string | null;
  author_avatar_url: string | null;
};

export interface MediaRow {
  mediaType: 'image' | 'video';
  /** A clip's length in seconds; null for images. */
  durationS: number | null;
  url: string;
  thumbnailUrl: string | null;
  width: number | null;
  height: number | null;
  placeholder: string | null;
  alt: string | null;
}

export type ReactionCountsRow = Partial<Record<ReactionType, number>>;

export type PostRow = AuthorColumns & {
  id: string;
  group_id: string | null;
  group_name: string | null;
  content: string;
  visibility: PostVisibility;
  is_pinned: boolean;
  edited_at: string | null;
  created_at: string;
  last_activity_at: string;
  sort_micros: string;
  media: MediaRow[];
  reactions: ReactionCountsRow;
  my_reaction: ReactionType | null;
  comment_count: number;
  /** Hidden by moderation (only its author, and the moderation queue, read it). */
  hidden_by_moderation: boolean;
};

export type CommentRow = AuthorColumns & {
  id: string;
  post_id: string;
  parent_comment_id: string | null;
  content: string;
  media_url: string | null;
  thumbnail_url: string | null;
  media_width: number | null;
  media_height: number | null;
  media_placeholder: string | null;
  media_alt: string | null;
  edited_at: string | null;
  created_at: string;
  reactions: ReactionCountsRow;
  my_reaction: ReactionType | null;
  /** Hidden by moderation (only its author, and the moderation queue, read it). */
  hidden_by_moderation: boolean;
};

const ts = (column: SQL) => sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * The feed's conditions. With `userId` (a profile's posts tab) the user's posts in groups count
 * too, and anybody but the owner gets only the public ones they may read (the caller passes an
 * admin as a plain reader there: see wall/service.ts getFeed).
 */
function filterSql(filters: Omit<FeedFilters, 'sort'>, viewer: Viewer | null): SQL {
  const { userId, groupId } = filters;
  // A group's wall asks whether the group is readable once, not per post (visibleInGroup).
  const parts: SQL[] = [
    userId
      ? shownOnProfile(userId, viewer)
      : groupId
        ? filters.forGroupReaders
          ? groupWallForReaders(groupId)
          : visibleInGroup(viewer, groupId)
        : visiblePost(viewer),
  ];
  if (userId && groupId) parts.push(sql`p.group_id = ${groupId}`);
  else if (!userId && !groupId) parts.push(sql`p.group_id IS NULL`);
  if (filters.followedBy) parts.push(byFollowed(filters.followedBy));
  if (filters.userId) parts.push(sql`p.user_id = ${filters.userId}`);
  if (filters.visibility) parts.push(sql`p.visibility = ${filters.visibility}`);
  if (filters.unpinned) parts.push(sql`NOT p.is_pinned`);
  if (filters.hiddenAuthorsOf) parts.push(listedAuthor(filters.hiddenAuthorsOf, sql`p.user_id`));
  return sql.join(parts, sql` AND `);
}

const sortColumn = (sort: FeedSort) => (sort === 'recent' ? sql.raw('p.created_at') : sql.raw('p.last_activity_at'));

/**
 * The columns of a post card for the rows of `source` (a CTE or table aliased `p`): author, media in
 * order with their placeholders, reaction counts per type, the viewer's reaction and the comment
 * count, each a subquery on an index: one statement whatever the number of posts.
 */
function cardSelect(viewer: Viewer | null): SQL {
  return sql`
    p.id, p.group_id, p.content, p.visibility, p.is_pinned,
    (SELECT g.name FROM groups g WHERE g.id = p.group_id) AS group_name,
    ${ts(sql`p.edited_at`)} AS edited_at, ${ts(sql`p.created_at`)} AS created_at, ${ts(sql`p.last_activity_at`)} AS last_activity_at,
    pr.id AS author_id, pr.display_name AS author_display_name, pr.username AS author_username, pr.avatar_url AS author_avatar_url,
    (SELECT coalesce(json_agg(json_build_object(
        'mediaType', pm.media_type, 'durationS', m.duration_ms / 1000.0, 'url', pm.url, 'thumbnailUrl', pm.thumbnail_url, 'width', coalesce(m.width, pm.width), 'height', coalesce(m.height, pm.height),
        'placeholder', m.placeholder, 'alt', pm.alt_text) ORDER BY pm."order"), '[]'::json)
      FROM post_media pm LEFT JOIN media m ON m.id = pm.media_id WHERE pm.post_id = p.id) AS media,
    (SELECT coalesce(json_object_agg(r.reaction_type, r.n), '{}'::json) FROM (${summedCounts(POST_REACTIONS, sql`p.id`)}) r) AS reactions,
    ${viewer ? sql`(SELECT reaction_type FROM post_reactions WHERE post_id = p.id AND user_id = ${viewer.id})` : sql`NULL::text`} AS my_reaction,
    (SELECT count(*)::int FROM comments c WHERE c.post_id = p.id AND NOT c.is_hidden) AS comment_count,
    p.moderation_hidden_at IS NOT NULL AS hidden_by_moderation`;
}

/**
 * One page of the feed (limit + 1 rows tell whether there is more), newest sort key first. With
 * `pinnedOf` (a group's wall, first page: the filters leave pinned posts out) the same statement
 * also answers that group's pinned posts the viewer may see (posts_group_pinned_idx; at most
 * GROUP_LIMITS.maxPinned exist), after the page, newest first: the rows with is_pinned.
 */
export async function feedPage(
  db: SqlRunner,
  filters: FeedFilters,
  viewer: Viewer | null,
  after: FeedPosition | null,
  limit: number,
  pinnedOf?: string,
): Promise<PostRow[]> {
  const rows = await db.execute<PostRow>(sql`
    ${pageOf(filters, viewer, after, limit, pinnedOf)}
    SELECT ${cardSelect(viewer)}, p.sort_micros::text AS sort_micros
    FROM page p JOIN profiles pr ON pr.id = p.user_id
    ORDER BY p.sort_micros DESC, p.created_at DESC, p.id DESC`);
  return [...rows];
}

/** The CTE `page` of feedPage and feedEntries: the page's posts (and pinned ones), each with its sort_micros. */
function pageOf(filters: FeedFilters, viewer: Viewer | null, after: FeedPosition | null, limit: number, pinnedOf?: string): SQL {
  const key = sortColumn(filters.sort);
  const position = after
    ? sql`AND (${key}, p.id) < (timestamptz 'epoch' + ${after.atMicros.toString()}::bigint * interval '1 microsecond', ${after.id}::uuid)`
    : sql``;
  const listed = filters.hiddenAuthorsOf ? sql` AND ${listedAuthor(filters.hiddenAuthorsOf, sql`p.user_id`)}` : sql``;
  const pinned = pinnedOf
    ? sql`UNION ALL (SELECT p.*, 0::bigint AS sort_micros FROM posts p WHERE p.is_pinned AND ${filters.forGroupReaders ? groupWallForReaders(pinnedOf) : visibleInGroup(viewer, pinnedOf)}${listed})`
    : sql``;
  return sql`
    WITH page AS (
      (SELECT p.*, (extract(epoch FROM ${key}) * 1000000)::bigint AS sort_micros
      FROM posts p
      WHERE ${filterSql(filters, viewer)} ${position}
      -- NULLS LAST, as the posts_feed_* indexes are built: a plain DESC (NULLS FIRST) is an order no
      -- index provides, and every page would sort the whole wall (the columns are NOT NULL anyway).
      ORDER BY ${key} DESC NULLS LAST, p.id DESC NULLS LAST
      ${limitOf(limit)})
      ${pinned}
    )`;
}

/**
 * feedPage's posts without their cards, for a reader who hides authors on the walls (issue 29:
 * `filters.hiddenAuthorsOf`): each post's id, keyset position and the reader's own reaction, in the
 * page's order (pinned ones last, newest first). The cards are the same for every reader (postCards,
 * shared for a moment by wall/cardCache.ts), as on the 'Siguiendo' wall: the reader's own statement
 * walks the same index as the shared page, with their hidden authors in one hashed subplan.
 */
export async function feedEntries(
  db: SqlRunner,
  filters: FeedFilters,
  readerId: string,
  after: FeedPosition | null,
  limit: number,
  pinnedOf?: string,
): Promise<FollowingEntry[]> {
  const rows = await db.execute<FollowingEntry>(sql`
    ${pageOf(filters, null, after, limit, pinnedOf)}
    SELECT p.id, p.sort_micros::text AS sort_micros,
      (SELECT r.reaction_type FROM post_reactions r WHERE r.post_id = p.id AND r.user_id = ${readerId}) AS my_reaction
    FROM page p
    ORDER BY p.sort_micros DESC, p.created_at DESC, p.id DESC`);
  return [...rows];
}

/** A post of a reader's 'Siguiendo' page: its id, keyset position and the reader's own reaction. */
export type FollowingEntry = {
  id: string;
  sort_micros: string;
  my_reaction: ReactionType | null;
};

/**
 * One page of `readerId`'s 'Siguiendo' wall (limit + 1 entries tell whether there is more), newest
 * sort key first: which posts, not their cards. It walks the public wall's index (posts_feed_*),
 * keeping the posts of people the reader follows (access/predicates.ts followingWall), and
 * answers each post's id, position and the reader's reaction: the cards themselves are the same
 * for every reader (postCards, shared for a moment by wall/cardCache.ts).
 */
export async function followingPage(
  db: SqlRunner,
  readerId: string,
  sort: FeedSort,
  visibility: PostVisibility | undefined,
  after: FeedPosition | null,
  limit: number,
  hideAuthors = false,
): Promise<FollowingEntry[]> {
  const key = sortColumn(sort);
  const position = after
    ? sql`AND (${key}, p.id) < (timestamptz 'epoch' + ${after.atMicros.toString()}::bigint * interval '1 microsecond', ${after.id}::uuid)`
    : sql``;
  const only = visibility ? sql`AND p.visibility = ${visibility}` : sql``;
  const rows = await db.execute<FollowingEntry>(sql`
    SELECT p.id, (extract(epoch FROM ${key}) * 1000000)::bigint::text AS sort_micros,
      (SELECT r.reaction_type FROM post_reactions r WHERE r.post_id = p.id AND r.user_id = ${readerId}) AS my_reaction
    FROM posts p
    WHERE ${followingWall(readerId, sql.raw('p'), { hideAuthors })} ${only} ${position}
    ORDER BY ${key} DESC NULLS LAST, p.id DESC NULLS LAST
    ${limitOf(limit)}`);
  return [...rows];
}

/** How many posts `readerId`'s 'Siguiendo' wall holds, counting up to `upTo`. */
export async function followingTotal(
  db: SqlRunner,
  readerId: string,
  visibility: PostVisibility | undefined,
  upTo: number,
  hideAuthors = false,
): Promise<number> {
  const only = visibility ? sql`AND p.visibility = ${visibility}` : sql``;
  const rows = await db.execute<{ n: number }>(
    sql`SELECT count(*)::int AS n FROM (SELECT 1 FROM posts p WHERE ${followingWall(readerId, sql.raw('p'), { hideAuthors })} ${only} ${limitOf(upTo)}) t`,
  );
  return rows[0]?.n ?? 0;
}

/**
 * The cards of some posts as every reader sees them (no reader's own reaction, `sort_micros` 0), in
 * no particular order. Whether a reader may see them is the caller's question, asked before
 * (followingPage); a post gone since is simply missing.
 */
export async function postCards(db: SqlRunner, postIds: string[]): Promise<PostRow[]> {
  if (postIds.length === 0) return [];
  const rows = await db.execute<PostRow>(sql`
    SELECT ${cardSelect(null)}, '0' AS sort_micros
    FROM posts p JOIN profiles pr ON pr.id = p.user_id
    WHERE p.id = ANY(${`{${postIds.join(',')}}`}::uuid[])`);
  return [...rows];
}

/** The viewer's reactions to some posts (the personal part of a shared feed page). */
export async function myPostReactions(db: SqlRunner, userId: string, postIds: string[]): Promise<Map<string, ReactionType>> {
  if (postIds.length === 0) return new Map();
  const rows = await db.execute<{ post_id: string; reaction_type: ReactionType }>(
    sql`SELECT post_id, reaction_type FROM post_reactions WHERE user_id = ${userId} AND post_id = ANY(${`{${postIds.join(',')}}`}::uuid[])`,
  );
  return new Map(rows.map((r) => [r.post_id, r.reaction_type]));
}

/** How many posts the feed's filters match, for this viewer (counting stops at `upTo` when given). */
export async function feedTotal(db: SqlRunner, filters: Omit<FeedFilters, 'sort'>, viewer: Viewer | null, upTo?: number): Promise<number> {
  const rows = await db.execute<{ n: number }>(
    upTo === undefined
      ? sql`SELECT count(*)::int AS n FROM posts p WHERE ${filterSql(filters, viewer)}`
      : sql`SELECT count(*)::int AS n FROM (SELECT 1 FROM posts p WHERE ${filterSql(filters, viewer)} ${limitOf(upTo)}) t`,
  );
  return rows[0]?.n ?? 0;
}

/** The public wall's size: visible public posts without a group, as the triggers on posts keep it in feed_counts. */
export async function publicFeedCount(db: SqlRunner): Promise<number> {
  const rows = await db.execute<{ n: number }>(sql`SELECT posts::int AS n FROM ${feedCounts} WHERE feed = 'public'`);
  return rows[0]?.n ?? 0;
}

/** One visible post as a card, if this viewer may see it (their own hidden by moderation too: its page). */
export async function findPostCard(db: SqlRunner, postId: string, viewer: Viewer | null): Promise<PostRow | null> {
  const rows = await db.execute<PostRow>(sql`
    SELECT ${cardSelect(viewer)}, '0' AS sort_micros
    FROM posts p JOIN profiles pr ON pr.id = p.user_id
    WHERE p.id = ${postId} AND ${visibleOrOwnModerated(viewer)}`);
  return rows[0] ?? null;
}

export interface OwnedRow {
  userId: string;
  /** The post's group (for a comment, its post's): whose moderators may delete it. */
  groupId: string | null;
  isHidden: boolean;
  /** Whether the viewer may see it (canSee, and for a comment its post too): what they cannot see is not found. */
  visible: boolean;
}

/** Owner and state of a post, and whether `viewer` may see it, locked for the rest of the transaction (edit, delete). */
export async function lockPost(tx: Tx, postId: string, viewer: Viewer): Promise<OwnedRow | null> {
  const rows = await tx.execute<{ user_id: string; group_id: string | null; is_hidden: boolean; visible: boolean }>(
    // A block does not stop an author or a moderator dealing with their item (readableBy's `blocks`).
    sql`SELECT p.user_id, p.group_id, p.is_hidden, ${canSee(viewer, sql.raw('p'), { blocks: false })} AS visible FROM posts p WHERE p.id = ${postId} FOR UPDATE OF p`,
  );
  const row = rows[0];
  return row ? { userId: row.user_id, groupId: row.group_id, isHidden: row.is_hidden, visible: row.visible } : null;
}

export interface NewPost {
  userId: string;
  groupId: string | null;
  content: string;
  visibility: PostVisibility;
}

export interface NewPostMedia {
  mediaType: 'image' | 'video';
  mediaId: string;
  url: string;
  thumbnailUrl: string;
  width: number;
  height: number;
  altText: string | null;
}

export async function insertPost(tx: Tx, post: NewPost, media: NewPostMedia[]): Promise<string> {
  const [row] = await tx.execute<{ id: string }>(sql`
    INSERT INTO posts (user_id, group_id, content, visibility)
    VALUES (${post.userId}, ${post.groupId}, ${post.content}, ${post.visibility}) RETURNING id`);
  const postId = row!.id;
  if (media.length > 0) {
    const values = media.map(
      (m, order) => sql`(${postId}, ${m.mediaType}, ${m.url}, ${m.thumbnailUrl}, ${m.width}, ${m.height}, ${order}, ${m.mediaId}, ${m.altText})`,
    );
    await tx.execute(sql`
      INSERT INTO post_media (post_id, media_type, url, thumbnail_url, width, height, "order", media_id, alt_text)
      VALUES ${sql.join(values, sql`, `)}`);
  }
  return postId;
}

export async function updatePostContent(tx: Tx, postId: string, content: string): Promise<string> {
  const [row] = await tx.execute<{ edited_at: string }>(sql`
    UPDATE posts SET content = ${content}, edited_at = now(), updated_at = now() WHERE id = ${postId}
    RETURNING ${ts(sql`edited_at`)} AS edited_at`);
  return row!.edited_at;
}

/** Soft-deletes a post ('Eliminar': hidden, and no longer its author's to see, even when moderation had hidden it). */
export async function hidePost(tx: Tx, postId: string): Promise<void> {
  await tx.execute(sql`UPDATE posts SET is_hidden = TRUE, moderation_hidden_at = NULL, updated_at = now() WHERE id = ${postId}`);
}

/**
 * Hides a post or a comment by moderation ('Ocultar', issue 29: hidden for everybody but its author)
 * or shows it again ('Restaurar'). Only a visible item is hidden, only a moderation-hidden one
 * restored (never a deleted one); whether anything changed.
 */
export async function setModerationHidden(tx: Tx, table: 'posts' | 'comments', id: string, hidden: boolean, at: Date): Promise<boolean> {
  const rows = await tx.execute<{ id: string }>(
    hidden
      ? sql`UPDATE ${sql.raw(table)} SET is_hidden = TRUE, moderation_hidden_at = ${at.toISOString()}::timestamptz, updated_at = now() WHERE id = ${id} AND NOT is_hidden RETURNING id`
      : sql`UPDATE ${sql.raw(table)} SET is_hidden = FALSE, moderation_hidden_at = NULL, updated_at = now() WHERE id = ${id} AND moderation_hidden_at IS NOT NULL RETURNING id`,
  );
  return rows.length > 0;
}

// --- Video uploads (clips being processed by the worker) ------------------------------------------

export interface NewVideoUpload {
  id: string;
  userId: string;
  groupId: string | null;
  content: string;
  visibility: PostVisibility;
  altText: string | null;
  uploadKey: string;
  bytes: number;
}

export type VideoUploadRow = {
  id: string;
  content: string;
  visibility: PostVisibility;
  group_id: string | null;
  created_at: string;
};

const videoUploadColumns = sql`id, content, visibility, group_id, ${ts(sql`created_at`)} AS created_at`;

/** A clip waiting for the worker ('processing'). */
export async function insertVideoUpload(tx: Tx, upload: NewVideoUpload): Promise<VideoUploadRow> {
  const [row] = await tx.execute<VideoUploadRow>(sql`
    INSERT INTO video_uploads (id, user_id, group_id, content, visibility, alt_text, upload_key, bytes)
    VALUES (${upload.id}, ${upload.userId}, ${upload.groupId}, ${upload.content}, ${upload.visibility}, ${upload.altText}, ${upload.uploadKey}, ${upload.bytes})
    RETURNING ${videoUploadColumns}`);
  return row!;
}

/** A user's clips not published yet (processing or transcoded), newest first. */
export async function listVideoUploads(db: SqlRunner, userId: string, limit: number): Promise<VideoUploadRow[]> {
  const rows = await db.execute<VideoUploadRow>(sql`
    SELECT ${videoUploadColumns} FROM video_uploads
    WHERE user_id = ${userId} ORDER BY created_at DESC, id DESC ${limitOf(limit)}`);
  return [...rows];
}

export interface TranscodedUpload extends Omit<NewVideoUpload, 'bytes'> {
  /** Whether the author was suspended since the upload (the clip is then dropped). */
  authorSuspended: boolean;
  media: { id: string; key: string; thumbKey: string; width: number; height: number };
}

/**
 * A transcoded clip with its media row, locked for the transaction publishing it; null when it is
 * not transcoded, already published, or being published by another instance (SKIP LOCKED: exactly
 * one of the instances hearing the same event gets it, the others go on at once).
 */
export async function lockTranscodedUpload(tx: Tx, uploadId: string): Promise<TranscodedUpload | null> {
  const rows = await tx.execute<{
    id: string;
    user_id: string;
    group_id: string | null;
    content: string;
    visibility: PostVisibility;
    alt_text: string | null;
    upload_key: string;
    is_suspended: boolean;
    media_id: string;
    key: string;
    thumb_key: string;
    width: number;
    height: number;
  }>(sql`
    SELECT v.id, v.user_id, v.group_id, v.content, v.visibility, v.alt_text, v.upload_key, pr.is_suspended,
      m.id AS media_id, m.key, m.thumb_key, m.width, m.height
    FROM video_uploads v JOIN media m ON m.id = v.media_id JOIN profiles pr ON pr.id = v.user_id
    WHERE v.id = ${uploadId} AND v.status = 'transcoded'
    FOR UPDATE OF v SKIP LOCKED`);
  const row = rows[0];
  if (!row) return null;
  return {
    id: row.id,
    userId: row.user_id,
    groupId: row.group_id,
    content: row.content,
    visibility: row.visibility,
    altText: row.alt_text,
    uploadKey: row.upload_key,
    authorSuspended: row.is_suspended,
    media: { id: row.media_id, key: row.key, thumbKey: row.thumb_key, width: row.width, height: row.height },
  };
}

export async function deleteVideoUpload(tx: Tx, uploadId: string): Promise<void> {
  await tx.execute(sql`DELETE FROM video_uploads WHERE id = ${uploadId}`);
}

/**
 * Transcoded clips still unpublished, uploaded more than `olderThanS` seconds ago: their `wall.video`
 * event was lost (an instance publishing one as it arrives only makes the other find no row).
 */
export async function unpublishedTranscodedUploads(db: SqlRunner, olderThanS: number, limit: number): Promise<{ id: string; userId: string }[]> {
  const rows = await db.execute<{ id: string; user_id: string }>(sql`
    SELECT id, user_id FROM video_uploads
    WHERE status = 'transcoded' AND created_at < now() - ${olderThanS}::int * interval '1 second'
    ORDER BY created_at ${limitOf(limit)}`);
  return rows.map((r) => ({ id: r.id, userId: r.user_id }));
}

/**
 * Deletes the uploads still 'processing' past `olderThanS` (their job is long over: retried,
 * failed, or lost with its worker or Redis) and answers whose they were, for their authors to be told.
 */
export async function deleteStuckVideoUploads(db: SqlRunner, olderThanS: number, limit: number): Promise<{ id: string; userId: string; uploadKey: string }[]> {
  const rows = await db.execute<{ id: string; user_id: string; upload_key: string }>(sql`
    DELETE FROM video_uploads WHERE id IN (
      SELECT id FROM video_uploads
      WHERE status = 'processing' AND created_at < now() - ${olderThanS}::int * interval '1 second'
      ORDER BY created_at ${limitOf(limit)} FOR UPDATE SKIP LOCKED)
    RETURNING id, user_id, upload_key`);
  return rows.map((r) => ({ id: r.id, userId: r.user_id, uploadKey: r.upload_key }));
}

// --- Reactions ------------------------------------------------------------------------------------

export type ReactionTarget =
  | { table: 'post_reactions'; counts: 'post_reaction_counts'; column: 'post_id' }
  | { table: 'comment_reactions'; counts: 'comment_reaction_counts'; column: 'comment_id' };
export const POST_REACTIONS: ReactionTarget = { table: 'post_reactions', counts: 'post_reaction_counts', column: 'post_id' };
export const COMMENT_REACTIONS: ReactionTarget = { table: 'comment_reactions', counts: 'comment_reaction_counts', column: 'comment_id' };

/**
 * An item's reactions per type (columns reaction_type, n), from the counters the triggers on the
 * reaction tables keep (migration 0026): the sum of at most types × REACTION_COUNT_SHARDS rows on the
 * primary key, whatever the number of reactions; types whose shards sum to zero are left out, as a
 * count of the reactions leaves them.
 */
function summedCounts(target: ReactionTarget, itemId: SQL): SQL {
  return sql`SELECT reaction_type, sum(reactions)::int AS n FROM ${sql.raw(target.counts)}
    WHERE ${sql.raw(target.column)} = ${itemId} GROUP BY reaction_type HAVING sum(reactions) <> 0`;
}

export interface Tap {
  itemId: string;
  userId: string;
  /** Whether the user holds admin powers (they see every post). */
  isAdmin: boolean;
  type: ReactionType;
}

export interface TapResult {
  /** Whether the user may see the item (visible, not deleted): else nothing was done. */
  allowed: boolean;
  /** The post the item is (on), when allowed. */
  postId: string | null;
  /** The user's reaction to the item after the tap. */
  mine: ReactionType | null;
}

/** Where a tap's item is and who may see it: the post, or the comment and its post (alias p). */
function tapScope(target: ReactionTarget): SQL {
  return target.table === 'post_reactions'
    ? sql`JOIN posts p ON p.id = i.item WHERE NOT p.is_hidden`
    : // Nor a comment of somebody in a block with the reader (issue 29), either way.
      sql`JOIN comments c ON c.id = i.item JOIN posts p ON p.id = c.post_id WHERE NOT c.is_hidden AND NOT p.is_hidden AND ${unblocked(sql`i.reader`, sql`c.user_id`)}`;
}

const tapsJson = (taps: Tap[]) => JSON.stringify(taps.map((t, n) => ({ n, item: t.itemId, reader: t.userId, type: t.type, admin: t.isAdmin })));

/**
 * Locks the (item, user) pairs of a batch of taps, in ascending key order (two batches never
 * deadlock): a tap of another instance on the same pair waits for this transaction to end, so
 * every statement after this one sees all the taps committed before it.
 */
export async function lockTaps(tx: SqlRunner, target: ReactionTarget, taps: Tap[]): Promise<void> {
  const pairs = JSON.stringify(taps.map((t) => ({ item: t.itemId, reader: t.userId })));
  await tx.execute(sql`
    SELECT ${xactLock(sql`ordered.k`)}
    FROM (
      SELECT DISTINCT ${reactionLockKey(sql`${target.table}`, sql`t.item`, sql`t.reader`)} AS k
      FROM json_to_recordset(${pairs}::json) AS t(item uuid, reader uuid)
      ORDER BY k
      OFFSET 0
    ) AS ordered`);
}

/**
 * Applies a batch of taps (at most one per item and user: see GroupCommitQueue's keys) in one
 * statement: each tap whose user may see its item toggles their reaction (the same type again
 * removes it, another type replaces it, else it is added); the others do nothing. The counters
 * move by the statement-level triggers (migration 0026): once per item, shard and type, however
 * many taps the batch holds. Answers one result per tap, in order. Run it after lockTaps.
 */
export async function applyTaps(tx: SqlRunner, target: ReactionTarget, taps: Tap[]): Promise<TapResult[]> {
  const table = sql.raw(target.table);
  const column = sql.raw(target.column);
  const rows = await tx.execute<{ n: number; post_id: string | null; mine: ReactionType | null }>(sql`
    WITH input AS (
      SELECT * FROM json_to_recordset(${tapsJson(taps)}::json) AS t(n int, item uuid, reader uuid, type text, admin boolean)
    ), allowed AS (
      SELECT i.n, i.item, i.reader, i.type, p.id AS post_id FROM input i ${tapScope(target)}
        AND (i.admin OR ${readableBy(sql`i.reader`, sql.raw('p'))})
    ), removed AS (
      DELETE FROM ${table} r USING allowed a
      WHERE r.${column} = a.item AND r.user_id = a.reader AND r.reaction_type = a.type
      RETURNING r.${column} AS item, r.user_id AS reader
    ), upserted AS (
      INSERT INTO ${table} (${column}, user_id, reaction_type)
      SELECT a.item, a.reader, a.type FROM allowed a
      WHERE NOT EXISTS (SELECT 1 FROM removed x WHERE x.item = a.item AND x.reader = a.reader)
      ORDER BY a.item, a.reader
      ON CONFLICT (${column}, user_id) DO UPDATE SET reaction_type = EXCLUDED.reaction_type, created_at = now()
      RETURNING ${column} AS item, user_id AS reader, reaction_type
    )
    SELECT i.n, a.post_id, u.reaction_type AS mine
    FROM input i LEFT JOIN allowed a ON a.n = i.n LEFT JOIN upserted u ON u.item = i.item AND u.reader = i.reader
    ORDER BY i.n`);
  return rows.map((r) => ({ allowed: r.post_id !== null, postId: r.post_id, mine: r.mine }));
}

/** Several items' reactions per type from their counters, by item id (an item without any: absent). */
export async function reactionCountsOf(db: SqlRunner, target: ReactionTarget, itemIds: string[]): Promise<Map<string, ReactionCountsRow>> {
  const byItem = new Map<string, ReactionCountsRow>();
  if (itemIds.length === 0) return byItem;
  const ids = `{${[...new Set(itemIds)].join(',')}}`;
  const rows = await db.execute<{ item: string; reaction_type: ReactionType; n: number }>(sql`
    SELECT ${sql.raw(target.column)}::text AS item, reaction_type, sum(reactions)::int AS n FROM ${sql.raw(target.counts)}
    WHERE ${sql.raw(target.column)} = ANY(${ids}::uuid[]) GROUP BY 1, 2 HAVING sum(reactions) <> 0`);
  for (const r of rows) {
    const counts = byItem.get(r.item) ?? {};
    counts[r.reaction_type] = r.n;
    byItem.set(r.item, counts);
  }
  return byItem;
}

// --- Comments -------------------------------------------------------------------------------------

const commentSelect = (viewer: Viewer | null) => sql`
  c.id, c.post_id, c.parent_comment_id, c.content, c.media_url, c.thumbnail_url, c.media_alt,
  m.width AS media_width, m.height AS media_height, m.placeholder AS media_placeholder,
  ${ts(sql`c.edited_at`)} AS edited_at, ${ts(sql`c.created_at`)} AS created_at,
  pr.id AS author_id, pr.display_name AS author_display_name, pr.username AS author_username, pr.avatar_url AS author_avatar_url,
  (SELECT coalesce(json_object_agg(r.reaction_type, r.n), '{}'::json) FROM (${summedCounts(COMMENT_REACTIONS, sql`c.id`)}) r) AS reactions,
  ${viewer ? sql`(SELECT reaction_type FROM comment_reactions WHERE comment_id = c.id AND user_id = ${viewer.id})` : sql`NULL::text`} AS my_reaction,
  c.moderation_hidden_at IS NOT NULL AS hidden_by_moderation`;

/**
 * The first `limit` visible top-level comments of a post (oldest first) and their visible replies,
 * with authors, images and reactions: one statement. The viewer's own comments hidden by
 * moderation are in it too (commentShownTo), marked so.
 */
export async function listComments(db: SqlRunner, postId: string, viewer: Viewer | null, limit: number): Promise<CommentRow[]> {
  // The comments of people the viewer muted or is in a block with are left out (issue 29), and the
  // replies to them with them (a thread without its start is not shown).
  const listed = (alias: SQL) => (viewer ? sql` AND ${listedAuthor(viewer.id, sql`${alias}.user_id`)}` : sql``);
  const rows = await db.execute<CommentRow>(sql`
    WITH top AS (
      SELECT c.id FROM comments c
      WHERE c.post_id = ${postId} AND c.parent_comment_id IS NULL AND ${commentShownTo(viewer)}${listed(sql.raw('c'))}
      ORDER BY c.created_at, c.id ${limitOf(limit)}
    ), thread AS (
      SELECT id FROM top
      UNION ALL
      SELECT r.id FROM comments r JOIN top ON r.parent_comment_id = top.id WHERE ${commentShownTo(viewer, sql.raw('r'))}${listed(sql.raw('r'))}
    )
    SELECT ${commentSelect(viewer)}
    FROM thread t JOIN comments c ON c.id = t.id JOIN profiles pr ON pr.id = c.user_id LEFT JOIN media m ON m.id = c.media_id
    ORDER BY c.created_at, c.id`);
  return [...rows];
}

export async function findComment(db: SqlRunner, commentId: string, viewer: Viewer | null): Promise<CommentRow | null> {
  const rows = await db.execute<CommentRow>(sql`
    SELECT ${commentSelect(viewer)}
    FROM comments c JOIN profiles pr ON pr.id = c.user_id LEFT JOIN media m ON m.id = c.media_id
    WHERE c.id = ${commentId}`);
  return rows[0] ?? null;
}

/** Some comments as every reader would see them (no reader's reaction), whatever their state: the moderation queue. */
export async function commentsByIds(db: SqlRunner, commentIds: string[]): Promise<CommentRow[]> {
  if (commentIds.length === 0) return [];
  const rows = await db.execute<CommentRow>(sql`
    SELECT ${commentSelect(null)}
    FROM comments c JOIN profiles pr ON pr.id = c.user_id LEFT JOIN media m ON m.id = c.media_id
    WHERE c.id = ANY(${`{${commentIds.join(',')}}`}::uuid[])`);
  return [...rows];
}

export async function visibleCommentCount(db: SqlRunner, postId: string): Promise<number> {
  const rows = await db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM comments WHERE post_id = ${postId} AND NOT is_hidden`);
  return rows[0]?.n ?? 0;
}

export interface CommentTarget {
  id: string;
  postId: string;
  userId: string;
  parentCommentId: string | null;
  isHidden: boolean;
}

/**
 * A comment with its owner and post, and whether `viewer` may see it (its post visible to them and
 * not hidden), locked for the rest of the transaction (edit, delete).
 */
export async function lockComment(tx: Tx, commentId: string, viewer: Viewer): Promise<(CommentTarget & { groupId: string | null; visible: boolean }) | null> {
  const rows = await tx.execute<{
    id: string;
    post_id: string;
    user_id: string;
    parent_comment_id: string | null;
    group_id: string | null;
    is_hidden: boolean;
    visible: boolean;
  }>(
    sql`SELECT c.id, c.post_id, c.user_id, c.parent_comment_id, p.group_id, c.is_hidden, (${visiblePost(viewer, sql.raw('p'), { blocks: false })}) AS visible
      FROM comments c JOIN posts p ON p.id = c.post_id WHERE c.id = ${commentId} FOR UPDATE OF c`,
  );
  const row = rows[0];
  return row
    ? {
        id: row.id,
        postId: row.post_id,
        userId: row.user_id,
        parentCommentId: row.parent_comment_id,
        groupId: row.group_id,
        isHidden: row.is_hidden,
        visible: row.visible,
      }
    : null;
}

export async function findCommentTarget(db: SqlRunner, commentId: string): Promise<CommentTarget | null> {
  const rows = await db.execute<{ id: string; post_id: string; user_id: string; parent_comment_id: string | null; is_hidden: boolean }>(
    sql`SELECT id, post_id, user_id, parent_comment_id, is_hidden FROM comments WHERE id = ${commentId}`,
  );
  const row = rows[0];
  return row ? { id: row.id, postId: row.post_id, userId: row.user_id, parentCommentId: row.parent_comment_id, isHidden: row.is_hidden } : null;
}

export interface NewComment {
  postId: string;
  userId: string;
  parentCommentId: string | null;
  content: string;
  media: { mediaId: string; url: string; thumbnailUrl: string; alt: string | null } | null;
}

/** Inserts a comment and moves its post's activity time (the feed's activity order). */
export async function insertComment(tx: Tx, comment: NewComment): Promise<string> {
  const m = comment.media;
  const [row] = await tx.execute<{ id: string }>(sql`
    INSERT INTO comments (post_id, user_id, parent_comment_id, content, media_url, media_type, thumbnail_url, media_id, media_alt)
    VALUES (${comment.postId}, ${comment.userId}, ${comment.parentCommentId}, ${comment.content},
      ${m?.url ?? null}, ${m ? 'image' : null}, ${m?.thumbnailUrl ?? null}, ${m?.mediaId ?? null}, ${m?.alt ?? null})
    RETURNING id`);
  await tx.execute(sql`UPDATE posts SET last_activity_at = greatest(last_activity_at, now()) WHERE id = ${comment.postId}`);
  return row!.id;
}

export async function updateCommentContent(tx: Tx, commentId: string, content: string): Promise<string> {
  const [row] = await tx.execute<{ edited_at: string }>(sql`
    UPDATE comments SET content = ${content}, edited_at = now(), updated_at = now() WHERE id = ${commentId}
    RETURNING ${ts(sql`edited_at`)} AS edited_at`);
  return row!.edited_at;
}

/**
 * Soft-deletes a comment and, for a top-level one, its replies (a thread without its start is not
 * shown); those hidden by moderation are then deleted too (no longer their authors' to see).
 */
export async function hideComment(tx: Tx, commentId: string): Promise<void> {
  await tx.execute(sql`
    UPDATE comments SET is_hidden = TRUE, moderation_hidden_at = NULL, updated_at = now()
    WHERE (id = ${commentId} OR parent_comment_id = ${commentId}) AND (NOT is_hidden OR moderation_hidden_at IS NOT NULL)`);
}
