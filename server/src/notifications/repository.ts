import { sql, type SQL } from 'drizzle-orm';
import type { Tx } from '@tribuna/drizzle/client';
import type { SqlRunner } from '@tribuna/drizzle/pipelined';
import type { NotificationType } from '@tribuna/contracts/notificationRules';
import type { ReactionType } from '@tribuna/contracts/wallRules';
import { canSee, type Viewer } from '../wall/repository.ts';

export type { Viewer } from '../wall/repository.ts';

const ts = (column: SQL) => sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

export interface NewNotification {
  userId: string;
  actorId: string;
  type: NotificationType;
  postId: string;
  commentId: string | null;
  reactionType: ReactionType | null;
  dedupeKey: string;
  groupKey: string;
}

// --- Reactions ------------------------------------------------------------------------------------

export type ReactionItem = { kind: 'post'; postId: string } | { kind: 'comment'; commentId: string };

export interface ReactionSnapshot {
  ownerId: string;
  postId: string;
  /** The actor's reaction to the item now (null: none). */
  reaction: ReactionType | null;
}

/**
 * The actor's current reaction to a post or comment, and the item's owner, read under the very
 * advisory lock the wall's toggleReaction takes (wall/repository.ts): no tap of that actor on that
 * item can commit between this read and the end of the caller's transaction. Null when the item
 * does not exist (any more).
 */
