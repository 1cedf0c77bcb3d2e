import { describe, expect, it } from 'vitest';
import { ENDPOINT_ROUTES } from '@tribuna/contracts/endpointRoutes';
import { ENDPOINTS } from '@tribuna/contracts/endpoints';
import { isEndpointRoutesCurrent } from './genEndpointRoutes.ts';

describe('the generated endpoint table of the web (contracts/src/endpointRoutes.ts)', () => {
  it('is what the route declarations generate: run `npm run gen:routes` after declaring or changing a route', async () => {
    expect(await isEndpointRoutesCurrent()).toBe(true);
  });

  it('holds every declared route with its method, path and success status', () => {
    const declared = Object.fromEntries(Object.entries(ENDPOINTS).map(([name, r]) => [name, { method: r.method, path: r.path, status: r.status }]));
    expect(ENDPOINT_ROUTES).toEqual(declared);
  });
});
