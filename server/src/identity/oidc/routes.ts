import { randomBytes } from 'node:crypto';
import oauth2, { type OAuth2Namespace } from '@fastify/oauth2';
import type { FastifyPluginAsyncTypebox, Static } from '@fastify/type-provider-typebox';
import type { CookieSerializeOptions } from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App } from '../../app-types.ts';
import { openSession } from '../auth/service.ts';
import { errorResponses } from '../../http/errors.ts';
import { isHttps, setSessionCookie } from '../sessions/cookies.ts';
import { discover } from './discovery.ts';
import { createIdTokenVerifier, type IdTokenVerifier } from './idToken.ts';
import { CALLBACK_LIMITS, CallbackQuery, RedirectResponse } from './schemas.ts';
import { signInWithIdentity } from './service.ts';

/** The web route that finishes sign-in in the SPA (redirects by role). */
export const SIGNED_IN_REDIRECT = '/auth/callback';
export const FAILED_REDIRECT = '/auth/callback?error=1';
export const NOT_CONFIGURED_REDIRECT = '/login?error=google_not_configured';

export const STATE_COOKIE = 'tribuna_oauth_state';
export const VERIFIER_COOKIE = 'tribuna_oauth_verifier';
export const NONCE_COOKIE = 'tribuna_oauth_nonce';
/** The flow cookies only travel to /auth/google/* and live as long as a sign-in may reasonably take. */
const FLOW_COOKIE_PATH = '/auth/google';
const FLOW_COOKIE_MAX_AGE_SECONDS = 10 * 60;

interface Google {
  client: OAuth2Namespace;
  verifyIdToken: IdTokenVerifier;
  cookieOptions: CookieSerializeOptions;
}

/**
 * Discovers the issuer and registers @fastify/oauth2 (authorization code + PKCE S256 + state, in
 * signed httpOnly cookies). 'off' when Google is not configured, 'unavailable' when the issuer
 * cannot be discovered at start: the rest of the site keeps working either way.
 */
async function setUpGoogle(app: App): Promise<Google | 'off' | 'unavailable'> {
  const { googleClientId, googleClientSecret, oidcIssuer, publicUrl } = app.config;
  if (!googleClientId || !googleClientSecret) {
    app.log.info('Google sign-in is off: GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET are not both set');
    return 'off';
  }
  let metadata;
  try {
    metadata = await discover(oidcIssuer);
  } catch (err) {
    app.log.error({ err, issuer: oidcIssuer }, 'Google sign-in is unavailable until restart: OpenID discovery failed');
    return 'unavailable';
  }
  const cookieOptions: CookieSerializeOptions = {
    httpOnly: true,
    sameSite: 'lax',
    secure: isHttps(publicUrl),
    path: FLOW_COOKIE_PATH,
    maxAge: FLOW_COOKIE_MAX_AGE_SECONDS,
    signed: true,
  };
  const authorize = new URL(metadata.authorizationEndpoint);
  const token = new URL(metadata.tokenEndpoint);
  await app.register(oauth2, {
    name: 'google',
    scope: ['openid', 'email', 'profile'],
    credentials: {
      client: { id: googleClientId, secret: googleClientSecret },
      auth: {
        authorizeHost: authorize.origin,
        authorizePath: authorize.pathname,
        tokenHost: token.origin,
        tokenPath: token.pathname,
      },
    },
    callbackUri: `${publicUrl}/auth/google/callback`,
    pkce: 'S256',
    cookie: cookieOptions,
    redirectStateCookieName: STATE_COOKIE,
    verifierCookieName: VERIFIER_COOKIE,
  });
  const client = app.oauth2Google;
  if (!client) throw new Error('@fastify/oauth2 did not decorate oauth2Google');
  return { client, verifyIdToken: createIdTokenVerifier(metadata, googleClientId, oidcIssuer), cookieOptions };
}

/** A signed flow cookie's value, or null when missing or tampered with. */
function readSignedCookie(request: FastifyRequest, name: string): string | null {
  const raw = request.cookies[name];
  if (!raw) return null;
  const unsigned = request.unsignCookie(raw);
  return unsigned.valid ? unsigned.value : null;
}

function clearFlowCookies(reply: FastifyReply, options: CookieSerializeOptions): void {
  for (const name of [STATE_COOKIE, VERIFIER_COOKIE, NONCE_COOKIE]) reply.clearCookie(name, options);
}

