import { Type, type Static } from '@sinclair/typebox';
import { IsoDate, SafeText, Uuid } from '../common.ts';
import { defineRoutes } from '../../route.ts';

const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', maxLength: 10 });

/** GET /api/admin/audit: newest first, pages of 50 (keyset), filtered by admin, action and days (SHOW_TIMEZONE, inclusive). */
export const AuditQuery = Type.Object(
  {
    adminId: Type.Optional(Uuid),
    action: Type.Optional(SafeText({ minLength: 1, maxLength: 100 })),
    from: Type.Optional(Day),
    to: Type.Optional(Day),
    cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 40, pattern: '^[0-9]+$' })),
  },
  { additionalProperties: false },
);
export type AuditQuery = Static<typeof AuditQuery>;

export const AuditEntryView = Type.Object({
  id: Type.String(),
  admin: Type.Union([Type.Object({ id: Uuid, displayName: Type.Union([Type.String(), Type.Null()]) }), Type.Null()]),
  action: Type.String(),
  entityType: Type.String(),
  entityId: Type.Union([Type.String(), Type.Null()]),
  before: Type.Unknown(),
  after: Type.Unknown(),
  createdAt: IsoDate,
});
export type AuditEntryView = Static<typeof AuditEntryView>;

export const AuditPage = Type.Object({ items: Type.Array(AuditEntryView), nextCursor: Type.Union([Type.String(), Type.Null()]) });
export type AuditPage = Static<typeof AuditPage>;

/** GET /api/admin/audit/filters: the admins and actions the log holds (for the filter menus). */
export const AuditFilters = Type.Object({
  admins: Type.Array(Type.Object({ id: Uuid, displayName: Type.Union([Type.String(), Type.Null()]) })),
  actions: Type.Array(Type.String()),
});
export type AuditFilters = Static<typeof AuditFilters>;

export const ADMIN_AUDIT_ROUTES = defineRoutes({
  adminAudit: {
    method: 'GET',
    path: '/api/admin/audit',
    status: 200,
    tags: ['admin'],
    summary: "The admins' actions, newest first (pages of 50), by admin, action and days in SHOW_TIMEZONE",
    querystring: AuditQuery,
    response: AuditPage,
    errors: [400, 401, 403, 429],
    rateLimit: 'admin.read',
  },
  adminAuditFilters: {
    method: 'GET',
    path: '/api/admin/audit/filters',
    status: 200,
    tags: ['admin'],
    summary: 'The admins and actions the audit log holds (the filter menus)',
    response: AuditFilters,
    errors: [401, 403, 429],
    rateLimit: 'admin.read',
  },
});
