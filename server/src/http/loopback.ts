import { isIPv4, isIPv6 } from 'node:net';

const IPV4_LOOPBACK = /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;
const IPV4_MAPPED = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;

/** Whether an IP address is this machine's loopback: 127.0.0.0/8, ::1, or 127.x written as IPv4-mapped IPv6. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (address === undefined) return false;
  if (isIPv4(address)) return IPV4_LOOPBACK.test(address);
  if (!isIPv6(address)) return false;
  const mapped = IPV4_MAPPED.exec(address);
  if (mapped) return IPV4_LOOPBACK.test(mapped[1]!);
  // Every spelling of ::1 (0:0:0:0:0:0:0:1, ::0001…).
  return /^[0:]*:0*1$/.test(address);
}

/** What the loopback decision reads from a request (a FastifyRequest has it). */
export interface PeerInfo {
  socket: { remoteAddress?: string | undefined };
  /** The client's address: the socket's peer, or with TRUST_PROXY the address the trusted proxies report. */
  ip: string;
  headers: Record<string, string | string[] | undefined>;
}

/** Headers a proxy adds when it relays a request for someone else. */
const FORWARDING_HEADERS = ['forwarded', 'x-forwarded-for', 'x-real-ip'] as const;

/**
 * Whether a request comes from this machine itself: the socket's peer is loopback and, when
 * TRUST_PROXY names proxies, so is the client they report (request.ip). Without TRUST_PROXY a
 * request that a proxy relayed (it carries X-Forwarded-For, Forwarded or X-Real-IP) is not: a proxy
 * on this machine publishing the server would otherwise make every visitor look local.
 */
export function isLocalRequest(request: PeerInfo, trustProxy: boolean): boolean {
  if (!isLoopbackAddress(request.socket.remoteAddress)) return false;
  if (trustProxy) return isLoopbackAddress(request.ip);
  return FORWARDING_HEADERS.every((name) => request.headers[name] === undefined);
}
