import type { FastifyRequest } from 'fastify';

/**
 * Query parameters whose values are credentials: the OAuth callback's authorization code and
 * state (a code plus the browser's flow cookies is a sign-in), and any token a link may carry.
 */
const SECRET_PARAMS = new Set(['code', 'state', 'token', 'access_token', 'id_token', 'refresh_token']);
const REDACTED = '[REDACTED]';

/** `url` with the values of SECRET_PARAMS in its query string replaced by [REDACTED]. */
export function redactUrl(url: string): string {
  const queryStart = url.indexOf('?');
  if (queryStart === -1) return url;
  const query = url
    .slice(queryStart + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq === -1 ? pair : pair.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        // A malformed name is logged as sent.
      }
      return SECRET_PARAMS.has(decoded.toLowerCase()) ? `${name}=${REDACTED}` : pair;
    })
    .join('&');
  return `${url.slice(0, queryStart + 1)}${query}`;
}

/** Fastify's request serializer for logs, with secret query values redacted. */
export function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
