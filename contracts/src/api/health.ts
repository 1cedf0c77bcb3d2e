import { Type, type Static } from '@sinclair/typebox';

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
