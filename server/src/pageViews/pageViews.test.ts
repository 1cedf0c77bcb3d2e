import { describe, expect, it } from 'vitest';
import { schema } from '@tribuna/drizzle';
import type { Database } from '@tribuna/drizzle/client';
import type { App } from '../app.ts';
import { useTestApp } from '../../../test/support/server/harness.ts';
import { XHR } from '../../../test/support/server/sessions.ts';

const view = { path: '/terminos', referrer: 'https://www.google.com/', sessionId: 'sess_abc12345', deviceType: 'mobile' };

describe('POST /api/page-views', () => {
  let app: App;
  let database: Database;
  useTestApp({ PUBLIC_URL: 'https://tribuna.example' }, (ready) => ({ app, database } = ready));

  const stored = () => database.db.select().from(schema.pageViews);

  it('stores a visitor page view with the user agent and answers 204', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/page-views',
      headers: { ...XHR, 'user-agent': 'Mozilla/5.0 (iPhone) Tribuna-Test' },
      payload: view,
    });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    const rows = await stored();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      userId: null,
      pagePath: '/terminos',
      referrer: 'https://www.google.com/',
      userAgent: 'Mozilla/5.0 (iPhone) Tribuna-Test',
      sessionId: 'sess_abc12345',
      deviceType: 'mobile',
    });
    expect(rows[0]!.createdAt).toBeInstanceOf(Date);
  });

  it('truncates a very long user agent to 512 characters', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/page-views',
      headers: { ...XHR, 'user-agent': 'A'.repeat(2000) },
      payload: { ...view, referrer: null, deviceType: 'desktop' },
    });
    expect(res.statusCode).toBe(204);
    const [row] = await stored();
    expect(row!.userAgent).toHaveLength(512);
    expect(row!.referrer).toBeNull();
  });

  it('refuses an unknown device type with 400 and stores nothing', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/page-views', headers: XHR, payload: { ...view, deviceType: 'tablet' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: 'body/deviceType must be one of "mobile", "desktop"',
    });
    expect(await stored()).toHaveLength(0);
  });

  it.each([
    ['a path not starting with /', { ...view, path: 'terminos' }],
    ['a too short session id', { ...view, sessionId: 'abc' }],
    ['an unknown property', { ...view, userId: '123e4567-e89b-42d3-a456-426614174000' }],
    ['a missing referrer', { path: '/', sessionId: 'sess_abc12345', deviceType: 'mobile' }],
  ])('refuses %s with 400', async (_, payload) => {
    const res = await app.inject({ method: 'POST', url: '/api/page-views', headers: XHR, payload });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/^body/);
    expect(await stored()).toHaveLength(0);
  });

  // PostgreSQL refuses NUL in text (this used to be a 500); other controls and lone surrogates are
  // no more a path or a referrer.
  it.each([
    ['NUL', '\u0000'],
    ['a C0 control', '\u0007'],
    ['a line break', '\n'],
    ['DEL', '\u007f'],
    ['a C1 control', '\u0085'],
    ['a lone high surrogate', '\ud800'],
    ['a lone low surrogate', '\udc00'],
  ])('refuses %s in the path or the referrer with 400 and stores nothing', async (_, bad) => {
    const send = (payload: object) =>
      app.inject({ method: 'POST', url: '/api/page-views', headers: { ...XHR, 'content-type': 'application/json' }, payload: JSON.stringify(payload) });
    const path = await send({ ...view, path: `/terminos${bad}x` });
    expect(path.statusCode).toBe(400);
    expect(path.json().message).toBe('body/path must start with / and not contain control characters or invalid Unicode');
    const referrer = await send({ ...view, referrer: `https://www.google.com/${bad}` });
    expect(referrer.statusCode).toBe(400);
    expect(referrer.json().message).toBe('body/referrer must not contain control characters or invalid Unicode');
    expect(await stored()).toHaveLength(0);
  });

  it('keeps accepting any other Unicode text, emoji included', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/page-views',
      headers: XHR,
      payload: { ...view, path: '/encuesta/¿quién-se-va?-😱', referrer: 'https://t.co/ñ 🎉' },
    });
    expect(res.statusCode).toBe(204);
    const [row] = await stored();
    expect(row).toMatchObject({ pagePath: '/encuesta/¿quién-se-va?-😱', referrer: 'https://t.co/ñ 🎉' });
  });

  it('refuses a cross-site request without X-Requested-With or a same-site Origin', async () => {
    const bare = await app.inject({ method: 'POST', url: '/api/page-views', payload: view });
    expect(bare.statusCode).toBe(403);
    expect(bare.json()).toMatchObject({ statusCode: 403, error: 'Forbidden' });

    const foreign = await app.inject({
      method: 'POST',
      url: '/api/page-views',
      headers: { origin: 'https://evil.example' },
      payload: view,
    });
    expect(foreign.statusCode).toBe(403);
    expect(await stored()).toHaveLength(0);
  });

  it('accepts a same-site Origin without X-Requested-With (sendBeacon)', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/page-views',
      headers: { origin: 'https://tribuna.example' },
      payload: view,
    });
    expect(res.statusCode).toBe(204);
    expect(await stored()).toHaveLength(1);
  });
});
