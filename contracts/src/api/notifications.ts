import { Type, type Static } from '@sinclair/typebox';
import { NOTIFICATION_TYPES } from '../notificationRules.ts';
import { IsoDate, Uuid } from './common.ts';
import { AuthorView, ReactionTypeSchema } from './wall.ts';
import { defineRoutes } from '../route.ts';

export const NotificationTypeSchema = Type.Union(NOTIFICATION_TYPES.map((t) => Type.Literal(t)));

/**
 * One entry of /notificaciones. Reactions to the same post or comment are one entry: `actor` is the
 * latest, `othersCount` the other people, `reactionTypes` the kinds among them. The sentence is
 * notificationText() of notificationRules.ts.
 */
export const NotificationEntry = Type.Object({
  /** Stable per entry (the group), for list keys. */
  id: Type.String({ maxLength: 200 }),
  type: NotificationTypeSchema,
  actor: AuthorView,
  othersCount: Type.Integer({ minimum: 0 }),
  reactionTypes: Type.Array(ReactionTypeSchema),
  /** The post the entry leads to; null for a follow (it leads to the actor's profile). */
  postId: Type.Union([Uuid, Type.Null()]),
  commentId: Type.Union([Uuid, Type.Null()]),
  /** The comment written or reacted to, or the post reacted to, cut to 140 characters. */
  excerpt: Type.Union([Type.String(), Type.Null()]),
  /** The latest activity of the entry. */
  createdAt: IsoDate,
  read: Type.Boolean(),
});
export type NotificationEntry = Static<typeof NotificationEntry>;

export const NotificationsQuery = Type.Object(
  { cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 300, pattern: '^[A-Za-z0-9_-]+$' })) },
  { additionalProperties: false },
);
export type NotificationsQuery = Static<typeof NotificationsQuery>;

/** GET /api/notifications: newest first, pages of 20 entries. */
export const NotificationPage = Type.Object({
  items: Type.Array(NotificationEntry),
  nextCursor: Type.Union([Type.String(), Type.Null()]),
  unreadCount: Type.Integer({ minimum: 0 }),
});
export type NotificationPage = Static<typeof NotificationPage>;

/** GET /api/notifications/unread, and the answer of POST /api/notifications/read: unread entries (the badge). */
export const UnreadCount = Type.Object({ unreadCount: Type.Integer({ minimum: 0 }) });
export type UnreadCount = Static<typeof UnreadCount>;

/** POST /api/notifications/read: marks read everything up to `upTo` (default: now), i.e. what the page showed. */
export const MarkReadInput = Type.Object({ upTo: Type.Optional(IsoDate) }, { additionalProperties: false });
export type MarkReadInput = Static<typeof MarkReadInput>;

/**
 * Live, on `user:{id}` (only that user may watch it): the badge's new count and why it changed
 * ('new' entry or a changed one, 'removed' when a reaction was taken back, 'read' on another tab).
 */
export const NotificationsLiveMessage = Type.Object({
  type: Type.Literal('notifications'),
  topic: Type.String({ pattern: '^user:[0-9a-f-]{36}$' }),
  unreadCount: Type.Integer({ minimum: 0 }),
  reason: Type.Union([Type.Literal('new'), Type.Literal('removed'), Type.Literal('read')]),
});
export type NotificationsLiveMessage = Static<typeof NotificationsLiveMessage>;

/**
 * A recipient's notifications changed (cluster event, after commit): only the instances where the
 * recipient has a socket on `user:{id}` read the new badge count, and only then.
 */
export const NotificationsChanged = Type.Object({
  userId: Type.String({ pattern: '^[0-9a-f-]{36}$' }),
  reason: NotificationsLiveMessage.properties.reason,
});
export type NotificationsChanged = Static<typeof NotificationsChanged>;

export const NOTIFICATION_ROUTES = defineRoutes({
  notifications: {
    method: 'GET',
    path: '/api/notifications',
    status: 200,
    tags: ['notifications'],
    summary: "The signed-in user's notifications, newest first, 20 entries a page (reactions to one item are one entry), keyset cursor",
    querystring: NotificationsQuery,
    response: NotificationPage,
    errors: [400, 401, 429],
    rateLimit: 'notifications.read',
    audience: 'user',
  },
  unreadNotifications: {
    method: 'GET',
    path: '/api/notifications/unread',
    status: 200,
    tags: ['notifications'],
    summary: 'How many entries are unread (the badge)',
    response: UnreadCount,
    errors: [401, 429],
    rateLimit: 'notifications.read',
    audience: 'user',
  },
  markNotificationsRead: {
    method: 'POST',
    path: '/api/notifications/read',
    status: 200,
    tags: ['notifications'],
    summary: "Mark the signed-in user's notifications read up to upTo (default: now); the other tabs hear the new count",
    body: MarkReadInput,
    response: UnreadCount,
    errors: [400, 401, 403, 429],
    rateLimit: 'notifications.mark-read',
    audience: 'user',
  },
});