/** The callback's parameters when each came once and within its length limit; null otherwise. */
function singleValues(query: Static<typeof CallbackQuery>): { code?: string; state?: string; error?: string } | null {
  const values: { code?: string; state?: string; error?: string } = {};
  for (const name of ['code', 'state', 'error'] as const) {
    const value = query[name];
    if (value === undefined) continue;
    if (typeof value !== 'string' || value.length > CALLBACK_LIMITS[name]) return null;
    values[name] = value;
  }
  return values;
}

/** Google sign-in: GET /auth/google starts it, GET /auth/google/callback finishes it. */
const googleRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const setUp = await setUpGoogle(app);
  const google = typeof setUp === 'string' ? null : setUp;
  const db = app.database.db;
  const { adminEmails, publicUrl } = app.config;

  app.get(
    '/auth/google',
    {
      schema: {
        tags: ['auth'],
        summary: 'Start Google sign-in (redirects to Google)',
        response: { 302: RedirectResponse, ...errorResponses(429) },
      },
      config: { rateLimit: 'auth.google-start' },
    },
    async (request, reply) => {
      if (setUp === 'off') return reply.redirect(NOT_CONFIGURED_REDIRECT);
      if (!google) return reply.redirect(FAILED_REDIRECT);
      const nonce = randomBytes(24).toString('base64url');
      // Sets the state and PKCE verifier cookies; the nonce is ours to add.
      const authorizationUri = new URL(await google.client.generateAuthorizationUri(request, reply));
      authorizationUri.searchParams.set('nonce', nonce);
      reply.setCookie(NONCE_COOKIE, nonce, google.cookieOptions);
      reply.header('cache-control', 'no-store');
      return reply.redirect(authorizationUri.toString());
    },
  );

  app.get(
    '/auth/google/callback',
    {
      schema: {
        tags: ['auth'],
        summary: "Google's redirect back: opens a session, then redirects to /auth/callback (?error=1 on failure)",
        querystring: CallbackQuery,
        response: { 302: RedirectResponse, ...errorResponses(429) },
      },
      config: { rateLimit: 'auth.google-callback' },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const fail = (reason: string, detail: Record<string, unknown> = {}) => {
        request.log.warn({ reason, ...detail }, 'Google sign-in failed');
        if (google) clearFlowCookies(reply, google.cookieOptions);
        return reply.redirect(FAILED_REDIRECT);
      };
      if (!google) return fail('Google sign-in is not configured');
      const query = singleValues(request.query);
      if (!query) return fail('malformed callback query');
      if (query.error) return fail('the provider answered with an error', { error: query.error });
      if (!query.code || !query.state) return fail('missing code or state');
      const nonce = readSignedCookie(request, NONCE_COOKIE);
      if (!nonce) return fail('missing or tampered nonce cookie');

      let idToken: string | undefined;
      try {
        // Checks the state against its cookie, then exchanges the code with the PKCE verifier.
        const token = await google.client.getAccessTokenFromAuthorizationCodeFlow(request, reply);
        idToken = token.token.id_token;
      } catch (err) {
        return fail('state check or code exchange refused', { err: { message: (err as Error).message } });
      }
      if (!idToken) return fail('token response without id_token');

      let identity;
      try {
        identity = await google.verifyIdToken(idToken, nonce);
      } catch (err) {
        const error = err as Error & { code?: string };
        return fail('id_token refused', { err: { name: error.name, code: error.code, message: error.message } });
      }

      let userId: string;
      let created: boolean;
      let session;
      try {
        ({ userId, created } = await signInWithIdentity(db, identity, adminEmails));
        session = await openSession(db, app.sessionCache, userId, {
          userAgent: request.headers['user-agent'],
          ip: request.ip,
          previousSessionId: request.authSession?.id ?? null,
        });
      } catch (err) {
        request.log.error({ err }, 'Google sign-in could not be stored');
        return fail('storing the sign-in failed');
      }
      clearFlowCookies(reply, google.cookieOptions);
      setSessionCookie(reply, publicUrl, session.token, session.expiresAt);
      request.log.info({ userId, created, mfaPending: session.mfaPending }, 'Google sign-in');
      return reply.redirect(SIGNED_IN_REDIRECT);
    },
  );
};

export default googleRoutes;
