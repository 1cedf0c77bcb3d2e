import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Dashboard } from '@tribuna/contracts/api/admin/polls';
import { errorResponses } from '../../http/errors.ts';
import { coalesce, DASHBOARD_PUSH_MS } from './live.ts';
import { getDashboard } from './service.ts';

/**
 * GET /api/admin/dashboard, and the live dashboard on the `admin` topic (its handler: admin/topics.ts).
 * While an admin watches on this instance, the dashboard is read again when votes commit here or a
 * poll changes anywhere, and every DASHBOARD_PUSH_MS for what happens elsewhere (votes on other
 * instances, new users, page views), coalesced to at most one read per period; the hub sends it
 * only when it differs. Without a watcher on this instance, `changed` costs nothing.
 */
const dashboardRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.database.db;
  const hub = app.live.hub;
  const pusher = coalesce(() => hub.changed('admin'), DASHBOARD_PUSH_MS);
  const unsubscribe = [app.events.subscribe('votes.committed', pusher.poke), app.events.subscribe('poll.changed', pusher.poke)];
  const timer = setInterval(pusher.poke, DASHBOARD_PUSH_MS);
  timer.unref();
  app.addHook('onClose', async () => {
    clearInterval(timer);
    pusher.stop();
    for (const off of unsubscribe) off();
  });

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
