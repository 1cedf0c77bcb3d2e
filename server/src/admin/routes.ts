import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { adminGuard } from '../identity/adminGuard.ts';
import adminUserRoutes from './users/routes.ts';
import catalogRoutes from './catalog/routes.ts';
import adminPollRoutes from './polls/routes.ts';
import dashboardRoutes from './dashboard/routes.ts';
import abuseRoutes from './abuse/routes.ts';
import reportRoutes from './reports/routes.ts';
import auditLogRoutes from './auditLog/routes.ts';
import queueRoutes from './queues/routes.ts';

/**
 * Every back-office route lives in this encapsulated context, registered with the prefix
 * /api/admin. The admin guard is an onRequest hook of the context, so it runs before any of its
 * routes and no route can forget it. Register new admin domains here, without a prefix of their
 * own: their paths are declared in full in the contracts (a sub-prefix would give /api/admin/users
 * and /api/admin/reports, served as the prefix itself, a trailing-slash twin).
 */
const adminRoutes: FastifyPluginAsyncTypebox = async (admin) => {
  admin.addHook('onRequest', adminGuard(admin.config.requireAdminMfa));
  await admin.register(adminUserRoutes);
  await admin.register(catalogRoutes);
  await admin.register(adminPollRoutes);
  await admin.register(dashboardRoutes);
  await admin.register(abuseRoutes);
  await admin.register(reportRoutes);
  await admin.register(auditLogRoutes);
  await admin.register(queueRoutes);
};

export default adminRoutes;
