import type { FastifyBaseLogger } from 'fastify';
import type { NotificationEntry, NotificationPage, NotificationsChanged, NotificationsQuery, UnreadCount } from '@tribuna/contracts/api/notifications';
import { NOTIFICATION_LIMITS, mentionedUsernames, type NotificationType } from '@tribuna/contracts/notificationRules';
import { REACTION_TYPES } from '@tribuna/contracts/wallRules';
import type { SqlRunner } from '@tribuna/drizzle/pipelined';
import { badRequest } from '../http/errors.ts';
import type { AfterCommit } from '../events/bus.ts';
import type { ReactionTaps, WallActivity } from '../wall/activity.ts';
import type { FollowChange } from '../follows/activity.ts';
import type { ReportsResolved } from '../moderation/activity.ts';
import { readersOfPost } from '../access/policy.ts';
import * as repo from './repository.ts';

declare module '../events/bus.ts' {
  interface DomainEvents {
    /**
     * New notifications committed on this instance, by recipient (this instance only): web push
     * wakes the recipients' devices (push/plugin.ts) without the notifications knowing of it.
     */
    'notifications.created': { userIds: string[] };
  }
}

export interface NotificationsContext {
  /** Reads and single statements outside transactions. */
  reader: SqlRunner;
  /**
   * Tells every instance, after commit, that a recipient's notifications changed (the instances
   * where they have a socket read the badge count). Never throws.
   */
  publish(change: NotificationsChanged): Promise<void>;
  /** Tells this instance's other domains, after commit, who got new notifications (`notifications.created`). Never throws. */
  announceCreated(userIds: string[]): Promise<void>;
  log: FastifyBaseLogger;
}

export const NOTIFICATION_CURSOR_MESSAGE = 'Cursor de paginación inválido';

// --- Writing (inside the wall's transactions) -----------------------------------------------------

/**
 * Turns what someone wrote on the wall into notifications, inside the writer's transaction `tx`
 * (the `wall.written` transactional event): they commit with the post or comment, or not at all.
 * Every write is idempotent (dedupe keys). The recipients' badges are told after commit.
 */
export async function onWallWritten(ctx: NotificationsContext, tx: SqlRunner, event: WallActivity): Promise<AfterCommit> {
  const rows =
    event.kind === 'post-written'
      ? await postMentionRows(tx, event.postId, event.actorId, event.content)
      : await commentRows(tx, event.commentId, event.actorId, event.content, event.kind === 'comment-created');
  const recipients = await repo.insertNotifications(tx, rows);
  return () => announceAll(ctx, new Map(recipients.map((userId) => [userId, 'new' as const])));
}

/**
 * The reaction notifications of a batch of taps, written inside the batch's transaction (the
 * `wall.reactions` transactional event): one row per tap, whatever the item's popularity, committed
 * or rolled back with the taps. The owners' badges are told after commit, once per owner and batch.
 */
export async function onReactionTaps(ctx: NotificationsContext, tx: SqlRunner, batch: ReactionTaps): Promise<AfterCommit> {
  const changes = await repo.syncReactionNotifications(tx, batch.kind, batch.taps);
  return async () => {
    const reasons = new Map<string, NotificationsChanged['reason']>();
    // A new notification is the news when the same batch also removed another of the owner's.
    for (const change of changes) if (reasons.get(change.userId) !== 'new') reasons.set(change.userId, change.reason);
    await announceAll(ctx, reasons);
  };
}

/**
 * A follow begun or ended, inside its transaction (the `follows.changed` transactional event):
 * 'X empezó a seguirte' to the followed, one per follower (its dedupe key: following again while
 * it is there writes nothing), removed when the follow ends, as a withdrawn reaction's is. The
 * recipient's badge is told after commit.
 */
export async function onFollowChanged(ctx: NotificationsContext, tx: SqlRunner, change: FollowChange): Promise<AfterCommit> {
  const { followerId, followeeId } = change;
  if (!change.following) {
    const removed = await repo.deleteFollowNotification(tx, followeeId, followerId);
    return () => announceAll(ctx, new Map(removed.map((userId) => [userId, 'removed' as const])));
  }
  const key = repo.followKey(followerId);
  const recipients = await repo.insertNotifications(tx, [
    { userId: followeeId, actorId: followerId, type: 'follow', postId: null, commentId: null, reactionType: null, dedupeKey: key, groupKey: key },
  ]);
  return () => announceAll(ctx, new Map(recipients.map((userId) => [userId, 'new' as const])));
}

