// The auth plugin's two route-wide rules: who may call a route is checked before its body is read
// or validated (config.audience), and answers carrying a reader's personal data are never cached.
import { describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import type { Database } from '@tribuna/drizzle/client';
import { buildComment, buildPoll, buildPost, buildUser } from '../../../test/support/factories.ts';
import type { App } from '../app.ts';
import { useTestApp } from '../../../test/support/server/harness.ts';
import { asUser, signIn, XHR } from '../../../test/support/server/sessions.ts';
import { NOT_AUTHENTICATED, SUSPENDED_MESSAGE } from './plugin.ts';

const UNKNOWN_ID = '123e4567-e89b-42d3-a456-426614174000';

describe('route audiences: the caller is checked before the body', () => {
  let app: App;
  let database: Database;
  useTestApp({}, (ready) => ({ app, database } = ready));

  const send = (options: InjectOptions) => app.inject(options);

  it('answers a visitor voting with an empty or malformed body 401 User not authenticated, not a schema error', async () => {
    const { poll } = await buildPoll(database.db);
    for (const payload of [{}, { optionId: 'not-a-uuid' }]) {
      const res = await send({ method: 'POST', url: `/api/polls/${poll.id}/votes`, headers: XHR, payload });
      expect([res.statusCode, res.json().message]).toEqual([401, NOT_AUTHENTICATED]);
    }
    // Not even parsed: broken JSON, a bad path parameter.
    const broken = await send({
      method: 'POST',
      url: `/api/polls/${poll.id}/votes`,
      headers: { ...XHR, 'content-type': 'application/json' },
      payload: '{"optionId":',
    });
    expect([broken.statusCode, broken.json().message]).toEqual([401, NOT_AUTHENTICATED]);
    const badId = await send({ method: 'POST', url: '/api/polls/not-a-poll/votes', headers: XHR, payload: {} });
    expect([badId.statusCode, badId.json().message]).toEqual([401, NOT_AUTHENTICATED]);
  });

  it('does the same on the other signed-in routes: edits, shares, notifications, second factors, the account', async () => {
    const author = await buildUser(database.db);
    const post = await buildPost(database.db, author.id);
    const comment = await buildComment(database.db, post.id, author.id);
    const { poll } = await buildPoll(database.db);
    const requests: InjectOptions[] = [
      { method: 'PATCH', url: `/api/posts/${post.id}`, payload: {} },
      { method: 'PATCH', url: `/api/comments/${comment.id}`, payload: { content: 7 } },
      { method: 'POST', url: `/api/posts/${post.id}/reactions`, payload: {} },
      { method: 'POST', url: `/api/polls/${poll.id}/shares`, payload: { platform: 'myspace' } },
      { method: 'POST', url: '/api/notifications/read', payload: { bogus: true } },
      { method: 'POST', url: `/api/auth/factors/${UNKNOWN_ID}/verify`, payload: {} },
      { method: 'PATCH', url: '/api/me', payload: { unknown: 1 } },
      { method: 'GET', url: '/api/notifications?limit=nope' },
    ];
    for (const request of requests) {
      const res = await send({ ...request, headers: XHR });
      expect([request.url, res.statusCode, res.json().message]).toEqual([request.url, 401, NOT_AUTHENTICATED]);
    }
  });

  it('refuses a suspended writer (403) before the body too, and still validates the body of allowed callers', async () => {
    const { poll } = await buildPoll(database.db);
    const suspended = asUser(await signIn(app, await buildUser(database.db, { isSuspended: true })));
    const refused = await send({ method: 'POST', url: `/api/polls/${poll.id}/votes`, headers: suspended, payload: {} });
    expect([refused.statusCode, refused.json().message]).toEqual([403, SUSPENDED_MESSAGE]);

    const fan = asUser(await signIn(app, await buildUser(database.db)));
    const invalid = await send({ method: 'POST', url: `/api/polls/${poll.id}/votes`, headers: fan, payload: {} });
    expect(invalid.statusCode).toBe(400);
  });

  it('lets a sign-in owing its second factor reach the factor steps (then validated), not the rest', async () => {
    const pending = asUser(await signIn(app, await buildUser(database.db), { mfaPending: true }));
    const verify = await send({ method: 'POST', url: `/api/auth/factors/${UNKNOWN_ID}/verify`, headers: pending, payload: {} });
    expect(verify.statusCode).toBe(400);
    const me = await send({ method: 'PATCH', url: '/api/me', headers: pending, payload: { unknown: 1 } });
    expect([me.statusCode, me.json().message]).toEqual([401, NOT_AUTHENTICATED]);
  });
});

describe('Cache-Control of answers with personal data', () => {
  let app: App;
  let database: Database;
  useTestApp({}, (ready) => ({ app, database } = ready));

  const get = (url: string, cookie?: string) => app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });

  it('is no-store on every read of a signed-in reader: feeds, polls, votes, notifications, factors', async () => {
    const user = await buildUser(database.db);
    const { cookie } = await signIn(app, user);
    const { poll } = await buildPoll(database.db);
    const post = await buildPost(database.db, user.id);
    for (const url of [
      '/api/posts',
      `/api/posts/${post.id}`,
      `/api/posts/${post.id}/comments`,
      '/api/polls',
      `/api/polls/${poll.id}`,
      `/api/polls/${poll.id}/my-votes`,
      `/api/polls/${poll.id}/available-points`,
      '/api/notifications',
      '/api/notifications/unread',
      '/api/auth/factors',
      '/api/auth/session',
      '/api/me',
      `/api/profiles/${user.id}`,
    ]) {
      const res = await get(url, cookie);
      expect([url, res.statusCode, res.headers['cache-control']]).toEqual([url, 200, 'no-store']);
    }
    // Refusals and errors of a signed-in reader too.
    expect((await get(`/api/posts/${UNKNOWN_ID}`, cookie)).headers['cache-control']).toBe('no-store');
  });

  it('is no-store on a sign-in owing its second factor, and on every /api/admin answer', async () => {
    const pending = await signIn(app, await buildUser(database.db), { mfaPending: true });
    expect((await get('/api/auth/session', pending.cookie)).headers['cache-control']).toBe('no-store');

    const admin = await signIn(app, await buildUser(database.db, { role: 'admin' }));
    const dashboard = await get('/api/admin/dashboard', admin.cookie);
    expect([dashboard.statusCode, dashboard.headers['cache-control']]).toEqual([200, 'no-store']);
    const visitor = await get('/api/admin/dashboard');
    expect([visitor.statusCode, visitor.headers['cache-control']]).toEqual([401, 'no-store']);
  });

  it("leaves the public reads of signed-out readers and the SPA's own caching alone", async () => {
    const { poll } = await buildPoll(database.db);
    for (const url of ['/api/posts', '/api/polls', `/api/polls/${poll.id}`, `/api/polls/${poll.id}/results`]) {
      const res = await get(url);
      expect([url, res.statusCode, res.headers['cache-control']]).toEqual([url, 200, undefined]);
    }
    // Pages are never resolved against the session: a signed-in browser gets the page's own policy.
    const { cookie } = await signIn(app, await buildUser(database.db));
    const page = await get('/', cookie);
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('no-cache');
  });
});
