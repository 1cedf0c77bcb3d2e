import { sql, type SQL } from 'drizzle-orm';
import { limitOf } from '@tribuna/drizzle/literals';
import type { SqlRunner } from '@tribuna/drizzle/pipelined';
import type { NotificationType } from '@tribuna/contracts/notificationRules';
import type { ReactionType } from '@tribuna/contracts/wallRules';
import { listedAuthor, readableByAccount } from '../access/predicates.ts';
import type { Viewer } from '../access/viewer.ts';

const ts = (column: SQL) => sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

export interface NewNotification {
  userId: string;
  actorId: string;
  type: NotificationType;
  /** Null only for a follow and a report's outcome. */
  postId: string | null;
  commentId: string | null;
  reactionType: ReactionType | null;
  dedupeKey: string;
  groupKey: string;
}

// --- Reactions ------------------------------------------------------------------------------------

export interface ReactionNotificationChange {
  /** The item's owner, whose notifications changed. */
  userId: string;
  /** 'new': a notification written (or its type changed: latest and unread again); 'removed': one deleted. */
  reason: 'new' | 'removed';
}

const REACTION_ITEMS = {
  post: {
    reactions: sql.raw('post_reactions'),
    column: sql.raw('post_id'),
    owner: sql`JOIN posts o ON o.id = t.item`,
    postId: sql`o.id`,
    commentId: sql`NULL::uuid`,
    tag: 'p',
    type: 'post_reaction',
  },
  comment: {
    reactions: sql.raw('comment_reactions'),
    column: sql.raw('comment_id'),
    owner: sql`JOIN comments o ON o.id = t.item`,
    postId: sql`o.post_id`,
    commentId: sql`o.id`,
    tag: 'c',
    type: 'comment_reaction',
  },
} as const satisfies Record<string, { tag: string; type: NotificationType } & Record<string, unknown>>;

/**
 * Makes the reaction notifications of a batch of (item, actor) pairs match the actors' reactions
 * as they are in this transaction (run it after the taps' statement, in the same transaction: the
 * taps' locks keep every pair still): a reaction present → its notification to the item's owner
 * written, or its type updated (then latest and unread again); absent → deleted. One row per pair,
 * whatever the item's popularity; never to the actor themselves nor to a deleted account. Answers
 * the owners whose notifications changed.
 */
