import type { AuditEntryView, AuditFilters, AuditPage, AuditQuery } from '@tribuna/contracts/api/admin/audit';
import { ADMIN_LIMITS } from '@tribuna/contracts/adminRules';
import type { DbOrTx } from '@tribuna/drizzle/client';
import { badRequest } from '../../http/errors.ts';
import * as audit from './repository.ts';

// GET /api/admin/audit and /api/admin/audit/filters: the Auditoría screen.

export const INVALID_DAY = 'Fecha no válida';
export const INVALID_CURSOR = 'Cursor no válido';

const MAX_BIGINT = 9_223_372_036_854_775_807n;

/** A calendar day that exists (the schema only checks the YYYY-MM-DD shape). */
function checkedDay(day: string | undefined): string | undefined {
  if (day === undefined) return undefined;
  const date = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== day) throw badRequest(INVALID_DAY);
  return day;
}

function checkedCursor(cursor: string | undefined): string | undefined {
  if (cursor === undefined) return undefined;
  if (BigInt(cursor) > MAX_BIGINT) throw badRequest(INVALID_CURSOR);
  return cursor;
}

function present(row: audit.AuditDbRow): AuditEntryView {
  return {
    id: row.id,
    admin: row.admin_id === null ? null : { id: row.admin_id, displayName: row.admin_display_name },
    action: row.action,
    entityType: row.entity_type,
    entityId: row.entity_id,
    before: row.before ?? null,
    after: row.after ?? null,
    createdAt: row.created_at,
  };
}

/** Newest first, pages of 50; `nextCursor` is the page's last id when more entries follow. */
export async function auditPage(db: DbOrTx, query: AuditQuery, timeZone: string): Promise<AuditPage> {
  const pageSize = ADMIN_LIMITS.auditPageSize;
  const rows = await audit.auditEntries(
    db,
    {
      adminId: query.adminId,
      action: query.action,
      from: checkedDay(query.from),
      to: checkedDay(query.to),
      timeZone,
      beforeId: checkedCursor(query.cursor),
    },
    pageSize + 1,
  );
  const items = rows.slice(0, pageSize).map(present);
  return { items, nextCursor: rows.length > pageSize ? items[items.length - 1]!.id : null };
}

export async function auditFilters(db: DbOrTx): Promise<AuditFilters> {
  const [admins, actions] = await Promise.all([audit.auditAdmins(db), audit.auditActions(db)]);
  return { admins: admins.map((a) => ({ id: a.id, displayName: a.display_name })), actions };
}
