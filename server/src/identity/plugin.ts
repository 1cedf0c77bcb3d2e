import fp from 'fastify-plugin';
import cookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction, RouteOptions } from 'fastify';
import type { Role } from '@tribuna/contracts/roles';
import { MODERATION_MESSAGES } from '@tribuna/contracts/moderationRules';
import type { RouteAudience } from '@tribuna/contracts/route';
export type { RouteAudience } from '@tribuna/contracts/route';
import { csrfGuard } from '../http/csrf.ts';
import { forbidden, unauthorized } from '../http/errors.ts';
import { clearSessionCookie, sessionCookieName, setSessionCookie } from './sessions/cookies.ts';
import { SessionCache } from './sessions/cache.ts';
import { SessionChangeListener } from './sessions/listener.ts';
import { SessionLookups } from './sessions/lookups.ts';
import { resolveSession, type AuthUser, type SessionInfo } from './sessions/service.ts';

export type { AuthUser, SessionInfo } from './sessions/service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user of a full session, or null (visitors and sign-ins still owing a second factor). */
    user: AuthUser | null;
    /** The session behind the cookie, full or waiting for its second factor; null for visitors. */
    authSession: SessionInfo | null;
  }
  interface FastifyInstance {
    /**
     * This instance's resolved sessions kept in memory (sessions/cache.ts): what changes a session
     * or a user's rights invalidates it before its write (the sessions service), the listener
     * evicts what commits anywhere, the live layer hears those changes.
     */
    sessionCache: SessionCache;
    /** This instance's batched session lookups (one query per event-loop turn for uncached sessions). */
    sessionLookups: SessionLookups;
    /** This instance's LISTEN for session changes (revocations, suspensions) committed anywhere. */
    sessionChanges: SessionChangeListener;
  }
  interface FastifyContextConfig {
    /** false: this route never needs the caller's identity (health probes keep working with PostgreSQL down). */
    session?: boolean;
    /**
     * Who may call this route (checked in onRequest, after the rate limit and before the body is
     * read or validated: a visitor gets 401 'User not authenticated', never a schema error):
     * 'session' any live session (a sign-in still owing its second factor too), 'user' a full
     * session, 'writer' a full session of an account that is not suspended (else 403). Routes of
     * everyone leave it out; /api/admin/* has its own guard (identity/adminGuard.ts).
     */
    audience?: RouteAudience;
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
  const token = request.cookies[sessionCookieName(request.server.config.publicUrl)];
  if (!token) return;
  const route = request.routeOptions.url;
  if (route === undefined || !IDENTITY_ROUTES.test(route)) return;

  const { config, sessionLookups, sessionCache } = request.server;
  const resolved = await resolveSession(sessionLookups, sessionCache, token);
  if (!resolved) {
    // Expired, revoked or unknown: tidy the browser up; the request goes on as a visitor.
    clearSessionCookie(reply, config.publicUrl);
    return;
  }
  request.authSession = resolved.session;
  request.user = resolved.user;
  if (resolved.refreshedUntil) setSessionCookie(reply, config.publicUrl, token, resolved.refreshedUntil);
}

/** /api/admin/*: every answer is the back-office's (the admin guard refuses anybody else). */
const ADMIN_ROUTES = /^\/api\/admin(?:\/|$)/;

/**
 * Answers carrying a reader's personal data (their profile, votes, notifications, factors, their
 * own reactions in the feed, the back-office) are never stored by a browser or proxy cache:
 * every answer to a request with a session, and every /api/admin answer, says `no-store` unless
 * its route chose its own Cache-Control. Sessions are only resolved on /api, /auth and /ws routes,
 * so static files, /media and the public reads of signed-out readers keep their caching.
 */
function noStoreForPersonalAnswers(request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: null, payload: unknown) => void): void {
  if (!reply.hasHeader('cache-control') && (request.authSession !== null || ADMIN_ROUTES.test(request.routeOptions.url ?? ''))) {
    reply.header('cache-control', 'no-store');
  }
  done(null, payload);
}

/**
 * Adds the check of `config.audience` to a route as its own onRequest hook. The rate-limit plugin,
 * registered later, puts its check before this one: a flood of refused calls is still limited.
 */
function guardAudience(route: RouteOptions): void {
  const audience = route.config?.audience;
  if (audience === undefined) return;
  const guard = AUDIENCE_GUARDS[audience];
  if (!guard) throw new Error(`${String(route.method)} ${route.url}: unknown config.audience "${String(audience)}"`);
  const check = (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
    try {
      guard(request);
    } catch (err) {
      done(err as Error);
      return;
    }
    done();
  };
  const own = route.onRequest;
  // A new array: the HEAD twin of a GET route is built from the same options and gets its own pass.
  route.onRequest = own === undefined ? [check] : [...(Array.isArray(own) ? own : [own]), check];
}

/**
 * Every instance forgets cached sessions when a revocation, level, role or suspension change
 * commits anywhere (PostgreSQL NOTIFY from triggers). If PostgreSQL is down at start the server
 * still starts and the listener keeps retrying (see SessionChangeListener).
 */
async function listenForAuthChanges(app: FastifyInstance): Promise<void> {
  const listener = new SessionChangeListener(app.config.databaseUrl, app.sessionCache, app.log);
  app.decorate('sessionChanges', listener);
  app.addHook('onClose', async () => {
    await listener.close();
  });
  await listener.start();
}

/**
 * Cookies, cross-site request refusal and session resolution for every request: the cookie
 * (`tribuna_session`, `__Host-tribuna_session` over https) is resolved into `request.user` / `request.authSession` before any route runs.
 */
export default fp(
  async (app) => {
    await app.register(cookie, { secret: app.config.sessionSecret });
    app.decorateRequest('user', null);
    app.decorateRequest('authSession', null);
    // One per app: two apps in one process (tests) are two instances, each fed by its own listener.
    app.decorate('sessionCache', new SessionCache());
    const sessionLookups = new SessionLookups(app.database.db, app.log);
    app.decorate('sessionLookups', sessionLookups);
    // Before the database plugin closes the pool (it registered first, so it closes last).
    app.addHook('onClose', () => sessionLookups.flushTouches());
    app.addHook('onRequest', csrfGuard(app.config.publicUrl));
    app.addHook('onRequest', resolveRequestSession);
    app.addHook('onRoute', guardAudience);
    app.addHook('onSend', noStoreForPersonalAnswers);
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

/**
 * Route guard for what a silenced account may not do (issue 29: posting, commenting, reacting): a
 * writer (requireWriter) whose moderation silence, if any, has ended; else 403 telling until when.
 * The silence ends by time alone: nothing runs when it does.
 */
export function requireSpeaker(request: FastifyRequest, now = new Date()): AuthUser {
  const user = requireWriter(request);
  if (isSilenced(user, now)) throw forbidden(MODERATION_MESSAGES.silenced(user.silencedUntil!.toISOString()));
  return user;
}

/** Whether the user is silenced by moderation at `now`. */
export function isSilenced(user: Pick<AuthUser, 'silencedUntil'>, now = new Date()): boolean {
  return user.silencedUntil !== null && user.silencedUntil.getTime() > now.getTime();
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

const AUDIENCE_GUARDS: Record<RouteAudience, (request: FastifyRequest) => unknown> = {
  session: requireSession,
  user: requireUser,
  writer: requireWriter,
};
