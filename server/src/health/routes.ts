import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { HEALTH_ROUTES } from '@tribuna/contracts/api/health';
import { serve } from '../http/serve.ts';
import { checkHealth } from './service.ts';

const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  serve(
    app,
    HEALTH_ROUTES.health,
    async (request, reply) => {
      const health = await checkHealth({ db: app.database.db, redis: app.redis, log: request.log });
      reply.header('cache-control', 'no-store');
      return reply.code(health.status === 'ok' ? 200 : 503).send(health);
    },
    // A probe must answer even with PostgreSQL down, so it never looks a session cookie up.
    // Any Host: probes name the container or its address (docker-compose.yml's healthcheck asks 127.0.0.1).
    { config: { session: false, anyHost: true } },
  );
};

export default healthRoutes;
