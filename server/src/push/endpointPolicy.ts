import dns from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { PUSH_SERVICE_HOSTS } from '@tribuna/contracts/pushRules';

// A push subscription's endpoint is a URL the worker POSTs to on a fan's say-so: untrusted (SSRF).
// One policy for the server (when a device subscribes) and the worker (when it connects): https on
// a browser's push service (PUSH_SERVICE_HOSTS, the documented allowlist), default port, no
// credentials, and every address its name resolves to public. The origins of
// PUSH_TEST_ENDPOINT_ORIGINS (the tests' local push service; refused in production by the
// configuration) are accepted as they are, whatever their scheme and address, and only those.

/** Why an endpoint is refused (logged; the fan sees PUSH_ERRORS.endpointRefused). */
export type EndpointRefusal = 'malformed' | 'scheme' | 'credentials' | 'port' | 'host' | 'unresolved' | 'private-address';

export type EndpointVerdict = { ok: true; url: URL; testOrigin: boolean } | { ok: false; reason: EndpointRefusal };

/** Every address a name resolves to (dns.promises.lookup with `all`). */
export type ResolveAll = (hostname: string) => Promise<{ address: string; family: number }[]>;

export interface EndpointPolicyOptions {
  /** config.push.testEndpointOrigins: accepted whatever their scheme, host and address. */
  testEndpointOrigins: readonly string[];
  /** The push services' hosts (default PUSH_SERVICE_HOSTS): exact, or a subdomain of an entry starting with '.'. */
  hosts?: readonly string[];
  /** How names are resolved (default: the system's resolver, as connections do). */
  resolve?: ResolveAll;
  /** A resolution taking longer is a refusal ('unresolved'): a subscription never waits long on DNS. Default 3 s. */
  resolveTimeoutMs?: number;
}

const systemResolve: ResolveAll = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

/** Ranges that are not the public internet: private, loopback, link-local, CGNAT, documentation, multicast, reserved. */
const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');

/** The IPv4 address an IPv6 one carries (IPv4-mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16), if any. */
function embeddedIpv4(address: string): string | null {
  const groups = expandIpv6(address);
  if (!groups) return null;
  const v4 = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
  const zeros = (from: number, to: number) => groups.slice(from, to).every((g) => g === 0);
  if (zeros(0, 5) && groups[5] === 0xffff) return v4(groups[6]!, groups[7]!);
  if (groups[0] === 0x64 && groups[1] === 0xff9b && zeros(2, 6)) return v4(groups[6]!, groups[7]!);
  if (groups[0] === 0x2002) return v4(groups[1]!, groups[2]!);
  return null;
}

/** The eight 16-bit groups of an IPv6 address (a trailing dotted IPv4 part included), or null. */
function expandIpv6(address: string): number[] | null {
  let text = address.toLowerCase().split('%')[0]!;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail, extra] = text.split('::');
  if (extra !== undefined) return null;
  const parse = (part: string | undefined) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const left = parse(head);
  const right = parse(tail);
  const missing = 8 - left.length - right.length;
  if (tail === undefined ? missing !== 0 : missing < 1) return null;
  const groups = [...left, ...Array<number>(tail === undefined ? 0 : missing).fill(0), ...right];
  return groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

/** Whether an IP address is on the public internet (not private, loopback, link-local, reserved…). */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address.split('%')[0]!);
  if (family === 4) return !NOT_PUBLIC.check(address, 'ipv4');
  if (family !== 6) return false;
  const plain = address.split('%')[0]!;
  const v4 = embeddedIpv4(plain);
  if (v4 !== null) return isIP(v4) === 4 && !NOT_PUBLIC.check(v4, 'ipv4');
  return !NOT_PUBLIC.check(plain, 'ipv6');
}

/** Whether `hostname` is one of the push services' (exact, or a subdomain of an entry starting with '.'). */
export function isPushServiceHost(hostname: string, hosts: readonly string[] = PUSH_SERVICE_HOSTS): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return hosts.some((entry) => (entry.startsWith('.') ? host.endsWith(entry) && host.length > entry.length : host === entry));
}

