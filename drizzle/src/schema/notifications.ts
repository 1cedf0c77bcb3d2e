import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { NOTIFICATION_TYPES } from '@tribuna/contracts/notificationRules';
import { createdAt, id, oneOf } from './columns.ts';
import { profiles } from './profiles.ts';
import { comments, posts, REACTION_TYPES } from './wall.ts';

/**
 * What others did with a user's posts and comments (reactions, comments, replies, @mentions).
 * Rows hold ids only, never copied names or text: an actor who deletes their account shows as
 * 'Usuario eliminado' and a hidden post or comment drops out of the list.
 *
 * `dedupeKey` makes every write idempotent (one row per actor and item: a reaction changed from
 * love to haha updates its row, a removed one deletes it); `groupKey` is what the list groups by
 * (all reactions to one item are one entry: 'A Ana y 3 personas más les encanta tu publicación').
 */
export const notifications = pgTable(
  'notifications',
  {
    id: id(),
    /** The recipient. */
    userId: uuid('user_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    actorId: uuid('actor_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    type: text('type', { enum: NOTIFICATION_TYPES }).notNull(),
    /** The post the notification leads to (the post itself, or the one the comment is on); null for a follow and a report's outcome. */
    postId: uuid('post_id').references(() => posts.id, { onDelete: 'cascade' }),
    /** The comment reacted to, the new comment or reply, or the comment with the mention. */
    commentId: uuid('comment_id').references(() => comments.id, { onDelete: 'cascade' }),
    reactionType: text('reaction_type', { enum: REACTION_TYPES }),
    dedupeKey: text('dedupe_key').notNull(),
    groupKey: text('group_key').notNull(),
    createdAt: createdAt(),
    readAt: timestamp('read_at', { withTimezone: true }),
  },
  (t) => [
    check('notifications_type', oneOf(t.type, NOTIFICATION_TYPES)),
    check('notifications_reaction_type', sql`${t.reactionType} IS NULL OR ${oneOf(t.reactionType, REACTION_TYPES)}`),
    check('notifications_post', sql`(${t.type} IN ('follow', 'report_actioned', 'report_dismissed')) = (${t.postId} IS NULL)`),
    check('notifications_not_self', sql`${t.userId} <> ${t.actorId}`),
    uniqueIndex('notifications_dedupe_uq').on(t.userId, t.dedupeKey),
    index('notifications_user_created_idx').on(t.userId, t.createdAt.desc()),
    // The badge counts a user's unread groups by skipping from one group key to the next
    // (notifications/repository.ts unreadCount): a viral post's thousands of reactors are one step.
    index('notifications_user_unread_idx')
      .on(t.userId, t.groupKey)
      .where(sql`${t.readAt} IS NULL`),
    index('notifications_actor_idx').on(t.actorId),
    index('notifications_post_idx').on(t.postId),
    index('notifications_comment_idx').on(t.commentId),
  ],
);
