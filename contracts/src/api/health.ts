import { Type, type Static } from '@sinclair/typebox';
import { defineRoutes } from '../route.ts';

export const DependencyStatus = Type.Object({
  status: Type.Union([Type.Literal('up'), Type.Literal('down')]),
  latencyMs: Type.Union([Type.Number(), Type.Null()]),
  error: Type.Optional(Type.String()),
});

export const HealthResponse = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
  /** Names of the dependencies that are down, e.g. ["postgres"]. */
  down: Type.Array(Type.String()),
  checks: Type.Object({ postgres: DependencyStatus, redis: DependencyStatus }),
  uptimeSeconds: Type.Number(),
});
export type HealthResponse = Static<typeof HealthResponse>;

export const HEALTH_ROUTES = defineRoutes({
  health: {
    method: 'GET',
    path: '/api/health',
    status: 200,
    tags: ['health'],
    summary: 'PostgreSQL and Redis reachability',
    response: HealthResponse,
    errors: [],
    otherResponses: { 503: HealthResponse },
    // No rate limit: load balancers and monitors poll it from a few addresses, and it must never 429.
    rateLimit: false,
  },
});