export class EndpointPolicy {
  private readonly testOrigins: ReadonlySet<string>;
  private readonly hosts: readonly string[];
  private readonly resolve: ResolveAll;
  private readonly resolveTimeoutMs: number;

  constructor(options: EndpointPolicyOptions) {
    this.testOrigins = new Set(options.testEndpointOrigins);
    this.hosts = options.hosts ?? PUSH_SERVICE_HOSTS;
    this.resolve = options.resolve ?? systemResolve;
    this.resolveTimeoutMs = options.resolveTimeoutMs ?? 3000;
  }

  /** Whether the URL's origin is one of PUSH_TEST_ENDPOINT_ORIGINS (the address check does not apply to it). */
  isTestOrigin(url: URL | string): boolean {
    try {
      return this.testOrigins.has(new URL(url).origin);
    } catch {
      return false;
    }
  }

  /** What can be told without DNS: the URL's shape, scheme, port and host. */
  checkUrl(endpoint: string): EndpointVerdict {
    let url: URL;
    try {
      url = new URL(endpoint);
    } catch {
      return { ok: false, reason: 'malformed' };
    }
    if (this.testOrigins.has(url.origin)) return url.username || url.password ? { ok: false, reason: 'credentials' } : { ok: true, url, testOrigin: true };
    if (url.protocol !== 'https:') return { ok: false, reason: 'scheme' };
    if (url.username || url.password) return { ok: false, reason: 'credentials' };
    if (url.port !== '') return { ok: false, reason: 'port' };
    if (!isPushServiceHost(url.hostname, this.hosts)) return { ok: false, reason: 'host' };
    return { ok: true, url, testOrigin: false };
  }

  /** checkUrl, then every address the host resolves to must be public (a test origin's is not looked up). */
  async check(endpoint: string): Promise<EndpointVerdict> {
    const verdict = this.checkUrl(endpoint);
    if (!verdict.ok || verdict.testOrigin) return verdict;
    let addresses: { address: string }[];
    try {
      addresses = await resolveWithin(this.resolve(verdict.url.hostname), this.resolveTimeoutMs);
    } catch {
      return { ok: false, reason: 'unresolved' };
    }
    if (addresses.length === 0) return { ok: false, reason: 'unresolved' };
    if (!addresses.every(({ address }) => isPublicAddress(address))) return { ok: false, reason: 'private-address' };
    return verdict;
  }
}

function resolveWithin<T>(resolution: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`DNS resolution took over ${ms} ms`)), ms);
    timer.unref();
  });
  return Promise.race([resolution, timeout]).finally(() => clearTimeout(timer));
}

/** The error a connection gets from publicOnlyLookup for a name with a non-public address. */
export class PrivateAddressError extends Error {
  readonly code = 'EPRIVATEADDRESS';
  constructor(hostname: string, address: string) {
    super(`${hostname} resolves to ${address}, not a public address: refused`);
    this.name = 'PrivateAddressError';
  }
}

/**
 * A `lookup` for an http(s) Agent or net.connect that resolves as usual and fails the connection
 * when any address of the name is not public: the check happens on the very resolution the socket
 * connects with, so a name that answered a public address at subscription and a private one now
 * (DNS rebinding) is refused. IP literals are not resolved by Node (no lookup call): the endpoint
 * policy refuses them, as they are no push service's host.
 */
export function publicOnlyLookup(lookup: typeof dns.lookup = dns.lookup): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = addresses as unknown as dns.LookupAddress[];
      const refused = list.find(({ address }) => !isPublicAddress(address));
      if (refused) return callback(new PrivateAddressError(hostname, refused.address), '', 0);
      if (list.length === 0) return callback(Object.assign(new Error(`${hostname}: no address`), { code: 'ENOTFOUND' }), '', 0);
      if (options.all) return (callback as unknown as (e: null, all: dns.LookupAddress[]) => void)(null, list);
      const wanted = options.family === 6 || options.family === 'IPv6' ? 6 : options.family === 4 || options.family === 'IPv4' ? 4 : 0;
      const first = list.find(({ family }) => wanted === 0 || family === wanted) ?? list[0]!;
      callback(null, first.address, first.family);
    });
  };
}
