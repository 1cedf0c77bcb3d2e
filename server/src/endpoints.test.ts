import type { RouteOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { ENDPOINT_ROUTES, type EndpointName } from '@tribuna/contracts/endpointRoutes';
import { ENDPOINTS } from '@tribuna/contracts/endpoints';
import { buildApp } from './app.ts';
import { testConfig } from '../../test/support/env.ts';

/**
 * The web app calls the server through the endpoint map of the contracts (web/src/lib/api.ts
 * callApi): each entry must be a route of the server with the same method, path and success status,
 * declaring the very same body and response schemas, so the client's types cannot drift from what
 * the server validates and answers.
 */
describe('the endpoint map of the contracts', () => {
  it('matches the server route table, schema for schema', async () => {
    const routes: RouteOptions[] = [];
    const app = await buildApp(testConfig({ DEV_LOGIN: '1' }), { onRoute: (route) => void routes.push(route) });
    try {
      for (const name of Object.keys(ENDPOINT_ROUTES) as EndpointName[]) {
        const { method, path, status } = ENDPOINT_ROUTES[name];
        const route = routes.find((r) => [r.method].flat().includes(method) && r.url === path);
        expect(route, `${name}: no ${method} ${path} on the server`).toBeDefined();
        const schema = route!.schema as { body?: unknown; response?: Record<string, unknown> };
        const response = schema.response?.[String(status)];
        expect(response, `${name}: ${method} ${path} documents no ${status}`).toBeDefined();
        const endpoint = ENDPOINTS[name] as { body?: unknown; response: { type?: unknown } };
        if (status === 204) expect((response as { type?: unknown }).type, name).toBe('null');
        else expect(response, `${name}: the response schema is not the contract's`).toBe(endpoint.response);
        expect(schema.body, `${name}: the body schema is not the contract's`).toBe(endpoint.body);
      }
    } finally {
      await app.close();
    }
  });
});
