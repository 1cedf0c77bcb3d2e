import { sql } from 'drizzle-orm';
import type { Tx } from '@tribuna/drizzle/client';
import type { SqlRunner } from '@tribuna/drizzle/pipelined';

export interface AuditEntry {
  /** e.g. 'reality.create', 'season.activate', 'poll.feature', 'poll.delete'. */
  action: string;
  /** 'reality', 'season', 'contestant', 'poll', 'user', … */
  entityType: string;
  entityId: string | null;
  /** The row before the change (null on creation) and after it (null on deletion), as stored. */
  before: unknown;
  after: unknown;
}

/**
 * Records an admin write in the same transaction as the write: if the audit row cannot be
 * written, the change does not commit either. Every admin write calls this (the repository of
 * the admin's audit log is this function; the screen comes with the admin insight issue).
 */
export async function recordAudit(tx: Tx | SqlRunner, adminId: string, entry: AuditEntry): Promise<void> {
  await tx.execute(sql`
    INSERT INTO admin_audit_log (admin_id, action, entity_type, entity_id, before, after)
    VALUES (${adminId}, ${entry.action}, ${entry.entityType}, ${entry.entityId},
      ${entry.before === null || entry.before === undefined ? null : JSON.stringify(entry.before)}::jsonb,
      ${entry.after === null || entry.after === undefined ? null : JSON.stringify(entry.after)}::jsonb)`);
}