/**
 * A moderator's action closed reports, inside its transaction (the `moderation.resolved`
 * transactional event, issue 29): each reporter is told the outcome ('Revisamos tu reporte: tomamos
 * medidas' / '…: no infringe las normas'), one notification per report (its dedupe key), with no
 * post; the moderator is the actor for the record only (never shown: presentEntry). The recipients'
 * badges are told after commit.
 */
export async function onReportsResolved(ctx: NotificationsContext, tx: SqlRunner, resolved: ReportsResolved): Promise<AfterCommit> {
  const type = resolved.outcome === 'actioned' ? 'report_actioned' : 'report_dismissed';
  const rows = resolved.reports
    .filter((report) => report.reporterId !== resolved.moderatorId)
    .map((report): repo.NewNotification => {
      const key = repo.reportOutcomeKey(report.id);
      return {
        userId: report.reporterId,
        actorId: resolved.moderatorId,
        type,
        postId: null,
        commentId: null,
        reactionType: null,
        dedupeKey: key,
        groupKey: key,
      };
    });
  const recipients = await repo.insertNotifications(tx, rows);
  return () => announceAll(ctx, new Map(recipients.map((userId) => [userId, 'new' as const])));
}

/**
 * A comment: 'post_comment' to the post's author, 'comment_reply' to the author of the comment
 * replied to (only that one when they wrote the post too), 'comment_mention' to the others it
 * mentions. Never to the actor. An edit only adds the mentions it brings.
 */
async function commentRows(tx: SqlRunner, commentId: string, actorId: string, content: string, created: boolean): Promise<repo.NewNotification[]> {
  const audience = await repo.commentAudience(tx, commentId);
  if (!audience) return [];
  const { postId, postAuthorId, parentAuthorId } = audience;
  const base = { actorId, postId, commentId, reactionType: null };
  const rows: repo.NewNotification[] = [];
  if (created && parentAuthorId !== null && parentAuthorId !== actorId) {
    rows.push({ ...base, userId: parentAuthorId, type: 'comment_reply', dedupeKey: `y:${commentId}`, groupKey: `y:${commentId}` });
  }
  if (created && postAuthorId !== actorId && postAuthorId !== parentAuthorId) {
    rows.push({ ...base, userId: postAuthorId, type: 'post_comment', dedupeKey: `c:${commentId}`, groupKey: `c:${commentId}` });
  }
  // Those the comment is already about are told of it as such, never as a mention too.
  const concerned = new Set([actorId, postAuthorId, ...(parentAuthorId ? [parentAuthorId] : [])]);
  for (const userId of await mentionRecipients(tx, content, postId, concerned, actorId)) {
    rows.push({ ...base, userId, type: 'comment_mention', dedupeKey: `m:c:${commentId}`, groupKey: `m:c:${commentId}` });
  }
  return rows;
}

async function postMentionRows(tx: SqlRunner, postId: string, actorId: string, content: string): Promise<repo.NewNotification[]> {
  return (await mentionRecipients(tx, content, postId, new Set([actorId]), actorId)).map((userId): repo.NewNotification => ({
    userId,
    actorId,
    type: 'post_mention',
    postId,
    commentId: null,
    reactionType: null,
    dedupeKey: `m:p:${postId}`,
    groupKey: `m:p:${postId}`,
  }));
}

/**
 * The users a text mentions who exist, are not suspended, are not `excluded`, may see the post, and
 * are in no block with the text's writer `actorId`, either way (issue 29: no mention notification
 * between them).
 */
async function mentionRecipients(tx: SqlRunner, content: string, postId: string, excluded: Set<string>, actorId: string): Promise<string[]> {
  const names = mentionedUsernames(content, NOTIFICATION_LIMITS.mentionsPerItem);
  if (names.length === 0) return [];
  const candidates = (await repo.activeProfilesByUsername(tx, names)).filter((viewer) => !excluded.has(viewer.id));
  const readers = await readersOfPost(tx, postId, candidates, actorId);
  return candidates.filter((viewer) => readers.has(viewer.id)).map((viewer) => viewer.id);
}

/**
 * Tells each recipient's tabs and devices that their notifications changed (the count is read where
 * they watch), and, of those with new ones, this instance's other domains (web push: their phones).
 */
