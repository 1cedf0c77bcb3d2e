import { sql } from 'drizzle-orm';
import { bigint, check, index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.ts';
import { profiles } from './profiles.ts';

/**
 * Every admin write: who, what, on which row, and the row before and after, written in the same
 * transaction as the change itself (a change without its audit row cannot commit).
 */
export const adminAuditLog = pgTable(
  'admin_audit_log',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    adminId: uuid('admin_id').references(() => profiles.id, { onDelete: 'set null' }),
    /** e.g. 'reality.create', 'season.activate', 'poll.feature', 'user.suspend'. */
    action: text('action').notNull(),
    entityType: text('entity_type').notNull(),
    entityId: text('entity_id'),
    before: jsonb('before'),
    after: jsonb('after'),
    createdAt: createdAt(),
  },
  (t) => [
    check('admin_audit_log_action_len', sql`char_length(${t.action}) BETWEEN 1 AND 100`),
    check('admin_audit_log_entity_type_len', sql`char_length(${t.entityType}) BETWEEN 1 AND 100`),
    index('admin_audit_log_created_idx').on(t.createdAt),
    index('admin_audit_log_admin_idx').on(t.adminId, t.createdAt),
    index('admin_audit_log_entity_idx').on(t.entityType, t.entityId),
    index('admin_audit_log_action_idx').on(t.action, t.createdAt),
  ],
);
