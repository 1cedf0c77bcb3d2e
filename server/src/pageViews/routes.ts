import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { PAGE_VIEW_ROUTES } from '@tribuna/contracts/api/pageViews';
import { serve } from '../http/serve.ts';
import { recordPageView } from './service.ts';

const pageViewRoutes: FastifyPluginAsyncTypebox = async (app) => {
  serve(
    app,
    PAGE_VIEW_ROUTES.pageView,
    async (request, reply) => {
      await recordPageView(app.database.db, request.body, {
        userId: request.user?.id ?? null,
        userAgent: request.headers['user-agent'],
      });
      return reply.code(204).send(null);
    },
    // navigator.sendBeacon cannot set X-Requested-With: a same-site Origin is enough here.
    { config: { csrf: 'beacon' } },
  );
};

export default pageViewRoutes;
