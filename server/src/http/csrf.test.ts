// Cross-site request refusal: cookie-authenticated mutations and the websocket upgrade.
import { createRequire } from 'node:module';
import { isNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { ServerMessage } from '@tribuna/contracts/live';
import { schema } from '@tribuna/drizzle';
import type { Database } from '@tribuna/drizzle/client';
import { buildPoll, buildUser } from '../../../test/support/factories.ts';
import type { App } from '../app.ts';
import { useListeningTestApp } from '../../../test/support/server/harness.ts';
import { signIn, XHR } from '../../../test/support/server/sessions.ts';
import { isOwnOrigin } from './csrf.ts';

interface WsClient {
  on(event: 'message', listener: (data: Buffer) => void): void;
  on(event: 'open' | 'close', listener: () => void): void;
  on(event: 'error', listener: (err: Error) => void): void;
  on(event: 'unexpected-response', listener: (req: unknown, res: { statusCode: number }) => void): void;
  close(): void;
}
const { WebSocket } = createRequire(import.meta.url)('ws') as {
  WebSocket: new (url: string, options?: { headers?: Record<string, string> }) => WsClient;
};

const SITE = 'https://tribuna.example';

describe('cross-site request refusal', () => {
  let app: App;
  let database: Database;
  let port: number;
  useListeningTestApp({ PUBLIC_URL: SITE, DEV_LOGIN: '1' }, (ready) => ({ app, database, port } = ready));

  async function signedIn() {
    const user = await buildUser(database.db);
    return { user, ...(await signIn(app, user)) };
  }

  const logout = (headers: Record<string, string>) => app.inject({ method: 'POST', url: '/auth/logout', headers });
  const me = (cookie: string) => app.inject({ method: 'GET', url: '/api/me', headers: { cookie } });

  it('refuses a cookie-authenticated mutation without X-Requested-With (a cross-site form post)', async () => {
    const { cookie } = await signedIn();
    const res = await logout({ cookie });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ statusCode: 403, error: 'Forbidden', message: 'Cross-site request refused' });
    // Nothing happened: still signed in.
    expect((await me(cookie)).statusCode).toBe(200);

    const del = await app.inject({ method: 'DELETE', url: '/api/me', headers: { cookie }, payload: { confirm: 'ELIMINAR' } });
    expect(del.statusCode).toBe(403);
    expect((await me(cookie)).statusCode).toBe(200);
  });

  it('refuses a mutation from a foreign Origin even with X-Requested-With', async () => {
    const { cookie } = await signedIn();
    for (const origin of ['https://evil.example', 'http://tribuna.example', 'https://tribuna.example.evil.com', 'null']) {
      const res = await logout({ cookie, ...XHR, origin });
      expect(res.statusCode, origin).toBe(403);
    }
    expect((await me(cookie)).statusCode).toBe(200);
  });

  it('accepts a same-origin mutation: the header and our Origin (PUBLIC_URL), or no Origin at all', async () => {
    const a = await signedIn();
    expect((await logout({ cookie: a.cookie, ...XHR, origin: SITE })).statusCode).toBe(204);
    const b = await signedIn();
    expect((await logout({ cookie: b.cookie, ...XHR })).statusCode).toBe(204);
  });

  it("never takes the request's own Host for our origin (a DNS-rebound page sends both alike)", async () => {
    const { cookie } = await signedIn();
    // localhost is in the test configuration's ALLOWED_HOSTS: the Host passes, the Origin does not.
    const res = await logout({ cookie, ...XHR, host: 'localhost:5173', origin: 'http://localhost:5173' });
    expect(res.statusCode).toBe(403);
    expect((await me(cookie)).statusCode).toBe(200);
  });

  it('also protects sign-in mutations (login CSRF) but never GETs', async () => {
    const login = await app.inject({ method: 'POST', url: '/api/auth/dev/login', payload: { displayName: 'Ana' } });
    expect(login.statusCode).toBe(403);
    const { cookie } = await signedIn();
    expect((await app.inject({ method: 'GET', url: '/api/me', headers: { cookie, origin: 'https://evil.example' } })).statusCode).toBe(200);
  });

  it("knows its own origin: PUBLIC_URL's, and nothing else", () => {
    expect(isOwnOrigin('https://tribuna.example', SITE)).toBe(true);
    expect(isOwnOrigin('https://TRIBUNA.example:443', SITE)).toBe(true);
    expect(isOwnOrigin('http://localhost:3000', SITE)).toBe(false);
    expect(isOwnOrigin('http://tribuna.example', SITE)).toBe(false);
    expect(isOwnOrigin('https://evil.example', SITE)).toBe(false);
    expect(isOwnOrigin('null', SITE)).toBe(false);
    expect(isOwnOrigin('garbage', SITE)).toBe(false);
  });

  describe('websocket upgrade on /ws', () => {
    function open(headers: Record<string, string>) {
      const socket = new WebSocket(`ws://127.0.0.1:${port}/ws`, { headers });
      return new Promise<{ status: 'open'; hello: ServerMessage; socket: WsClient } | { status: number }>((resolve, reject) => {
        socket.on('message', (data) => resolve({ status: 'open', hello: JSON.parse(data.toString('utf8')) as ServerMessage, socket }));
        socket.on('unexpected-response', (_req, res) => resolve({ status: res.statusCode }));
        socket.on('error', reject);
      });
    }

    it('refuses a page of another site (foreign Origin) with 403', async () => {
      const result = await open({ origin: 'https://evil.example' });
      expect(result.status).toBe(403);
    });

    it('accepts our own origin and attaches the signed-in user to the socket', async () => {
      const { user, cookie } = await signedIn();
      const result = await open({ origin: SITE, cookie });
      expect(result.status).toBe('open');
      if (result.status !== 'open') return;
      expect(result.hello).toMatchObject({ type: 'hello', userId: user.id });
      result.socket.close();
    });

    it('accepts visitors (no cookie, or an expired one) and clients without an Origin', async () => {
      const visitor = await open({ origin: SITE });
      expect(visitor.status).toBe('open');
      if (visitor.status === 'open') {
        expect(visitor.hello).toMatchObject({ type: 'hello', userId: null });
        visitor.socket.close();
      }
      const noOrigin = await open({ cookie: `tribuna_session=${'A'.repeat(43)}` });
      expect(noOrigin.status).toBe('open');
      if (noOrigin.status === 'open') {
        expect(noOrigin.hello).toMatchObject({ userId: null });
        noOrigin.socket.close();
      }
    });
  });
});

