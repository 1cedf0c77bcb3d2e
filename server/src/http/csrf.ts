import type { FastifyRequest } from 'fastify';
import { forbidden } from './errors.ts';

export const CROSS_SITE_MESSAGE = 'Cross-site request refused';

/**
 * How a route is protected against cross-site requests (route `config.csrf`):
 * - 'strict' (the default for every mutation under /api and /auth): the request must carry
 *   `X-Requested-With` (a header a cross-site form cannot set, and that a cross-site script can only
 *   send after a CORS preflight we never allow) AND, when an Origin is present, it must be ours.
 * - 'beacon': for navigator.sendBeacon, which cannot set headers: a same-site Origin is enough.
 */
export type CsrfPolicy = 'strict' | 'beacon';

declare module 'fastify' {
  interface FastifyContextConfig {
    csrf?: CsrfPolicy;
  }
}

const MUTATIONS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const PROTECTED_ROUTES = /^\/(?:api|auth)(?:\/|$)/;

/**
 * An Origin header naming this site: PUBLIC_URL's origin, and nothing else. Never the request's own
 * Host: a page of a DNS-rebound name sends a Host and an Origin that match each other.
 */
export function isOwnOrigin(origin: string, publicUrl: string): boolean {
  try {
    return new URL(origin).origin === new URL(publicUrl).origin;
  } catch {
    // "null" (sandboxed documents, some redirects) and garbage are never ours.
    return false;
  }
}

/** Whether a request passes the route's cross-site policy. */
export function passesCsrfPolicy(request: FastifyRequest, publicUrl: string, policy: CsrfPolicy = 'strict'): boolean {
  const origin = request.headers.origin;
  if (origin !== undefined && !isOwnOrigin(origin, publicUrl)) return false;
  const hasHeader = typeof request.headers['x-requested-with'] === 'string' && request.headers['x-requested-with'] !== '';
  if (policy === 'beacon') return hasHeader || origin !== undefined;
  return hasHeader;
}

/**
 * onRequest hook enforcing the policy on every cookie-authenticated mutation (POST, PUT, PATCH,
 * DELETE of a route under /api and /auth), once for the whole app: a new route cannot forget it.
 * It decides by the matched route, never by the raw URL: the router percent-decodes the path, so
 * `/%61pi/page-views` runs the `/api/page-views` route.
 */
export function csrfGuard(publicUrl: string) {
  return async function csrf(request: FastifyRequest): Promise<void> {
    if (!MUTATIONS.has(request.method)) return;
    const route = request.routeOptions.url;
    // No route: nothing will happen but a 404.
    if (route === undefined || !PROTECTED_ROUTES.test(route)) return;
    if (!passesCsrfPolicy(request, publicUrl, request.routeOptions.config?.csrf)) throw forbidden(CROSS_SITE_MESSAGE);
  };
}
