import { sql } from 'drizzle-orm';
import { check, index, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { MODERATION_ACTIONS, REPORT_REASONS, REPORT_STATUSES, REPORT_TARGETS, SILENCE_DURATIONS } from '@tribuna/contracts/moderationRules';
import { createdAt, id, lengthBetween, oneOf } from './columns.ts';
import { profiles } from './profiles.ts';

/**
 * A fan's report of a post, a comment or a profile (issue 29). `targetId` names the item of
 * `targetType` (no foreign key: three tables); `targetUserId` is its author (the profile itself for a
 * profile report), for the author's history in the queue. One open report per reporter and item
 * (reports_open_uq); a moderator's action on the item closes all of its open reports at once
 * (`status`, `resolvedBy`, `resolvedAt`, `actionId`). The author is never told who reported.
 */
export const reports = pgTable(
  'reports',
  {
    id: id(),
    reporterId: uuid('reporter_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    targetType: text('target_type', { enum: REPORT_TARGETS }).notNull(),
    targetId: uuid('target_id').notNull(),
    targetUserId: uuid('target_user_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    reason: text('reason', { enum: REPORT_REASONS }).notNull(),
    comment: text('comment'),
    status: text('status', { enum: REPORT_STATUSES }).notNull().default('open'),
    createdAt: createdAt(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    resolvedBy: uuid('resolved_by').references(() => profiles.id, { onDelete: 'set null' }),
    /** The action that closed it. */
    actionId: uuid('action_id').references(() => moderationActions.id, { onDelete: 'set null' }),
  },
  (t) => [
    check('reports_target_type', oneOf(t.targetType, REPORT_TARGETS)),
    check('reports_reason', oneOf(t.reason, REPORT_REASONS)),
    check('reports_status', oneOf(t.status, REPORT_STATUSES)),
    check('reports_comment_len', sql`${t.comment} IS NULL OR ${lengthBetween(t.comment, 1, 500)}`),
    check('reports_resolved', sql`(${t.status} = 'open') = (${t.resolvedAt} IS NULL)`),
    uniqueIndex('reports_open_uq')
      .on(t.reporterId, t.targetType, t.targetId)
      .where(sql`${t.status} = 'open'`),
    // The queue: items by status (open first), grouped by item, newest report first.
    index('reports_item_idx').on(t.targetType, t.targetId, t.status),
    index('reports_status_created_idx').on(t.status, t.createdAt.desc()),
    index('reports_target_user_idx').on(t.targetUserId, t.createdAt.desc()),
  ],
);

/**
 * Every moderation action (issue 29), besides its audit-log entry: the author's history in the
 * queue. `targetUserId` is the author of the item acted on (or the profile).
 */
export const moderationActions = pgTable(
  'moderation_actions',
  {
    id: id(),
    moderatorId: uuid('moderator_id').references(() => profiles.id, { onDelete: 'set null' }),
    targetType: text('target_type', { enum: REPORT_TARGETS }).notNull(),
    targetId: uuid('target_id').notNull(),
    targetUserId: uuid('target_user_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    action: text('action', { enum: MODERATION_ACTIONS }).notNull(),
    reason: text('reason'),
    silenceFor: text('silence_for', { enum: SILENCE_DURATIONS }),
    createdAt: createdAt(),
  },
  (t) => [
    check('moderation_actions_target_type', oneOf(t.targetType, REPORT_TARGETS)),
    check('moderation_actions_action', oneOf(t.action, MODERATION_ACTIONS)),
    check('moderation_actions_silence_for', sql`(${t.action} = 'silence') = (${t.silenceFor} IS NOT NULL)`),
    check('moderation_actions_silence_for_value', sql`${t.silenceFor} IS NULL OR ${oneOf(t.silenceFor, SILENCE_DURATIONS)}`),
    index('moderation_actions_target_user_idx').on(t.targetUserId, t.createdAt.desc()),
    index('moderation_actions_item_idx').on(t.targetType, t.targetId, t.createdAt.desc()),
  ],
);

/** 'Silenciar' (issue 29): `userId`'s reads leave out `mutedId`'s posts and comments. One way. */
export const userMutes = pgTable(
  'user_mutes',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    mutedId: uuid('muted_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.mutedId] }),
    check('user_mutes_not_self', sql`${t.userId} <> ${t.mutedId}`),
    index('user_mutes_list_idx').on(t.userId, t.createdAt.desc(), t.mutedId.desc()),
    // Who muted a person: the live comments skip them, an account's deletion finds its mutes.
    index('user_mutes_muted_idx').on(t.mutedId, t.userId),
  ],
);

/** 'Bloquear' (issue 29): both ways, neither sees, comments on, reacts to, mentions or follows the other. */
export const userBlocks = pgTable(
  'user_blocks',
  {
    blockerId: uuid('blocker_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    blockedId: uuid('blocked_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.blockerId, t.blockedId] }),
    check('user_blocks_not_self', sql`${t.blockerId} <> ${t.blockedId}`),
    index('user_blocks_list_idx').on(t.blockerId, t.createdAt.desc(), t.blockedId.desc()),
    index('user_blocks_blocked_idx').on(t.blockedId, t.blockerId),
  ],
);