export async function lockedReaction(tx: Tx, item: ReactionItem, actorId: string): Promise<ReactionSnapshot | null> {
  const [table, targetId] = item.kind === 'post' ? ['post_reactions', item.postId] : ['comment_reactions', item.commentId];
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`${table}:${targetId}:${actorId}`}, 0))`);
  const rows =
    item.kind === 'post'
      ? await tx.execute<{ owner_id: string; post_id: string; reaction: ReactionType | null }>(sql`
          SELECT p.user_id AS owner_id, p.id AS post_id,
            (SELECT r.reaction_type FROM post_reactions r WHERE r.post_id = p.id AND r.user_id = ${actorId}) AS reaction
          FROM posts p WHERE p.id = ${item.postId}`)
      : await tx.execute<{ owner_id: string; post_id: string; reaction: ReactionType | null }>(sql`
          SELECT c.user_id AS owner_id, c.post_id,
            (SELECT r.reaction_type FROM comment_reactions r WHERE r.comment_id = c.id AND r.user_id = ${actorId}) AS reaction
          FROM comments c WHERE c.id = ${item.commentId}`);
  const row = rows[0];
  return row ? { ownerId: row.owner_id, postId: row.post_id, reaction: row.reaction } : null;
}

/**
 * Writes a reaction's notification: a new row, or the existing one with another reaction type
 * (then it counts as new again: latest and unread). Whether anything changed.
 */
export async function upsertReaction(tx: Tx, n: NewNotification): Promise<boolean> {
  const rows = await tx.execute<{ id: string }>(sql`
    INSERT INTO notifications (user_id, actor_id, type, post_id, comment_id, reaction_type, dedupe_key, group_key)
    SELECT ${n.userId}, ${n.actorId}, ${n.type}, ${n.postId}, ${n.commentId}, ${n.reactionType}, ${n.dedupeKey}, ${n.groupKey}
    WHERE EXISTS (SELECT 1 FROM profiles pr WHERE pr.id = ${n.userId} AND pr.deleted_at IS NULL)
    ON CONFLICT (user_id, dedupe_key) DO UPDATE
      SET reaction_type = EXCLUDED.reaction_type, created_at = now(), read_at = NULL
      WHERE notifications.reaction_type IS DISTINCT FROM EXCLUDED.reaction_type
    RETURNING id`);
  return rows.length > 0;
}

/** Deletes one notification by its dedupe key; whether there was one. */
export async function deleteNotification(tx: Tx, userId: string, dedupeKey: string): Promise<boolean> {
  const rows = await tx.execute<{ id: string }>(sql`DELETE FROM notifications WHERE user_id = ${userId} AND dedupe_key = ${dedupeKey} RETURNING id`);
  return rows.length > 0;
}

// --- Comments and mentions ------------------------------------------------------------------------

/** Inserts notifications, skipping those already there (same recipient and dedupe key); the recipients of the new ones. */
export async function insertNotifications(db: SqlRunner, rows: NewNotification[]): Promise<string[]> {
  if (rows.length === 0) return [];
  const values = rows.map(
    (n) => sql`(${n.userId}::uuid, ${n.actorId}::uuid, ${n.type}, ${n.postId}::uuid, ${n.commentId}::uuid, ${n.reactionType}, ${n.dedupeKey}, ${n.groupKey})`,
  );
  const inserted = await db.execute<{ user_id: string }>(sql`
    INSERT INTO notifications (user_id, actor_id, type, post_id, comment_id, reaction_type, dedupe_key, group_key)
    SELECT v.* FROM (VALUES ${sql.join(values, sql`, `)}) AS v (user_id, actor_id, type, post_id, comment_id, reaction_type, dedupe_key, group_key)
    JOIN profiles pr ON pr.id = v.user_id AND pr.deleted_at IS NULL
    ON CONFLICT (user_id, dedupe_key) DO NOTHING
    RETURNING user_id`);
  return [...new Set(inserted.map((r) => r.user_id))];
}

export interface CommentAudience {
  postId: string;
  postAuthorId: string;
  /** The comment replied to and its author (null for a top-level comment). */
  parentCommentId: string | null;
  parentAuthorId: string | null;
}

/** Who a comment concerns: the post's author and, for a reply, the parent comment's author. */
export async function commentAudience(db: SqlRunner, commentId: string): Promise<CommentAudience | null> {
  const rows = await db.execute<{ post_id: string; post_author: string; parent_id: string | null; parent_author: string | null }>(sql`
    SELECT p.id AS post_id, p.user_id AS post_author, parent.id AS parent_id, parent.user_id AS parent_author
    FROM comments c JOIN posts p ON p.id = c.post_id LEFT JOIN comments parent ON parent.id = c.parent_comment_id
    WHERE c.id = ${commentId}`);
  const row = rows[0];
  return row ? { postId: row.post_id, postAuthorId: row.post_author, parentCommentId: row.parent_id, parentAuthorId: row.parent_author } : null;
}

/** The profiles (not suspended: anonymised accounts are suspended too) with these lower-case usernames. */
export async function activeProfilesByUsername(db: SqlRunner, usernames: string[]): Promise<Viewer[]> {
  if (usernames.length === 0) return [];
  const rows = await db.execute<{ id: string; role: string }>(sql`
    SELECT id, role FROM profiles
    WHERE lower(username) = ANY(${`{${usernames.join(',')}}`}::text[]) AND NOT is_suspended`);
  return rows.map((r) => ({ id: r.id, isAdmin: r.role === 'admin' }));
}

// --- Reading --------------------------------------------------------------------------------------

/**
 * The recipient's notifications that may be shown: the post (and the comment, when there is one)
 * not hidden, and the post one the recipient may see now (the wall's rule: not a private group
 * they left, say; administrators see every post).
 */
function shownSql(userId: string): SQL {
  return sql`
    SELECT n.* FROM notifications n
    JOIN posts p ON p.id = n.post_id
    LEFT JOIN comments c ON c.id = n.comment_id
    WHERE n.user_id = ${userId} AND NOT p.is_hidden AND (c.id IS NULL OR NOT c.is_hidden)
      AND (${canSee({ id: userId, isAdmin: false })} OR EXISTS (SELECT 1 FROM profiles me WHERE me.id = ${userId} AND me.role = 'admin'))`;
}

/** Entries (groups) with an unread notification: the badge. */
export async function unreadCount(db: SqlRunner, userId: string): Promise<number> {
  const rows = await db.execute<{ n: number }>(sql`
    SELECT count(DISTINCT s.group_key)::int AS n FROM (${shownSql(userId)} AND n.read_at IS NULL) s`);
  return rows[0]?.n ?? 0;
}

/** A keyset position in the list: the entry's latest activity (microseconds since the epoch) and its group key. */
export interface EntryPosition {
  atMicros: bigint;
  groupKey: string;
}

export type EntryRow = {
  group_key: string;
  latest_micros: string;
  created_at: string;
  unread: boolean;
  actors: number;
  reaction_types: ReactionType[] | null;
  type: NotificationType;
  post_id: string;
  comment_id: string | null;
  actor_id: string;
  actor_display_name: string | null;
  actor_username: string | null;
  actor_avatar_url: string | null;
  excerpt: string | null;
};

/**
 * One page of entries, newest latest activity first: the notifications grouped by group key, each
 * with its latest row's type, post, comment and actor, the number of distinct actors, the reaction
 * types, whether anything in it is unread, and the text it quotes (the comment's, else the post's)
 * cut to `excerptLength` characters. One statement.
 */
export async function entryPage(
  db: SqlRunner,
  userId: string,
  after: EntryPosition | null,
  limit: number,
  excerptLength: number,
): Promise<EntryRow[]> {
  const position = after
    ? sql`HAVING (max(s.created_at), s.group_key) < (timestamptz 'epoch' + ${after.atMicros.toString()}::bigint * interval '1 microsecond', ${after.groupKey}::text)`
    : sql``;
  const rows = await db.execute<EntryRow>(sql`
    WITH shown AS (${shownSql(userId)}),
    entries AS (
      SELECT s.group_key, max(s.created_at) AS latest, bool_or(s.read_at IS NULL) AS unread,
        count(DISTINCT s.actor_id)::int AS actors,
        array_agg(DISTINCT s.reaction_type) FILTER (WHERE s.reaction_type IS NOT NULL) AS reaction_types
      FROM shown s
      GROUP BY s.group_key
      ${position}
      ORDER BY latest DESC, s.group_key DESC
      LIMIT ${limit}
    )
    SELECT e.group_key, (extract(epoch FROM e.latest) * 1000000)::bigint::text AS latest_micros, ${ts(sql`e.latest`)} AS created_at,
      e.unread, e.actors, e.reaction_types,
      l.type, l.post_id, l.comment_id, l.actor_id,
      pr.display_name AS actor_display_name, pr.username AS actor_username, pr.avatar_url AS actor_avatar_url,
      left(coalesce(c.content, p.content), ${excerptLength}) AS excerpt
    FROM entries e
    CROSS JOIN LATERAL (
      SELECT s.type, s.post_id, s.comment_id, s.actor_id FROM shown s WHERE s.group_key = e.group_key
      ORDER BY s.created_at DESC, s.id DESC LIMIT 1
    ) l
    JOIN profiles pr ON pr.id = l.actor_id
    JOIN posts p ON p.id = l.post_id
    LEFT JOIN comments c ON c.id = l.comment_id
    ORDER BY e.latest DESC, e.group_key DESC`);
  return [...rows];
}

/** Marks the user's notifications created up to `upTo` (default: now) read; how many changed. */
export async function markRead(db: SqlRunner, userId: string, upTo: string | null): Promise<number> {
  const rows = await db.execute<{ id: string }>(sql`
    UPDATE notifications SET read_at = now()
    WHERE user_id = ${userId} AND read_at IS NULL AND created_at <= least(coalesce(${upTo}::timestamptz, now()), now())
    RETURNING id`);
  return rows.length;
}
