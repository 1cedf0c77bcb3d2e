import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';

/**
 * Swagger UI draws its stock logo as an SVG carrying an inline <style> (replaced by the Fastify logo
 * right after). The hash of that stylesheet: test/e2e/csp.test.ts fails if an upgrade changes it.
 */
export const SWAGGER_LOGO_STYLE = "'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='";

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
    await app.register(swaggerUi, {
      routePrefix: '/api/docs',
      // Only under /api/docs, add that one stylesheet to the site's CSP (plugins/security.ts).
      transformStaticCSP: (header) => header.replace(/(^|;)\s*style-src ([^;]*)/, `$1style-src $2 ${SWAGGER_LOGO_STYLE}`),
    });
  },
  { name: 'docs', dependencies: ['config', 'security'] },
);
