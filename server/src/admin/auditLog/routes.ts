import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AuditFilters, AuditPage, AuditQuery } from '@tribuna/contracts/api/admin/audit';
import { errorResponses } from '../../http/errors.ts';
import * as auditLog from './service.ts';

const tags = ['admin'];

/** /api/admin/audit*: the admin guard runs in the parent context (admin/routes.ts). */
const auditLogRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.database.db;

  app.get(
    '/audit',
    {
      schema: {
        tags,
        summary: "The admins' actions, newest first (pages of 50), by admin, action and days in SHOW_TIMEZONE",
        querystring: AuditQuery,
        response: { 200: AuditPage, ...errorResponses(400, 401, 403, 429) },
      },
      config: { rateLimit: 'admin.read' },
    },
    async (request) => auditLog.auditPage(db, request.query, app.config.showTimezone),
  );

  app.get(
    '/audit/filters',
    {
      schema: {
        tags,
        summary: 'The admins and actions the audit log holds (the filter menus)',
        response: { 200: AuditFilters, ...errorResponses(401, 403, 429) },
      },
      config: { rateLimit: 'admin.read' },
    },
    async () => auditLog.auditFilters(db),
  );
};

export default auditLogRoutes;
