import { randomUUID } from 'node:crypto';
import { OAuth2Server, type MutableResponse, type MutableToken } from 'oauth2-mock-server';
import { afterAll, beforeAll } from 'vitest';
import { SESSION_COOKIE } from '../../../server/src/identity/sessions/constants.ts';
import { useListeningTestApp, type ListeningTestApp, type TestAppOptions, type TestEnv } from './harness.ts';
import { parseSetCookies, type ParsedSetCookie } from './sessions.ts';

export const TEST_CLIENT_ID = 'tribuna-test-client.apps.googleusercontent.com';
export const TEST_CLIENT_SECRET = 'tribuna-test-client-secret';
/** PUBLIC_URL of OIDC tests: the provider redirects there, and the helpers re-target the listening app. */
export const TEST_PUBLIC_URL = 'http://tribuna.test';

type IdTokenTransform = (token: MutableToken) => void;

/**
 * A real OpenID Connect provider (oauth2-mock-server) on 127.0.0.1 standing in for Google: discovery,
 * JWKS, authorize (PKCE enforced) and token endpoints. Each id_token it signs takes the next queued
 * claims (`nextIdToken`), else a fresh random subject with a verified e-mail.
 */
export class MockOidcProvider {
  readonly server = new OAuth2Server();
  private readonly idTokens: IdTokenTransform[] = [];
  private readonly responses: ((response: MutableResponse) => void | Promise<void>)[] = [];

  static async start(): Promise<MockOidcProvider> {
    const provider = new MockOidcProvider();
    await provider.server.issuer.keys.generate('RS256');
    await provider.server.start(0, '127.0.0.1');
    provider.server.issuer.url = `http://127.0.0.1:${provider.server.address().port}`;
    provider.server.service.on('beforeTokenSigning', (token: MutableToken) => provider.onSigning(token));
    provider.server.service.on('beforeResponse', (response: MutableResponse) => {
      const tamper = provider.responses.shift();
      if (tamper) void tamper(response);
    });
    return provider;
  }

  get issuer(): string {
    return this.server.issuer.url!;
  }

  /** testConfig overrides pointing the app at this provider. */
  env(overrides: Record<string, string | undefined> = {}): Record<string, string | undefined> {
    return {
      OIDC_ISSUER: this.issuer,
      GOOGLE_CLIENT_ID: TEST_CLIENT_ID,
      GOOGLE_CLIENT_SECRET: TEST_CLIENT_SECRET,
      PUBLIC_URL: TEST_PUBLIC_URL,
      ...overrides,
    };
  }

  /** Claims (or a transform of header and payload) for the next id_token the provider signs. */
  nextIdToken(claims: Record<string, unknown> | IdTokenTransform): void {
    this.idTokens.push(typeof claims === 'function' ? claims : (token) => Object.assign(token.payload, claims));
  }

  /**
   * Changes the next token endpoint response before it is sent (e.g. swap the id_token for one
   * signed with another key). Synchronous: the response leaves right after the listeners run.
   */
  nextTokenResponse(tamper: (response: MutableResponse) => void): void {
    this.responses.push(tamper);
  }

  private onSigning(token: MutableToken): void {
    // The access token is signed first and carries `scope`; only id_tokens are customised.
    if ('scope' in token.payload) return;
    token.payload.sub = `google-${randomUUID()}`;
    token.payload.email = `${String(token.payload.sub)}@example.com`;
    token.payload.email_verified = true;
    token.payload.name = 'Fan de Prueba';
    const transform = this.idTokens.shift();
    transform?.(token);
  }

  async stop(): Promise<void> {
    if (this.server.listening) await this.server.stop();
  }
}

export interface OidcTestApp extends ListeningTestApp {
  provider: MockOidcProvider;
}

/**
 * useListeningTestApp with a MockOidcProvider started first, the app pointed at it (`provider.env(env)`),
 * and the provider stopped at the end:
 *
 *   useOidcTestApp({}, (ready) => ({ provider, app, baseUrl, database } = ready));
 */
export function useOidcTestApp(env: TestEnv, onReady: (ready: OidcTestApp) => void, options: TestAppOptions = {}): void {
  let provider: MockOidcProvider | undefined;
  beforeAll(async () => {
    provider = await MockOidcProvider.start();
  });
  afterAll(async () => {
    await provider?.stop();
  });
  useListeningTestApp(
    () => provider!.env(env),
    (ready) => onReady({ ...ready, provider: provider! }),
    options,
  );
}

export type CookieJar = Map<string, string>;

function absorb(jar: CookieJar, response: Response): ParsedSetCookie[] {
  const cookies = parseSetCookies(response.headers.getSetCookie());
  for (const c of cookies) {
    if (c.value === '' || c.attributes['max-age'] === '0') jar.delete(c.name);
    else jar.set(c.name, c.value);
  }
  return cookies;
}

export function cookieHeader(jar: CookieJar): string {
  return [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
}

export interface StartedFlow {
  /** The provider's authorization URL the app redirected to. */
  authorizeUrl: URL;
  /** The flow cookies (state, verifier, nonce) the browser now holds. */
  jar: CookieJar;
}

/** Step 1: GET /auth/google on the listening app. */
export async function startGoogleFlow(baseUrl: string, jar: CookieJar = new Map()): Promise<StartedFlow> {
  const res = await fetch(`${baseUrl}/auth/google`, { redirect: 'manual', headers: { cookie: cookieHeader(jar) } });
  if (res.status !== 302) throw new Error(`/auth/google answered ${res.status}`);
  absorb(jar, res);
  return { authorizeUrl: new URL(res.headers.get('location')!), jar };
}

/** Step 2: the provider's authorize endpoint (the user consents) redirects back with code and state. */
export async function authorizeAtProvider(authorizeUrl: URL): Promise<URL> {
  const res = await fetch(authorizeUrl, { redirect: 'manual' });
  if (res.status !== 302) throw new Error(`authorize answered ${res.status}: ${await res.text()}`);
  return new URL(res.headers.get('location')!);
}

export interface FinishedFlow {
  status: number;
  /** Where the app sent the browser: /auth/callback or /auth/callback?error=1. */
  location: string | null;
  /** `tribuna_session=<token>` when a session was opened. */
  sessionCookie: string | null;
  setCookies: ParsedSetCookie[];
  jar: CookieJar;
}

/** Step 3: the provider's redirect lands on the app's callback (re-targeted at `baseUrl`) with the browser's cookies. */
export async function finishGoogleFlow(baseUrl: string, callbackUrl: URL, jar: CookieJar): Promise<FinishedFlow> {
  const target = new URL(`${callbackUrl.pathname}${callbackUrl.search}`, baseUrl);
  const res = await fetch(target, { redirect: 'manual', headers: { cookie: cookieHeader(jar) } });
  const setCookies = absorb(jar, res);
  const session = jar.get(SESSION_COOKIE);
  return {
    status: res.status,
    location: res.headers.get('location'),
    sessionCookie: session ? `${SESSION_COOKIE}=${session}` : null,
    setCookies,
    jar,
  };
}

/**
 * The whole authorization-code flow as a browser runs it: /auth/google → provider → callback.
 * Queue the id_token claims with `provider.nextIdToken(...)` first.
 */
export async function googleSignIn(baseUrl: string, jar: CookieJar = new Map()): Promise<FinishedFlow> {
  const started = await startGoogleFlow(baseUrl, jar);
  const callback = await authorizeAtProvider(started.authorizeUrl);
  return finishGoogleFlow(baseUrl, callback, started.jar);
}
