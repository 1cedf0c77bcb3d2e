// Google sign-in against a real OpenID Connect provider (oauth2-mock-server): discovery, state,
// PKCE, nonce and the id_token checks.
import { createSign, generateKeyPairSync } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { schema } from '@tribuna/drizzle';
import type { Database } from '@tribuna/drizzle/client';
import { testConfig } from '../../../../test/support/env.ts';
import { buildApp, type App } from '../../app.ts';
import {
  MockOidcProvider,
  TEST_CLIENT_ID,
  authorizeAtProvider,
  finishGoogleFlow,
  googleSignIn,
  startGoogleFlow,
  useOidcTestApp,
} from '../../../../test/support/server/oidc.ts';
import { useApp } from '../../../../test/support/server/harness.ts';

describe('Google sign-in (OpenID Connect)', () => {
  let provider: MockOidcProvider;
  let app: App;
  let baseUrl: string;
  let database: Database;
  useOidcTestApp({}, (ready) => ({ provider, app, baseUrl, database } = ready));

  const profileCount = async () => (await database.db.select().from(schema.profiles)).length;

  it('redirects to the authorization endpoint found by discovery, with PKCE S256, state, nonce and the scopes', async () => {
    const { authorizeUrl, jar } = await startGoogleFlow(baseUrl);
    expect(`${authorizeUrl.origin}${authorizeUrl.pathname}`).toBe(`${provider.issuer}/authorize`);
    const params = authorizeUrl.searchParams;
    expect(params.get('response_type')).toBe('code');
    expect(params.get('client_id')).toBe(TEST_CLIENT_ID);
    expect(params.get('redirect_uri')).toBe('http://tribuna.test/auth/google/callback');
    expect(params.get('scope')).toBe('openid email profile');
    expect(params.get('code_challenge_method')).toBe('S256');
    expect(params.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(params.get('state')).toBeTruthy();
    expect(params.get('nonce')).toMatch(/^[A-Za-z0-9_-]{32}$/);
    // State, verifier and nonce travel in signed httpOnly cookies, never in clear.
    expect([...jar.keys()].sort()).toEqual(['tribuna_oauth_nonce', 'tribuna_oauth_state', 'tribuna_oauth_verifier']);
    expect(jar.get('tribuna_oauth_nonce')).not.toBe(params.get('nonce'));
  });

  it('completes the authorization-code flow: a session cookie and a redirect to /auth/callback', async () => {
    provider.nextIdToken({ sub: 'google-123', email: 'ana@example.com', name: 'Ana López' });
    const flow = await googleSignIn(baseUrl);
    expect(flow.status).toBe(302);
    expect(flow.location).toBe('/auth/callback');
    expect(flow.sessionCookie).toMatch(/^tribuna_session=[A-Za-z0-9_-]{43}$/);
    const session = flow.setCookies.find((c) => c.name === 'tribuna_session')!;
    expect(session.attributes).toMatchObject({ path: '/', httponly: true, samesite: 'Lax' });
    expect(session.attributes.secure).toBeUndefined(); // PUBLIC_URL is http here
    // The flow cookies are single-use.
    expect(flow.jar.has('tribuna_oauth_state')).toBe(false);
    expect(flow.jar.has('tribuna_oauth_nonce')).toBe(false);

    const me = await app.inject({ method: 'GET', url: '/api/me', headers: { cookie: flow.sessionCookie! } });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ displayName: 'Ana López', role: 'user', isSuspended: false });
    const [account] = await database.db.select().from(schema.accounts);
    expect(account).toMatchObject({ email: 'ana@example.com', emailVerified: true, oidcIssuer: provider.issuer, oidcSubject: 'google-123' });
  });

  it('signs the same Google account into the same profile the next time', async () => {
    provider.nextIdToken({ sub: 'google-same' });
    const first = await googleSignIn(baseUrl);
    provider.nextIdToken({ sub: 'google-same' });
    const second = await googleSignIn(baseUrl);
    const a = await app.inject({ method: 'GET', url: '/api/me', headers: { cookie: first.sessionCookie! } });
    const b = await app.inject({ method: 'GET', url: '/api/me', headers: { cookie: second.sessionCookie! } });
    expect(a.json().id).toBe(b.json().id);
    expect(await profileCount()).toBe(1);
  });

  it('refuses a callback whose state does not match the state cookie', async () => {
    const { authorizeUrl, jar } = await startGoogleFlow(baseUrl);
    const callback = await authorizeAtProvider(authorizeUrl);
    callback.searchParams.set('state', 'forged-state');
    const flow = await finishGoogleFlow(baseUrl, callback, jar);
    expect(flow.location).toBe('/auth/callback?error=1');
    expect(flow.sessionCookie).toBeNull();
    expect(await profileCount()).toBe(0);
  });

  it('refuses a callback without the flow cookies (another browser, or the cookies expired)', async () => {
    const { authorizeUrl } = await startGoogleFlow(baseUrl);
    const callback = await authorizeAtProvider(authorizeUrl);
    const flow = await finishGoogleFlow(baseUrl, callback, new Map());
    expect(flow.location).toBe('/auth/callback?error=1');
    expect(flow.sessionCookie).toBeNull();
  });

  it('refuses a tampered (unsigned) state cookie', async () => {
    const { authorizeUrl, jar } = await startGoogleFlow(baseUrl);
    const callback = await authorizeAtProvider(authorizeUrl);
    jar.set('tribuna_oauth_state', callback.searchParams.get('state')!);
    const flow = await finishGoogleFlow(baseUrl, callback, jar);
    expect(flow.location).toBe('/auth/callback?error=1');
  });

  it('fails the code exchange when the PKCE verifier is not the one of this flow', async () => {
    // Both cookies are genuinely signed by the app, but belong to two different flows.
    const a = await startGoogleFlow(baseUrl);
    const b = await startGoogleFlow(baseUrl);
    const callback = await authorizeAtProvider(a.authorizeUrl);
    a.jar.set('tribuna_oauth_verifier', b.jar.get('tribuna_oauth_verifier')!);
    const flow = await finishGoogleFlow(baseUrl, callback, a.jar);
    expect(flow.location).toBe('/auth/callback?error=1');
    expect(flow.sessionCookie).toBeNull();
    expect(await profileCount()).toBe(0);
  });

  it('sends the user back with ?error=1 when they cancel at Google', async () => {
    const { authorizeUrl, jar } = await startGoogleFlow(baseUrl);
    const callback = new URL('/auth/google/callback', 'http://tribuna.test');
    callback.searchParams.set('error', 'access_denied');
    callback.searchParams.set('state', authorizeUrl.searchParams.get('state')!);
    const flow = await finishGoogleFlow(baseUrl, callback, jar);
    expect(flow.location).toBe('/auth/callback?error=1');
    expect(flow.jar.has('tribuna_oauth_state')).toBe(false);
  });

  it.each([
    ['a repeated state', (url: URL) => url.searchParams.append('state', 'second')],
    ['a repeated code', (url: URL) => url.searchParams.append('code', 'second')],
    ['an over-long code', (url: URL) => url.searchParams.set('code', 'c'.repeat(4097))],
    ['an over-long state', (url: URL) => url.searchParams.set('state', 's'.repeat(1025))],
  ])('ends a callback with %s on the failure page, not a JSON error, and signs nobody in', async (_name, mangle) => {
    const { authorizeUrl, jar } = await startGoogleFlow(baseUrl);
    const callback = await authorizeAtProvider(authorizeUrl);
    mangle(callback);
    const flow = await finishGoogleFlow(baseUrl, callback, jar);
    expect(flow.location).toBe('/auth/callback?error=1');
    expect(flow.sessionCookie).toBeNull();
    expect(await profileCount()).toBe(0);
  });

  describe('id_token verification', () => {
    async function expectRefused(): Promise<void> {
      const flow = await googleSignIn(baseUrl);
      expect(flow.location).toBe('/auth/callback?error=1');
      expect(flow.sessionCookie).toBeNull();
      expect(await profileCount()).toBe(0);
    }

    it('refuses an id_token whose signature is not the issuer key (same kid, another key)', async () => {
      const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      provider.nextTokenResponse((response) => {
        const body = response.body as Record<string, string>;
        const [header, payload] = body.id_token!.split('.');
        const signer = createSign('RSA-SHA256');
        signer.update(`${header}.${payload}`);
        body.id_token = `${header}.${payload}.${signer.sign(privateKey).toString('base64url')}`;
      });
      await expectRefused();
    });

    it('refuses an id_token with a flipped signature byte', async () => {
      provider.nextTokenResponse((response) => {
        const body = response.body as Record<string, string>;
        const [header, payload, signature] = body.id_token!.split('.');
        const bytes = Buffer.from(signature!, 'base64url');
        bytes[10] = bytes[10]! ^ 0xff;
        body.id_token = `${header}.${payload}.${bytes.toString('base64url')}`;
      });
      await expectRefused();
    });

    it('refuses an expired id_token (beyond the clock tolerance)', async () => {
      const now = Math.floor(Date.now() / 1000);
      provider.nextIdToken({ iat: now - 7200, nbf: now - 7200, exp: now - 120 });
      await expectRefused();
    });

    it('accepts an id_token expired by a few seconds only (clock tolerance)', async () => {
      // A frozen clock: 5 s past expiry when checked too, however slow the sign-in's round trips.
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
      try {
        const now = Math.floor(Date.now() / 1000);
        provider.nextIdToken({ iat: now - 3600, exp: now - 5 });
        const flow = await googleSignIn(baseUrl);
        expect(flow.location).toBe('/auth/callback');
      } finally {
        vi.useRealTimers();
      }
    });

    it('refuses an id_token issued to another client (audience)', async () => {
      provider.nextIdToken({ aud: 'someone-else.apps.googleusercontent.com' });
      await expectRefused();
    });

    it('refuses an id_token from another issuer', async () => {
      provider.nextIdToken({ iss: 'https://evil.example' });
      await expectRefused();
    });

    it('refuses an id_token whose nonce is not the one of this browser', async () => {
      provider.nextIdToken({ nonce: 'replayed-nonce-from-another-sign-in' });
      await expectRefused();
    });

    it('refuses an id_token without a nonce', async () => {
      provider.nextIdToken((token) => {
        delete token.payload.nonce;
      });
      await expectRefused();
    });

    it('refuses an unsigned (alg none) id_token', async () => {
      provider.nextTokenResponse((response) => {
        const body = response.body as Record<string, string>;
        const [, payload] = body.id_token!.split('.');
        const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
        body.id_token = `${header}.${payload}.`;
      });
      await expectRefused();
    });
  });
});

describe('Google sign-in when GOOGLE_CLIENT_ID is not set', () => {
  let app: App;
  useApp({ GOOGLE_CLIENT_ID: undefined, GOOGLE_CLIENT_SECRET: undefined }, (built) => (app = built));

  it('starts without crashing and sends /auth/google to the login page with an explanation', async () => {
    const res = await app.inject({ method: 'GET', url: '/auth/google' });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/login?error=google_not_configured');
  });

  it('answers a stray callback with ?error=1', async () => {
    const res = await app.inject({ method: 'GET', url: '/auth/google/callback?code=x&state=y' });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/auth/callback?error=1');
  });
});

describe('Google sign-in when the issuer cannot be discovered at start', () => {
  it('starts anyway (the rest of the site works) and fails sign-in with ?error=1', async () => {
    const app = await buildApp(testConfig({ OIDC_ISSUER: 'http://127.0.0.1:1', GOOGLE_CLIENT_ID: TEST_CLIENT_ID, GOOGLE_CLIENT_SECRET: 's' }));
    try {
      const res = await app.inject({ method: 'GET', url: '/auth/google' });
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe('/auth/callback?error=1');
      expect((await app.inject({ method: 'GET', url: '/api/site' })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});