describe('CSRF and session hooks decide by the matched route, not the raw URL', () => {
  let app: App;
  let database: Database;
  let baseUrl: string;
  useListeningTestApp({ PUBLIC_URL: SITE, DEV_LOGIN: '1' }, (ready) => ({ app, database, baseUrl } = ready));

  const pageView = { path: '/terminos', referrer: null, sessionId: 'sess_abc12345', deviceType: 'mobile' };
  /** Over real HTTP, so the path reaches the router exactly as written. */
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const counts = async () => ({
    pageViews: (await database.db.select().from(schema.pageViews)).length,
    votes: (await database.db.select().from(schema.votes)).length,
    profiles: (await database.db.select().from(schema.profiles)).length,
    liveSessions: (await database.db.select().from(schema.sessions).where(isNull(schema.sessions.revokedAt))).length,
  });

  it('refuses a cross-site mutation on every spelling of a protected path (403, or 404 when no route matches) and writes nothing', async () => {
    const user = await buildUser(database.db);
    const { cookie } = await signIn(app, user);
    const { poll, options } = await buildPoll(database.db);
    const vote = { optionId: options[0]!.id, deviceFingerprint: 'fingerprint_1' };
    const before = await counts();

    const attempts: [string, unknown][] = [
      ['/%61pi/page-views', pageView],
      ['/api/page-view%73', pageView],
      ['/api//page-views', pageView],
      ['/API/page-views', pageView],
      ['/api/page-views/', pageView],
      ['/api/page-views;x', pageView],
      ['/api%2Fpage-views', pageView],
      [`/api/polls/${poll.id}/%76otes`, vote],
      [`/%61pi/polls/${poll.id}/votes`, vote],
      [`/api/polls/${poll.id}//votes`, vote],
      [`/api/polls/${poll.id}/VOTES`, vote],
      ['/%61pi/auth/dev/login', { displayName: 'Intrusa' }],
      ['/%61uth/logout', {}],
    ];
    for (const [path, body] of attempts) {
      for (const headers of [{ cookie }, { cookie, origin: 'https://evil.example' }] as Record<string, string>[]) {
        const res = await post(path, body, headers);
        expect([403, 404], `${path} ${JSON.stringify(headers)}`).toContain(res.status);
        if (res.status === 403) expect((await res.json()).message).toBe('Cross-site request refused');
      }
    }
    expect(await counts()).toEqual(before);
    expect((await app.inject({ method: 'GET', url: '/api/me', headers: { cookie } })).statusCode).toBe(200);
  });

  it('resolves a session cookie on an encoded path exactly as on the canonical one', async () => {
    const user = await buildUser(database.db);
    const { cookie } = await signIn(app, user);
    const canonical = await fetch(`${baseUrl}/api/me`, { headers: { cookie } });
    const encoded = await fetch(`${baseUrl}/%61pi/m%65`, { headers: { cookie } });
    expect(canonical.status).toBe(200);
    expect(encoded.status).toBe(200);
    expect(await encoded.json()).toEqual(await canonical.json());

    // A same-site write on an encoded path is recorded for the signed-in user, not as a visitor.
    const res = await post('/%61pi/page-views', pageView, { cookie, ...XHR });
    expect(res.status).toBe(204);
    const [view] = await database.db.select().from(schema.pageViews);
    expect(view!.userId).toBe(user.id);

    // A revoked session is refused on both spellings.
    expect((await post('/%61uth/logout', {}, { cookie, ...XHR })).status).toBe(204);
    expect((await fetch(`${baseUrl}/api/me`, { headers: { cookie } })).status).toBe(401);
    expect((await fetch(`${baseUrl}/%61pi/m%65`, { headers: { cookie } })).status).toBe(401);
  });

  it('leaves HEAD, unknown paths and SPA pages alone', async () => {
    const user = await buildUser(database.db);
    const { cookie } = await signIn(app, user);
    expect((await fetch(`${baseUrl}/api/me`, { method: 'HEAD', headers: { cookie } })).status).toBe(200);
    expect((await fetch(`${baseUrl}/%61pi/me`, { method: 'HEAD', headers: { cookie } })).status).toBe(200);
    expect((await post('/api/nothing-here', {}, { cookie, origin: 'https://evil.example' })).status).toBe(404);
    const page = await fetch(`${baseUrl}/perfil`, { headers: { cookie, accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
  });
});
