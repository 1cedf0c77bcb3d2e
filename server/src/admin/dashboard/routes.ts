import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Dashboard } from '@tribuna/contracts/api/admin/polls';
import { errorResponses } from '../../http/errors.ts';
import { getDashboard } from './service.ts';

/** GET /api/admin/dashboard; its live twin on the `admin` topic is the admin plugin's (admin/plugin.ts). */
const dashboardRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.database.db;

  app.get(
    '/dashboard',
    {
      schema: {
        tags: ['admin'],
        summary: 'Dashboard: active polls, votes, users and page views of the last 24 h, newest polls and activity',
        response: { 200: Dashboard, ...errorResponses(401, 403, 429) },
      },
      config: { rateLimit: 'admin.read' },
    },
    async () => getDashboard(db),
  );
};

export default dashboardRoutes;
