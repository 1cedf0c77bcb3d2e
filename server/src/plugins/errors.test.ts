import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { Type } from '@fastify/type-provider-typebox';
import { testConfig } from '../../../test/support/env.ts';
import { buildApp, type App } from '../app.ts';
import { HttpError } from '../http/errors.ts';
import { formatValidationErrors } from '../http/validation.ts';
import errorsPlugin from './errors.ts';
import staticPlugin from './static.ts';

describe('error handler on the real app', () => {
  let app: App;
  beforeAll(async () => {
    app = await buildApp(testConfig());
  });
  afterAll(async () => {
    await app.close();
  });

  it('answers a schema violation with 400 and a readable message naming the field', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/page-views',
      headers: { 'x-requested-with': 'tribuna' },
      payload: { path: '/', referrer: null, sessionId: 'has spaces!', deviceType: 'mobile' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: 'body/sessionId must match pattern "^[A-Za-z0-9_-]+$"',
    });
  });

  it('answers malformed JSON with 400 in the ErrorBody shape', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/page-views',
      headers: { 'x-requested-with': 'tribuna', 'content-type': 'application/json' },
      payload: '{"path": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
  });

  it('answers a body it cannot take (unsupported type, beyond the limit) with 415/413, documented on the route', async () => {
    const headers = { 'x-requested-with': 'tribuna' };
    const unsupported = await app.inject({
      method: 'POST',
      url: '/api/page-views',
      headers: { ...headers, 'content-type': 'application/xml' },
      payload: '<a/>',
    });
    expect(unsupported.statusCode).toBe(415);
    expect(unsupported.json()).toMatchObject({ statusCode: 415, error: 'Unsupported Media Type' });
    const huge = await app.inject({
      method: 'POST',
      url: '/api/page-views',
      headers: { ...headers, 'content-type': 'application/json' },
      payload: `{"path":"${'x'.repeat(1_100_000)}"}`,
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toMatchObject({ statusCode: 413, error: 'Payload Too Large' });
    // Every route with a body documents them; routes without one are not burdened with them.
    const doc = (await app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    for (const status of ['400', '413', '415']) {
      expect(doc.paths['/api/page-views'].post.responses[status], status).toBeDefined();
      expect(doc.paths['/auth/logout'].post.responses[status], status).toBeDefined();
    }
    expect(doc.paths['/api/site'].get.responses['415']).toBeUndefined();
  });

  it('answers an invalid uuid parameter with 400', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/polls/not-a-uuid' });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('params/pollId must match format "uuid"');
  });

  it.each([
    ['GET', '/api/nope'],
    ['POST', '/api/nope'],
    ['GET', '/api'],
    ['GET', '/auth/unknown'],
    ['DELETE', '/terminos'],
  ] as const)('answers %s %s with a JSON 404', async (method, url) => {
    const res = await app.inject({ method, url, headers: { accept: 'text/html,application/json' } });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'Not found' });
  });
});

describe('error handler in isolation', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = Fastify({ logger: false, schemaErrorFormatter: formatValidationErrors });
    await app.register(staticPlugin, { root: '/nonexistent-web-dist' });
    await app.register(errorsPlugin);
    app.get('/boom', async () => {
      throw new Error('password=hunter2 at db.internal:5432');
    });
    app.get('/conflict', async () => {
      throw new HttpError(409, 'Ya existe');
    });
    app.post(
      '/typed',
      {
        schema: {
          body: Type.Object(
            {
              kind: Type.Union([Type.Literal('mobile'), Type.Literal('desktop')]),
              note: Type.Union([Type.String(), Type.Null()]),
            },
            { additionalProperties: false },
          ),
        },
      },
      async () => ({ ok: true }),
    );
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
  });

  it('turns an unexpected error into a generic 500 without message or stack', async () => {
    const res = await app.inject({ method: 'GET', url: '/boom' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ statusCode: 500, error: 'Internal Server Error', message: 'Error interno del servidor' });
    expect(res.body).not.toContain('hunter2');
    expect(res.body).not.toContain('stack');
  });

  it('keeps the message of a client error', async () => {
    const res = await app.inject({ method: 'GET', url: '/conflict' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ statusCode: 409, error: 'Conflict', message: 'Ya existe' });
  });

  it('lists the allowed values of an enumeration instead of raw anyOf errors', async () => {
    const res = await app.inject({ method: 'POST', url: '/typed', payload: { kind: 'tablet', note: null } });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('body/kind must be one of "mobile", "desktop"');
  });

  it('names the accepted types of a nullable field', async () => {
    const res = await app.inject({ method: 'POST', url: '/typed', payload: { kind: 'mobile', note: { text: 'x' } } });
    expect(res.json().message).toBe('body/note must be string or null');
  });

  it('names a missing property', async () => {
    const res = await app.inject({ method: 'POST', url: '/typed', payload: { note: null } });
    expect(res.json().message).toBe("body must have required property 'kind'");
  });
});
