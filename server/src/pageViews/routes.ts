import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@fastify/type-provider-typebox';
import { PageViewInput } from '@tribuna/contracts/api/pageViews';
import { errorResponses } from '../http/errors.ts';
import { recordPageView } from './service.ts';

const pageViewRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/api/page-views',
    {
      schema: {
        tags: ['analytics'],
        summary: 'Record a page view (visitors and signed-in users)',
        body: PageViewInput,
        response: { 204: Type.Null(), ...errorResponses(400, 403, 429) },
      },
      // navigator.sendBeacon cannot set X-Requested-With: a same-site Origin is enough here.
      config: { csrf: 'beacon', rateLimit: 'page-views.record' },
    },
    async (request, reply) => {
      await recordPageView(app.database.db, request.body, {
        userId: request.user?.id ?? null,
        userAgent: request.headers['user-agent'],
      });
      return reply.code(204).send(null);
    },
  );
};

export default pageViewRoutes;
