import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { HealthResponse } from '@tribuna/contracts/api/health';
import type { Db } from '@tribuna/drizzle/client';
import { TimeoutError, withTimeout } from '../http/timeout.ts';
import { pingPostgres, pingRedis } from './probes.ts';

export const CHECK_TIMEOUT_MS = 1500;

type DependencyStatus = HealthResponse['checks']['postgres'];

export interface HealthDeps {
  db: Db;
  redis: Redis;
  log: FastifyBaseLogger;
}

async function check(name: string, probe: () => Promise<void>, log: FastifyBaseLogger): Promise<DependencyStatus> {
  const started = performance.now();
  try {
    await withTimeout(probe(), CHECK_TIMEOUT_MS, `${name} health check`);
    return { status: 'up', latencyMs: Math.round((performance.now() - started) * 10) / 10 };
  } catch (err) {
    log.warn({ err: { message: (err as Error).message } }, `${name} health check failed`);
    // The body is public: say what kind of failure it was, not where the dependency lives.
    return { status: 'down', latencyMs: null, error: err instanceof TimeoutError ? 'timeout' : 'unavailable' };
  }
}

/** Both dependencies are checked in parallel, each bounded by CHECK_TIMEOUT_MS. */
export async function checkHealth({ db, redis, log }: HealthDeps): Promise<HealthResponse> {
  const [postgres, redisStatus] = await Promise.all([check('postgres', () => pingPostgres(db), log), check('redis', () => pingRedis(redis), log)]);
  const checks = { postgres, redis: redisStatus };
  const down = Object.entries(checks)
    .filter(([, c]) => c.status === 'down')
    .map(([name]) => name);
  return {
    status: down.length === 0 ? 'ok' : 'degraded',
    down,
    checks,
    uptimeSeconds: Math.round(process.uptime()),
  };
}
