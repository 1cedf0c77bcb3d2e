import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ADMIN_POLL_ROUTES } from '@tribuna/contracts/api/admin/polls';
import { serve } from '../../http/serve.ts';
import { getDashboard } from './service.ts';

/** GET /api/admin/dashboard; its live twin on the `admin` topic is the admin plugin's (admin/plugin.ts). */
const dashboardRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.database.db;

  serve(app, ADMIN_POLL_ROUTES.adminDashboard, async () => getDashboard(db));
};

export default dashboardRoutes;
