import fp from 'fastify-plugin';
import cookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Role } from '@tribuna/contracts/roles';
import { csrfGuard } from '../http/csrf.ts';
import { forbidden, unauthorized } from '../http/errors.ts';
import { clearSessionCookie, setSessionCookie } from '../sessions/cookies.ts';
import { sessionCache } from '../sessions/cache.ts';
import { SESSION_COOKIE } from '../sessions/constants.ts';
import { SessionChangeListener } from '../sessions/listener.ts';
import { SessionLookups } from '../sessions/lookups.ts';
import { resolveSession, type AuthUser, type SessionInfo } from '../sessions/service.ts';

export type { AuthUser, SessionInfo } from '../sessions/service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user of a full session, or null (visitors and sign-ins still owing a second factor). */
    user: AuthUser | null;
    /** The session behind the cookie, full or waiting for its second factor; null for visitors. */
    authSession: SessionInfo | null;
  }
  interface FastifyInstance {
    /** This instance's batched session lookups (one query per event-loop turn for uncached sessions). */
    sessionLookups: SessionLookups;
    /** This instance's LISTEN for session changes (revocations, suspensions) committed anywhere. */
    sessionChanges: SessionChangeListener;
  }
  interface FastifyContextConfig {
    /** false: this route never needs the caller's identity (health probes keep working with PostgreSQL down). */
    session?: boolean;
  }
}

export const NOT_AUTHENTICATED = 'User not authenticated';
export const NOT_AUTHORIZED = 'Unauthorized';
export const SUSPENDED_MESSAGE = 'Tu cuenta está suspendida. No puedes realizar esta acción.';

/**
 * Only routes under these paths ever need the caller's identity; static files, SPA pages and 404s
 * skip the query. Tested on the matched route, never on the raw URL (which may be percent-encoded).
 */
const IDENTITY_ROUTES = /^\/(?:api|auth|ws)(?:\/|$)/;

async function resolveRequestSession(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (request.routeOptions.config?.session === false) return;
  const token = request.cookies[SESSION_COOKIE];
  if (!token) return;
  const route = request.routeOptions.url;
  if (route === undefined || !IDENTITY_ROUTES.test(route)) return;

  const { config, sessionLookups } = request.server;
  const resolved = await resolveSession(sessionLookups, token);
  if (!resolved) {
    // Expired, revoked or unknown: tidy the browser up; the request goes on as a visitor.
    clearSessionCookie(reply, config.publicUrl);
    return;
  }
  request.authSession = resolved.session;
  request.user = resolved.user;
  if (resolved.refreshedUntil) setSessionCookie(reply, config.publicUrl, token, resolved.refreshedUntil);
}

/**
 * Every instance forgets cached sessions when a revocation, level, role or suspension change
 * commits anywhere (PostgreSQL NOTIFY from triggers). If PostgreSQL is down at start the server
 * still starts and the listener keeps retrying (see SessionChangeListener).
 */
async function listenForAuthChanges(app: FastifyInstance): Promise<void> {
  const listener = new SessionChangeListener(app.config.databaseUrl, sessionCache, app.log);
  app.decorate('sessionChanges', listener);
  app.addHook('onClose', async () => {
    await listener.close();
  });
  await listener.start();
}

/**
 * Cookies, cross-site request refusal and session resolution for every request: the cookie
 * `tribuna_session` is resolved into `request.user` / `request.authSession` before any route runs.
 */
export default fp(
  async (app) => {
    await app.register(cookie, { secret: app.config.sessionSecret });
    app.decorateRequest('user', null);
    app.decorateRequest('authSession', null);
    const sessionLookups = new SessionLookups(app.database.db, app.log);
    app.decorate('sessionLookups', sessionLookups);
    // Before the database plugin closes the pool (it registered first, so it closes last).
    app.addHook('onClose', () => sessionLookups.flushTouches());
    app.addHook('onRequest', csrfGuard(app.config.publicUrl));
    app.addHook('onRequest', resolveRequestSession);
    await listenForAuthChanges(app);
  },
  { name: 'auth', dependencies: ['config', 'db'] },
);

/** Route guard: the signed-in user, or 401 'User not authenticated'. */
export function requireUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw unauthorized(NOT_AUTHENTICATED);
  return request.user;
}

/** Route guard for anything that writes content: signed in and not suspended (403 in Spanish). */
export function requireWriter(request: FastifyRequest): AuthUser {
  const user = requireUser(request);
  if (user.isSuspended) throw forbidden(SUSPENDED_MESSAGE);
  return user;
}

/** The spec's role rule: admin passes any requirement, moderator passes only a moderator requirement. */
export function hasRole(actual: Role, required: Role): boolean {
  return actual === 'admin' || actual === required;
}

/**
 * Route guard builder: `requireRole('admin')(request)`. Visitors get 401, other roles 403
 * 'Unauthorized'; a suspended account holds no role powers.
 */
export function requireRole(role: Role): (request: FastifyRequest) => AuthUser {
  return (request) => {
    const user = requireUser(request);
    if (!hasRole(user.role, role)) throw forbidden(NOT_AUTHORIZED);
    if (user.isSuspended) throw forbidden(SUSPENDED_MESSAGE);
    return user;
  };
}

/** Guard for the second-factor steps: any live session, including a sign-in still owing its code. */
export function requireSession(request: FastifyRequest): SessionInfo {
  if (!request.authSession) throw unauthorized(NOT_AUTHENTICATED);
  return request.authSession;
}
