import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';

/** OpenAPI 3 document at /api/docs/json, built from the route schemas; Swagger UI at /api/docs. */
export default fp(
  async (app) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.0.3',
        info: {
          title: 'Tribuna API',
          description: 'Votaciones en vivo y comunidad de fans del reality.',
          version: '0.1.0',
        },
        servers: [{ url: app.config.publicUrl }],
        tags: [
          { name: 'health', description: 'Liveness and dependencies' },
          { name: 'site', description: 'Public site settings' },
          { name: 'polls', description: 'Polls and results' },
          { name: 'analytics', description: 'Page views' },
          { name: 'auth', description: 'Sign-in, session, current user and second factor' },
          { name: 'admin', description: 'Back-office (admins only)' },
        ],
      },
    });
    await app.register(swaggerUi, { routePrefix: '/api/docs' });
  },
  { name: 'docs', dependencies: ['config'] },
);