async function announceAll(ctx: NotificationsContext, reasons: Map<string, NotificationsChanged['reason']>): Promise<void> {
  const created = [...reasons].filter(([, reason]) => reason === 'new').map(([userId]) => userId);
  await Promise.all([
    ...[...reasons].map(([userId, reason]) => ctx.publish({ userId, reason })),
    ...(created.length > 0 ? [ctx.announceCreated(created)] : []),
  ]);
}

/** The badge counts of several users in one statement (the live badges of an instance's sockets). */
export async function unreadCounts(ctx: NotificationsContext, userIds: string[]): Promise<Map<string, number>> {
  return repo.unreadCounts(ctx.reader, userIds);
}

// --- Reading --------------------------------------------------------------------------------------

const GROUP_KEY = /^[a-z](?::[a-z])?:[0-9a-f-]{36}$/;

/** A list cursor: the last entry's latest activity (microseconds, exact) and its group key, base64url. */
export function encodeNotificationCursor(position: { atMicros: bigint | string; groupKey: string }): string {
  return Buffer.from(`${position.atMicros}.${position.groupKey}`).toString('base64url');
}

export function decodeNotificationCursor(cursor: string): repo.EntryPosition | null {
  const [micros, groupKey, extra] = Buffer.from(cursor, 'base64url').toString('utf8').split('.');
  if (extra !== undefined || !micros || !/^\d{1,17}$/.test(micros) || !groupKey || !GROUP_KEY.test(groupKey)) return null;
  return { atMicros: BigInt(micros), groupKey };
}

/** A report's outcome never names the moderator (issue 29): its entry's actor is nobody's profile. */
export const ANONYMOUS_ACTOR = { id: '00000000-0000-0000-0000-000000000000', displayName: null, username: null, avatarUrl: null } as const;
const ANONYMOUS_TYPES: ReadonlySet<NotificationType> = new Set(['report_actioned', 'report_dismissed']);

function presentEntry(row: repo.EntryRow): NotificationEntry {
  const types = new Set(row.reaction_types ?? []);
  return {
    id: row.group_key,
    type: row.type,
    actor: ANONYMOUS_TYPES.has(row.type)
      ? { ...ANONYMOUS_ACTOR }
      : { id: row.actor_id, displayName: row.actor_display_name, username: row.actor_username, avatarUrl: row.actor_avatar_url },
    othersCount: Math.max(0, row.actors - 1),
    reactionTypes: REACTION_TYPES.filter((t) => types.has(t)),
    postId: row.post_id,
    commentId: row.comment_id,
    excerpt: row.excerpt,
    createdAt: row.created_at,
    read: !row.unread,
  };
}

/** The signed-in user's entries, newest first, 20 a page, with the badge count. Two statements. */
export async function listNotifications(ctx: NotificationsContext, userId: string, query: NotificationsQuery): Promise<NotificationPage> {
  const after = query.cursor ? decodeNotificationCursor(query.cursor) : null;
  if (query.cursor && !after) throw badRequest(NOTIFICATION_CURSOR_MESSAGE);
  const size = NOTIFICATION_LIMITS.pageSize;
  const [rows, unreadCount] = await Promise.all([
    repo.entryPage(ctx.reader, userId, after, size + 1, NOTIFICATION_LIMITS.excerpt),
    repo.unreadCount(ctx.reader, userId),
  ]);
  const page = rows.slice(0, size);
  const last = page.at(-1);
  return {
    items: page.map(presentEntry),
    nextCursor: rows.length > size && last ? encodeNotificationCursor({ atMicros: last.latest_micros, groupKey: last.group_key }) : null,
    unreadCount,
  };
}

export async function getUnreadCount(ctx: NotificationsContext, userId: string): Promise<UnreadCount> {
  return { unreadCount: await repo.unreadCount(ctx.reader, userId) };
}

/** Marks read what the user saw (up to `upTo`, default now); their other tabs hear the new count. */
export async function markRead(ctx: NotificationsContext, userId: string, upTo: string | undefined): Promise<UnreadCount> {
  const changed = await repo.markRead(ctx.reader, userId, upTo ?? null);
  const unreadCount = await repo.unreadCount(ctx.reader, userId);
  if (changed > 0) await ctx.publish({ userId, reason: 'read' });
  return { unreadCount };
}
