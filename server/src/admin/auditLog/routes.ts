import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ADMIN_AUDIT_ROUTES } from '@tribuna/contracts/api/admin/audit';
import { serve } from '../../http/serve.ts';
import * as auditLog from './service.ts';

/** /api/admin/audit*: the admin guard runs in the parent context (admin/routes.ts). */
const auditLogRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.database.db;

  serve(app, ADMIN_AUDIT_ROUTES.adminAudit, async (request) => auditLog.auditPage(db, request.query, app.config.showTimezone));

  serve(app, ADMIN_AUDIT_ROUTES.adminAuditFilters, async () => auditLog.auditFilters(db));
};

export default auditLogRoutes;
