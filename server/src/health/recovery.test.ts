import { describe, expect, it } from 'vitest';
import type { HealthResponse } from '@tribuna/contracts/api/health';
import type { App } from '../app.ts';
import { useProxiedTestApp, type TcpProxy } from '../../../test/support/server/tcpProxy.ts';

/** Polls /api/health until `accept` holds (the dependency may take a reconnect delay to heal). */
async function waitForHealth(app: App, accept: (body: HealthResponse, status: number) => boolean, limitMs = 15_000) {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const res = await app.inject({ method: 'GET', url: '/api/health' });
    const body = res.json<HealthResponse>();
    if (accept(body, res.statusCode) || Date.now() > deadline) return { status: res.statusCode, body };
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('health recovers when a dependency comes back', () => {
  let app: App;
  let pgProxy: TcpProxy;
  let redisProxy: TcpProxy;
  useProxiedTestApp({}, (ready) => ({ app, pgProxy, redisProxy } = ready));

  it('goes 200 → 503 (postgres) → 200 as PostgreSQL stops and restarts', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);

    await pgProxy.stop();
    const down = await app.inject({ method: 'GET', url: '/api/health' });
    expect(down.statusCode).toBe(503);
    expect(down.json<HealthResponse>().down).toEqual(['postgres']);

    await pgProxy.start();
    const up = await app.inject({ method: 'GET', url: '/api/health' });
    expect(up.statusCode).toBe(200);
    expect(up.json<HealthResponse>().down).toEqual([]);
  });

  it('goes 200 → 503 (redis) → 200 as Redis stops and restarts, reconnecting by itself', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);

    await redisProxy.stop();
    const down = await waitForHealth(app, (b) => b.down.includes('redis'));
    expect(down.status).toBe(503);
    expect(down.body.down).toEqual(['redis']);

    await redisProxy.start();
    const up = await waitForHealth(app, (_, status) => status === 200);
    expect(up.status).toBe(200);
    expect(up.body.checks.redis.status).toBe('up');
  });
});
