import type { FastifyReply, FastifyRequest } from 'fastify';
import { isLoopbackUrl, type Config } from '@tribuna/contracts/config';
import { HttpError } from './errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * true: answered whatever the Host header (health probes of load balancers and container
     * healthchecks, which name the container or its address). Only for routes that read nothing
     * private and change nothing.
     */
    anyHost?: boolean;
  }
}

export const UNKNOWN_HOST_MESSAGE = 'Unknown host';

/** One accepted Host: a lowercase name (IPv6 in brackets) and a port, or null for any port. */
export interface HostRule {
  hostname: string;
  port: string | null;
}

/** The port a browser leaves out of Host, by scheme. */
export const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' };

/** A Host header value split into name and port; null when it is not one (a path, userinfo, spaces…). */
const HOST_HEADER = /^([^\s:/?#@[\]\\]+|\[[0-9a-f:.]+\])(?::(\d{1,5}))?$/i;

function splitHost(value: string): { hostname: string; port: string | null } | null {
  const match = HOST_HEADER.exec(value);
  if (!match) return null;
  // A trailing dot names the same DNS name (an absolute one).
  const hostname = match[1]!.toLowerCase().replace(/(?<=[^.])\.$/, '');
  return { hostname, port: match[2] === undefined ? null : String(Number(match[2])) };
}

/**
 * The Host headers the server answers: PUBLIC_URL's host (the port a browser would send, which it
 * omits when it is the scheme's default) and ALLOWED_HOSTS (a name alone matches any port).
 */
export function allowedHostRules(config: Pick<Config, 'publicUrl' | 'allowedHosts'>): HostRule[] {
  const url = new URL(config.publicUrl);
  const rules: HostRule[] = [{ hostname: splitHost(url.hostname)?.hostname ?? url.hostname, port: url.port || DEFAULT_PORTS[url.protocol]! }];
  for (const entry of config.allowedHosts) {
    const split = splitHost(entry);
    if (split) rules.push(split);
  }
  return rules;
}

/**
 * Whether a Host header names this site. A browser omits the port when it is the default of the
 * scheme it used, which is PUBLIC_URL's (behind a TLS-terminating proxy too): a missing port means
 * `defaultPort`, that scheme's.
 */
export function isAllowedHost(host: string | undefined, rules: HostRule[], defaultPort: string): boolean {
  if (host === undefined) return false;
  const split = splitHost(host.trim());
  if (!split) return false;
  const port = split.port ?? defaultPort;
  return rules.some((rule) => rule.hostname === split.hostname && (rule.port === null || rule.port === port));
}

/**
 * onRequest hook answering 421 to any request, websocket upgrades included, whose Host header is not
 * this site's. It is what defeats DNS rebinding: a page of attacker.example whose name is made to
 * point at this server (at 127.0.0.1 on a developer's machine) is same-origin with itself, so the
 * browser lets it read our answers; but its requests say `Host: attacker.example`. The raw header
 * is read, never X-Forwarded-Host, which that very page could set.
 */
export function hostGuard(config: Pick<Config, 'publicUrl' | 'allowedHosts'>) {
  const rules = allowedHostRules(config);
  const defaultPort = DEFAULT_PORTS[new URL(config.publicUrl).protocol]!;
  const localSite = isLoopbackUrl(config.publicUrl);
  return async function refuseUnknownHost(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    if (request.routeOptions.config?.anyHost === true) return;
    if (isAllowedHost(request.headers.host, rules, defaultPort)) return;
    if (localSite && isPageRead(request) && isLoopbackHost(request.headers.host)) {
      // On a laptop, http://127.0.0.1:3000 when PUBLIC_URL says http://localhost:3000: send the
      // browser to the site's own address instead of a bare 421. Safe: a rebound page's requests
      // carry its own name, never a loopback address, and the target is always PUBLIC_URL.
      return reply.redirect(`${config.publicUrl}${request.url}`, 308);
    }
    // The answer names nothing; the log keeps the Host (the operator may need ALLOWED_HOSTS).
    request.log.info({ host: request.headers.host }, "Host is neither PUBLIC_URL's nor in ALLOWED_HOSTS");
    throw new HttpError(421, UNKNOWN_HOST_MESSAGE);
  };
}

const API_PATHS = /^\/(?:api|auth|ws)(?:[/?#]|$)/;

/** A browser opening a page (GET or HEAD outside the API): what a redirect can help. */
function isPageRead(request: FastifyRequest): boolean {
  return (request.method === 'GET' || request.method === 'HEAD') && request.url.startsWith('/') && !API_PATHS.test(request.url);
}

/** Whether a Host header names this machine: localhost (and *.localhost), 127.0.0.0/8 or [::1]. */
function isLoopbackHost(host: string | undefined): boolean {
  if (host === undefined) return false;
  const split = splitHost(host.trim());
  return split !== null && isLoopbackUrl(`http://${split.hostname}`);
}
