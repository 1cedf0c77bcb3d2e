import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '@tribuna/drizzle/client';

// The admin audit log as read by the Auditoría screen (written by ../audit.ts recordAudit).

const ts = (column: SQL) => sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

export interface AuditFilter {
  adminId?: string | undefined;
  action?: string | undefined;
  /** Inclusive days (YYYY-MM-DD, already checked) in `timeZone`. */
  from?: string | undefined;
  to?: string | undefined;
  timeZone: string;
  /** Entries older than this id (the previous page's last). */
  beforeId?: string | undefined;
}

export type AuditDbRow = {
  id: string;
  admin_id: string | null;
  admin_display_name: string | null;
  action: string;
  entity_type: string;
  entity_id: string | null;
  before: unknown;
  after: unknown;
  created_at: string;
};

/** Newest first by id (the identity grows with time), `limit` rows. */
export async function auditEntries(db: DbOrTx, filter: AuditFilter, limit: number): Promise<AuditDbRow[]> {
  const where: SQL[] = [sql`TRUE`];
  if (filter.adminId) where.push(sql`l.admin_id = ${filter.adminId}`);
  if (filter.action) where.push(sql`l.action = ${filter.action}`);
  // A day in the show's time zone: from its local midnight to the next one.
  if (filter.from) where.push(sql`l.created_at >= (${filter.from}::date)::timestamp AT TIME ZONE ${filter.timeZone}`);
  if (filter.to) where.push(sql`l.created_at < (${filter.to}::date + 1)::timestamp AT TIME ZONE ${filter.timeZone}`);
  if (filter.beforeId) where.push(sql`l.id < ${filter.beforeId}::bigint`);
  const rows = await db.execute<AuditDbRow>(sql`
    SELECT l.id::text AS id, l.admin_id, p.display_name AS admin_display_name, l.action, l.entity_type, l.entity_id,
      l.before, l.after, ${ts(sql`l.created_at`)} AS created_at
    FROM admin_audit_log l
    LEFT JOIN profiles p ON p.id = l.admin_id
    WHERE ${sql.join(where, sql` AND `)}
    ORDER BY l.id DESC
    LIMIT ${limit}`);
  return [...rows];
}

/** The admins that appear in the log, by name. */
export async function auditAdmins(db: DbOrTx): Promise<{ id: string; display_name: string | null }[]> {
  const rows = await db.execute<{ id: string; display_name: string | null }>(sql`
    SELECT p.id, p.display_name FROM profiles p
    WHERE EXISTS (SELECT 1 FROM admin_audit_log l WHERE l.admin_id = p.id)
    ORDER BY lower(p.display_name) NULLS LAST, p.id`);
  return [...rows];
}

/**
 * The actions in the log: a loose index scan over admin_audit_log_action_idx (one index probe per
 * distinct action, however long the log grows).
 */
export async function auditActions(db: DbOrTx): Promise<string[]> {
  const rows = await db.execute<{ action: string }>(sql`
    WITH RECURSIVE actions(action) AS (
      (SELECT action FROM admin_audit_log ORDER BY action LIMIT 1)
      UNION ALL
      SELECT (SELECT l.action FROM admin_audit_log l WHERE l.action > a.action ORDER BY l.action LIMIT 1)
      FROM actions a WHERE a.action IS NOT NULL
    )
    SELECT action FROM actions WHERE action IS NOT NULL`);
  return rows.map((r) => r.action);
}
