import type { RouteOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { ENDPOINTS } from '@tribuna/contracts/endpoints';
import { responsesOf, type ApiRoute } from '@tribuna/contracts/route';
import { buildApp } from './app.ts';
import { testConfig } from '../../test/support/env.ts';

/** Routes under /api or /auth that are not API calls, and so declared only where they are served (besides the OpenAPI pages, /api/docs). */
const NOT_DECLARED = new Set([
  // Google sign-in: browser navigations answered with redirects (identity/oidc/routes.ts).
  'GET /auth/google',
  'GET /auth/google/callback',
]);

/**
 * Each route is declared once, in the contracts (contracts/src/api/**.ts, merged in
 * contracts/src/endpoints.ts): the server registers its handler from that declaration
 * (server/src/http/serve.ts) and the web's client is typed by it (web/src/lib/api.ts callApi). So
 * every declaration must be a route of the server with the very same schema objects, and every
 * API route of the server must be a declaration: the client's types cannot drift from what the
 * server validates and answers.
 */
describe('the route declarations of the contracts', () => {
  it('are the server route table, schema for schema, and nothing under /api or /auth is served undeclared', async () => {
    const routes: RouteOptions[] = [];
    const app = await buildApp(testConfig({ DEV_LOGIN: '1' }), { onRoute: (route) => void routes.push(route) });
    try {
      for (const [name, declared] of Object.entries(ENDPOINTS) as [string, ApiRoute][]) {
        const { method, path, status } = declared;
        const route = routes.find((r) => [r.method].flat().includes(method) && r.url === path);
        expect(route, `${name}: no ${method} ${path} on the server`).toBeDefined();
        const schema = route!.schema as Record<string, unknown> & { response?: Record<string, unknown> };
        for (const part of ['params', 'querystring', 'headers', 'body'] as const) {
          expect(schema[part], `${name}: the ${part} schema is not the declaration's`).toBe(declared[part]);
        }
        expect(schema.response?.[String(status)], `${name}: the ${status} schema is not the declaration's`).toBe(declared.response);
        // Every declared answer (plugins add a few of their own to every route: 421, 503).
        for (const [code, body] of Object.entries(responsesOf(declared))) expect(schema.response?.[code], `${name}: ${code}`).toBe(body);
        expect(route!.config, name).toMatchObject({ rateLimit: declared.rateLimit });
        expect((route!.config as { audience?: string } | undefined)?.audience, name).toBe(declared.audience);
      }

      const declaredKeys = new Set(Object.values(ENDPOINTS).map((r: ApiRoute) => `${r.method} ${r.path}`));
      const undeclared = routes
        .filter((r) => /^\/(?:api|auth)(?:\/|$)/.test(r.url) && !r.url.startsWith('/api/docs'))
        .flatMap((r) =>
          [r.method]
            .flat()
            .filter((m) => m !== 'HEAD')
            .map((m) => `${m} ${r.url}`),
        )
        .filter((key) => !declaredKeys.has(key) && !NOT_DECLARED.has(key));
      expect(undeclared, 'served but not declared in the contracts').toEqual([]);
    } finally {
      await app.close();
    }
  });
});
