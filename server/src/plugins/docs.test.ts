import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../../test/support/env.ts';
import { buildApp, type App } from '../app.ts';

interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, { responses: Record<string, unknown>; requestBody?: unknown; tags?: string[] }>>;
}

describe('OpenAPI document', () => {
  let app: App;
  beforeAll(async () => {
    app = await buildApp(testConfig());
  });
  afterAll(async () => {
    await app.close();
  });

  it('is served at /api/docs/json as OpenAPI 3 and lists the API routes with their schemas', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json<OpenApiDocument>();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/health',
        '/api/site',
        '/api/polls/home',
        '/api/polls',
        '/api/polls/{pollId}',
        '/api/polls/{pollId}/results',
        '/api/page-views',
        '/api/me',
        '/api/auth/session',
        '/api/auth/factors',
        '/api/auth/factors/{id}',
        '/api/auth/factors/{id}/challenge',
        '/api/auth/factors/{id}/verify',
        '/api/auth/dev/users',
        '/api/auth/dev/login',
        '/api/admin/users/{userId}/suspend',
        '/api/admin/users/{userId}/unsuspend',
        '/auth/google',
        '/auth/google/callback',
        '/auth/logout',
      ]),
    );
    // Every account route shows under its tag, with its request body where it takes one.
    for (const path of Object.keys(doc.paths).filter((p) => p.startsWith('/api/auth') || p.startsWith('/auth/'))) {
      for (const operation of Object.values(doc.paths[path]!)) expect(operation.tags, path).toEqual(['auth']);
    }
    expect(doc.paths['/api/auth/factors/{id}/verify']!.post!.requestBody).toBeDefined();
    expect(doc.paths['/api/me']!.delete!.requestBody).toBeDefined();
    expect(doc.paths['/api/health']!.get!.responses).toHaveProperty('503');
    expect(doc.paths['/api/page-views']!.post!.requestBody).toBeDefined();
    // Infrastructure routes stay out of the document.
    expect(Object.keys(doc.paths).some((p) => p === '/ws' || p.startsWith('/media') || p === '/*')).toBe(false);
  });

  it('serves Swagger UI at /api/docs', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
  });
});
