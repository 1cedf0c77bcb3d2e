import type { FastifyRequest } from 'fastify';
import { forbidden } from './errors.ts';

/**
 * Cross-site request hygiene for mutations accepted from visitors: the request must carry
 * `X-Requested-With` (a header a cross-site HTML form cannot set) or an `Origin` of this site.
 */
export function isSameSiteRequest(request: FastifyRequest, publicUrl: string): boolean {
  if (request.headers['x-requested-with']) return true;
  const origin = request.headers.origin;
  if (!origin) return false;
  try {
    const url = new URL(origin);
    return url.origin === new URL(publicUrl).origin || url.host === request.headers.host;
  } catch {
    return false;
  }
}

/** preHandler rejecting cross-site requests with 403. */
export async function requireSameSite(this: { config: { publicUrl: string } }, request: FastifyRequest): Promise<void> {
  if (!isSameSiteRequest(request, this.config.publicUrl)) throw forbidden('Cross-site request refused');
}