export async function syncReactionNotifications(
  tx: SqlRunner,
  kind: keyof typeof REACTION_ITEMS,
  pairs: { itemId: string; userId: string }[],
): Promise<ReactionNotificationChange[]> {
  if (pairs.length === 0) return [];
  const item = REACTION_ITEMS[kind];
  const json = JSON.stringify(pairs.map((p) => ({ item: p.itemId, actor: p.userId })));
  const groupKey = sql`${`r:${item.tag}:`} || s.item::text`;
  const rows = await tx.execute<{ user_id: string; reason: 'new' | 'removed' }>(sql`
    WITH pairs AS (
      SELECT DISTINCT t.item, t.actor FROM json_to_recordset(${json}::json) AS t(item uuid, actor uuid)
    ), state AS (
      SELECT t.item, t.actor, o.user_id AS owner, ${item.postId} AS post_id, ${item.commentId} AS comment_id,
        (SELECT r.reaction_type FROM ${item.reactions} r WHERE r.${item.column} = t.item AND r.user_id = t.actor) AS reaction,
        -- A lookup per owner (a join let the planner scan every profile, a million on a big site).
        (SELECT pr.deleted_at IS NULL FROM profiles pr WHERE pr.id = o.user_id) AS owner_active
      FROM pairs t ${item.owner}
      WHERE o.user_id <> t.actor
    ), removed AS (
      DELETE FROM notifications n USING state s
      WHERE s.reaction IS NULL AND n.user_id = s.owner AND n.dedupe_key = ${groupKey} || ':' || s.actor::text
      RETURNING n.user_id
    ), written AS (
      INSERT INTO notifications (user_id, actor_id, type, post_id, comment_id, reaction_type, dedupe_key, group_key)
      SELECT s.owner, s.actor, ${item.type}, s.post_id, s.comment_id, s.reaction, ${groupKey} || ':' || s.actor::text, ${groupKey}
      FROM state s
      WHERE s.reaction IS NOT NULL AND s.owner_active
      ORDER BY s.owner, s.item, s.actor
      ON CONFLICT (user_id, dedupe_key) DO UPDATE
        SET reaction_type = EXCLUDED.reaction_type, created_at = now(), read_at = NULL
        WHERE notifications.reaction_type IS DISTINCT FROM EXCLUDED.reaction_type
      RETURNING user_id
    )
    SELECT DISTINCT user_id, 'removed' AS reason FROM removed
    UNION
    SELECT DISTINCT user_id, 'new' AS reason FROM written`);
  return rows.map((r) => ({ userId: r.user_id, reason: r.reason }));
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

// --- Follows --------------------------------------------------------------------------------------

/** The dedupe and group key of the follow notification of `followerId`: one entry per follower. */
export const followKey = (followerId: string) => `f:${followerId}`;

/** The dedupe and group key of a report's outcome (issue 29): one entry per report. */
export const reportOutcomeKey = (reportId: string) => `o:${reportId}`;

/** Removes the follow notification of `followerId` to `followeeId`; its recipient when there was one. */
export async function deleteFollowNotification(db: SqlRunner, followeeId: string, followerId: string): Promise<string[]> {
  const rows = await db.execute<{ user_id: string }>(sql`
    DELETE FROM notifications WHERE user_id = ${followeeId} AND dedupe_key = ${followKey(followerId)} RETURNING user_id`);
  return [...new Set(rows.map((r) => r.user_id))];
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
 * The recipient's notifications that may be shown: a follow (no post), or the post (and the
 * comment, when there is one) not hidden, and the post one the recipient may see now (the wall's
 * rule: not a private group they left, say; administrators see every post); never one caused by
 * somebody the recipient muted or is in a block with (issue 29: listed nor counted; they come back
 * with an unmute or unblock), but for a report's outcome, whose actor is a moderator the reporter
 * never sees. `reader` is the recipient as a value where there is one (a hashed subplan over their
 * mutes and blocks instead of probes per notification).
 */
function shownSql(user: SQL, reader: string | SQL = user): SQL {
  return sql`
    SELECT n.* FROM notifications n
    LEFT JOIN posts p ON p.id = n.post_id
    LEFT JOIN comments c ON c.id = n.comment_id
    WHERE n.user_id = ${user}
      AND (n.post_id IS NULL OR (NOT p.is_hidden AND (c.id IS NULL OR NOT c.is_hidden) AND ${readableByAccount(user)}))
      AND (n.type IN ('report_actioned', 'report_dismissed') OR ${listedAuthor(reader, sql`n.actor_id`)})`;
}

/**
 * Entries (groups) with an unread notification that may be shown: the badge of each user, in one
 * statement. Each user's unread group keys are walked one index probe each
 * (notifications_user_unread_idx on user and group key) and each is checked for one shown row:
 * the cost follows the number of entries, not of rows, so the author of a post with a hundred
 * thousand unread reactions pays for one entry.
 */
export async function unreadCounts(db: SqlRunner, userIds: string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  if (userIds.length === 0) return counts;
  const ids = `{${[...new Set(userIds)].join(',')}}`;
  const user = sql.raw('r.id');
  const rows = await db.execute<{ user_id: string; n: number }>(sql`
    SELECT r.id::text AS user_id, c.n FROM unnest(${ids}::uuid[]) AS r(id)
    CROSS JOIN LATERAL (
      WITH RECURSIVE unread AS (
        (SELECT group_key FROM notifications WHERE user_id = ${user} AND read_at IS NULL ORDER BY group_key LIMIT 1)
        UNION ALL
        SELECT (SELECT x.group_key FROM notifications x
                WHERE x.user_id = ${user} AND x.read_at IS NULL AND x.group_key > u.group_key ORDER BY x.group_key LIMIT 1)
        FROM unread u WHERE u.group_key IS NOT NULL
      )
      SELECT count(*)::int AS n FROM unread u
      WHERE u.group_key IS NOT NULL AND EXISTS (${shownSql(user)} AND n.read_at IS NULL AND n.group_key = u.group_key)
    ) c`);
  for (const row of rows) counts.set(row.user_id, row.n);
  return counts;
}

/** One user's badge (see unreadCounts). */
export async function unreadCount(db: SqlRunner, userId: string): Promise<number> {
  return (await unreadCounts(db, [userId])).get(userId) ?? 0;
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
  /** Null for a follow. */
  post_id: string | null;
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
export async function entryPage(db: SqlRunner, userId: string, after: EntryPosition | null, limit: number, excerptLength: number): Promise<EntryRow[]> {
  const position = after
    ? sql`HAVING (max(s.created_at), s.group_key) < (timestamptz 'epoch' + ${after.atMicros.toString()}::bigint * interval '1 microsecond', ${after.groupKey}::text)`
    : sql``;
  const rows = await db.execute<EntryRow>(sql`
    WITH shown AS (${shownSql(sql`${userId}::uuid`, userId)}),
    entries AS (
      SELECT s.group_key, max(s.created_at) AS latest, bool_or(s.read_at IS NULL) AS unread,
        count(DISTINCT s.actor_id)::int AS actors,
        array_agg(DISTINCT s.reaction_type) FILTER (WHERE s.reaction_type IS NOT NULL) AS reaction_types
      FROM shown s
      GROUP BY s.group_key
      ${position}
      ORDER BY latest DESC, s.group_key DESC
      ${limitOf(limit)}
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
    LEFT JOIN posts p ON p.id = l.post_id
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
