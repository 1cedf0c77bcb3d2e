import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { HealthResponse } from '@tribuna/contracts/api/health';
import { checkHealth } from './service.ts';

const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/api/health',
    {
      schema: {
        tags: ['health'],
        summary: 'PostgreSQL and Redis reachability',
        response: { 200: HealthResponse, 503: HealthResponse },
      },
      // A probe must answer even with PostgreSQL down, so it never looks a session cookie up.
      // No rate limit: load balancers and monitors poll it from a few addresses, and it must never 429.
      // Any Host: probes name the container or its address (docker-compose.yml's healthcheck asks 127.0.0.1).
      config: { session: false, rateLimit: false, anyHost: true },
    },
    async (request, reply) => {
      const health = await checkHealth({ db: app.database.db, redis: app.redis, log: request.log });
      reply.header('cache-control', 'no-store');
      return reply.code(health.status === 'ok' ? 200 : 503).send(health);
    },
  );
};

export default healthRoutes;
