import { describe, expect, it } from 'vitest';
import type { HealthResponse } from '@tribuna/contracts/api/health';
import type { App } from '../app.ts';
import { DATABASE_UNAVAILABLE_MESSAGE } from '../plugins/errors.ts';
import { useApp } from '../../../test/support/server/harness.ts';

describe('GET /api/health', () => {
  describe('with PostgreSQL and Redis up', () => {
    let app: App;
    useApp({}, (built) => (app = built));

    it('answers 200 ok with both checks up', async () => {
      const res = await app.inject({ method: 'GET', url: '/api/health' });
      expect(res.statusCode).toBe(200);
      const body = res.json<HealthResponse>();
      expect(body).toMatchObject({
        status: 'ok',
        down: [],
        checks: { postgres: { status: 'up' }, redis: { status: 'up' } },
      });
      expect(body.checks.postgres.latencyMs).toBeTypeOf('number');
      expect(res.headers['cache-control']).toBe('no-store');
    });
  });

  describe('with PostgreSQL down', () => {
    let app: App;
    useApp({ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/tribuna' }, (built) => (app = built));

    it('answers 503 degraded naming postgres, without connection details', async () => {
      const res = await app.inject({ method: 'GET', url: '/api/health' });
      expect(res.statusCode).toBe(503);
      const body = res.json<HealthResponse>();
      expect(body).toMatchObject({
        status: 'degraded',
        down: ['postgres'],
        checks: { postgres: { status: 'down', latencyMs: null }, redis: { status: 'up' } },
      });
      expect(res.body).not.toContain('127.0.0.1');
    });

    it('keeps answering on later calls', async () => {
      const res = await app.inject({ method: 'GET', url: '/api/health' });
      expect(res.statusCode).toBe(503);
      expect(res.json<HealthResponse>().down).toEqual(['postgres']);
    });

    it('answers a route needing PostgreSQL with 503 and a retry hint, without leaking the cause', async () => {
      const res = await app.inject({ method: 'GET', url: '/api/polls' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ statusCode: 503, error: 'Service Unavailable', message: DATABASE_UNAVAILABLE_MESSAGE });
      expect(res.headers['retry-after']).toBeDefined();
      expect(res.body).not.toMatch(/ECONNREFUSED|stack|at /);
    });
  });

  describe('with Redis down', () => {
    let app: App;
    useApp({ REDIS_URL: 'redis://127.0.0.1:1' }, (built) => (app = built));

    it('answers 503 degraded naming redis', async () => {
      const res = await app.inject({ method: 'GET', url: '/api/health' });
      expect(res.statusCode).toBe(503);
      expect(res.json<HealthResponse>()).toMatchObject({
        status: 'degraded',
        down: ['redis'],
        checks: { postgres: { status: 'up' }, redis: { status: 'down', latencyMs: null } },
      });
    });

    it('still serves routes that only need PostgreSQL', async () => {
      const res = await app.inject({ method: 'GET', url: '/api/polls/home' });
      expect(res.statusCode).toBe(200);
    });

    it('fails an enqueue quickly instead of hanging the caller', async () => {
      await expect(app.enqueue('reports.aggregate-day', { day: '2025-01-05' })).rejects.toThrow();
    });
  });
});
