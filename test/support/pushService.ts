import { createECDH, createPublicKey, randomBytes, verify, type ECDH, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decrypt } from 'http_ece';

/**
 * A local push service (RFC 8030) for tests and benchmarks: what a browser vendor's service does
 * with the requests our worker sends, for real.
 *
 * - `POST /push/<token>` with `TTL` (required), `Urgency`, `Topic`, `Content-Encoding: aes128gcm`
 *   and VAPID `Authorization: vapid t=<jwt>, k=<key>` (RFC 8292): the ES256 JWT is verified with the
 *   `k` key, its `aud` must be this service's origin, its `exp` in the next 24 hours; a subscription
 *   created with an applicationServerKey accepts only that key (403 otherwise).
 * - The body is decrypted (RFC 8291 aes128gcm, with the subscription's private ECDH key and auth
 *   secret, by the `http_ece` package): a body that does not decrypt is refused (400).
 * - A delivery is answered 201 with a `Location`, recorded in `received()` (the raw log: every
 *   accepted request, in order) and stored for the device in `stored()` with RFC 8030 topic
 *   semantics: a stored, not yet read message with the same topic is replaced by the newer one.
 *   `read()` is the device coming online (returns the stored messages and empties its store).
 * - `respondWith()` makes a subscription answer 410, 404, 429 (with Retry-After), 500… instead.
 *
 * Kept cheap per request (a verified Authorization header is not verified again until its `exp`;
 * JSON payloads parsed once) so a benchmark can push 100,000 messages through it.
 */

/** What `PushManager.subscribe()` gives a browser page, serialised (`subscription.toJSON()`). */
export interface BrowserSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

type SubscriptionRef = BrowserSubscription | string;

/** A push message the service accepted (201), decrypted. */
export interface ReceivedPush {
  /** The push message resource's id (the `Location` of the 201). */
  messageId: number;
  endpoint: string;
  ttl: number;
  urgency: 'very-low' | 'low' | 'normal' | 'high';
  topic: string | null;
  /** The decrypted body, as text, and parsed as JSON (null if it is not JSON). */
  text: string;
  data: unknown;
  /** The VAPID public key (base64url, the `k` parameter) the request was signed with. */
  vapidKey: string;
  /** The JWT's `sub` (mailto: or https:). */
  vapidSubject: string;
  receivedAt: number;
}

/** A request the service did not accept: its status and why (payload decrypted when it could be). */
export interface RefusedPush {
  endpoint: string;
  status: number;
  reason: string;
  topic: string | null;
  text: string | null;
  data: unknown;
  at: number;
}

export interface RespondWithOptions {
  /** How many requests get this answer (default: all, until `respondWith(sub, null)`). */
  times?: number;
  /** The `Retry-After` header (seconds) of a 429 or 503. */
  retryAfter?: number;
}

export interface PushServiceCounts {
  /** Every POST to a push resource. */
  requests: number;
  /** Accepted (201). */
  delivered: number;
  /** Refused, by status. */
  refused: Record<number, number>;
  /** Distinct VAPID Authorization headers verified (a sender reusing its JWT per origin: one). */
  vapidTokens: number;
}

export interface PushService {
  /** `http://127.0.0.1:<port>`: the origin to put in PUSH_TEST_ENDPOINT_ORIGINS and the VAPID `aud`. */
  readonly origin: string;
  /**
   * A new device: a P-256 key pair and a 16-byte auth secret, as a browser's subscription. With
   * `applicationServerKey` (the VAPID public key, base64url), requests signed with another key get 403.
   */
  newSubscription(options?: { applicationServerKey?: string }): BrowserSubscription;
  /** The raw log: every accepted message, in arrival order (of one subscription, or all). */
  received(subscription?: SubscriptionRef): ReceivedPush[];
  /** Requests refused (of one subscription, or all). */
  refused(subscription?: SubscriptionRef): RefusedPush[];
  /** The messages the service holds for the device (topic replacement applied, expired ones gone). */
  stored(subscription: SubscriptionRef): ReceivedPush[];
  /** The device connects: its stored messages, after which it holds none. */
  read(subscription: SubscriptionRef): ReceivedPush[];
  /** The next `times` requests (default: all) for this subscription get `status`; null: back to normal. */
  respondWith(subscription: SubscriptionRef, status: number | null, options?: RespondWithOptions): void;
  counts(): PushServiceCounts;
  /**
   * Resolves once `condition()` holds (checked now and after every request the service answers),
   * rejects after `timeoutMs`.
   */
  waitFor(condition: () => boolean, timeoutMs?: number): Promise<void>;
  /** Resolves once `n` messages (in total, since the start) were accepted. */
  waitForDeliveries(n: number, timeoutMs?: number): Promise<void>;
  /** Open client connections (a killed sender's are gone once the service has read all they sent). */
  connections(): Promise<number>;
  /** Forgets what was received, refused and stored (subscriptions stay). */
  reset(): void;
  close(): Promise<void>;
}

interface Device {
  endpoint: string;
  ecdh: ECDH;
  auth: string;
  applicationServerKey: string | null;
  received: ReceivedPush[];
  refused: RefusedPush[];
  stored: ReceivedPush[];
  override: { status: number; remaining: number; retryAfter: number | undefined } | null;
}

const URGENCIES = new Set(['very-low', 'low', 'normal', 'high']);
const TOPIC = /^[A-Za-z0-9_-]{1,32}$/;
/** RFC 8030 §7.2: a push service must accept 4096 bytes of payload (the encrypted body). */
const MAX_BODY = 4096;
const MAX_VAPID_LIFETIME_SECONDS = 24 * 60 * 60;

class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export async function startPushService(options: { port?: number; host?: string } = {}): Promise<PushService> {
  const host = options.host ?? '127.0.0.1';
  const devices = new Map<string, Device>();
  let messageSeq = 0;
  let requests = 0;
  let delivered = 0;
  let vapidTokens = 0;
  const refusedCounts: Record<number, number> = {};
  let allReceived: ReceivedPush[] = [];
  let allRefused: RefusedPush[] = [];
  const waiters = new Set<() => void>();
  // Authorization header → { exp, key, subject }: verified once, trusted until its exp.
  const verifiedAuth = new Map<string, { exp: number; key: string; subject: string }>();
  const publicKeys = new Map<string, KeyObject>();
  let origin = '';

  const deviceOf = (ref: SubscriptionRef): Device => {
    const endpoint = typeof ref === 'string' ? ref : ref.endpoint;
    const token = endpoint.slice(endpoint.lastIndexOf('/') + 1);
    const device = devices.get(token);
    if (!device) throw new Error(`unknown subscription ${endpoint}`);
    return device;
  };

  const notify = () => {
    for (const waiter of waiters) waiter();
  };

  const vapidKeyObject = (k: string): KeyObject => {
    let key = publicKeys.get(k);
    if (!key) {
      const raw = Buffer.from(k, 'base64url');
      if (raw.length !== 65 || raw[0] !== 4) throw new Refusal(401, 'VAPID k is not an uncompressed P-256 point');
      key = createPublicKey({
        key: { kty: 'EC', crv: 'P-256', x: raw.subarray(1, 33).toString('base64url'), y: raw.subarray(33).toString('base64url') },
        format: 'jwk',
      });
      publicKeys.set(k, key);
    }
    return key;
  };

  /** RFC 8292: `vapid t=<jwt>, k=<key>`; the JWT signed ES256 by k, aud = our origin, exp within 24 h. */
  const verifyVapid = (authorization: string | undefined): { key: string; subject: string } => {
    if (!authorization) throw new Refusal(401, 'no Authorization');
    const nowSeconds = Date.now() / 1000;
    const cached = verifiedAuth.get(authorization);
    if (cached) {
      if (cached.exp <= nowSeconds) throw new Refusal(401, 'VAPID JWT expired');
      return cached;
    }
    const match = /^vapid\s+(.+)$/i.exec(authorization.trim());
    if (!match) throw new Refusal(401, 'Authorization is not vapid');
    const params = new Map<string, string>();
    for (const part of match[1]!.split(',')) {
      const eq = part.indexOf('=');
      if (eq > 0) params.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
    }
    const t = params.get('t');
    const k = params.get('k');
    if (!t || !k) throw new Refusal(401, 'vapid t and k required');
    const [h, p, s] = t.split('.');
    if (!h || !p || !s) throw new Refusal(401, 'malformed JWT');
    let header: { alg?: string; typ?: string };
    let claims: { aud?: string; exp?: number; sub?: string };
    try {
      header = JSON.parse(Buffer.from(h, 'base64url').toString('utf8'));
      claims = JSON.parse(Buffer.from(p, 'base64url').toString('utf8'));
    } catch {
      throw new Refusal(401, 'JWT is not JSON');
    }
    if (header.alg !== 'ES256') throw new Refusal(401, `JWT alg ${String(header.alg)}`);
    const signature = Buffer.from(s, 'base64url');
    const ok = signature.length === 64 && verify('sha256', Buffer.from(`${h}.${p}`), { key: vapidKeyObject(k), dsaEncoding: 'ieee-p1363' }, signature);
    if (!ok) throw new Refusal(401, 'JWT signature does not verify with k');
    if (claims.aud !== origin) throw new Refusal(401, `JWT aud ${String(claims.aud)} is not ${origin}`);
    if (typeof claims.exp !== 'number' || claims.exp <= nowSeconds) throw new Refusal(401, 'JWT expired');
    if (claims.exp > nowSeconds + MAX_VAPID_LIFETIME_SECONDS + 60) throw new Refusal(401, 'JWT exp more than 24 hours ahead');
    if (typeof claims.sub !== 'string' || !/^(mailto:|https:)/.test(claims.sub)) throw new Refusal(401, 'JWT sub is not mailto: or https:');
    const verified = { exp: claims.exp, key: k, subject: claims.sub };
    if (verifiedAuth.size > 1000) verifiedAuth.clear();
    verifiedAuth.set(authorization, verified);
    vapidTokens += 1;
    return verified;
  };

  const handle = (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
    requests += 1;
    const token = req.url?.startsWith('/push/') ? req.url.slice('/push/'.length) : null;
    const device = token ? devices.get(token) : undefined;
    const answer = (status: number, headers: Record<string, string> = {}) => {
      res.writeHead(status, headers).end();
      notify();
    };
    if (req.method !== 'POST' || !device) {
      refusedCounts[404] = (refusedCounts[404] ?? 0) + 1;
      return answer(404);
    }
    const topicHeader = req.headers.topic;
    const topic = typeof topicHeader === 'string' ? topicHeader : null;
    let text: string | null = null;
    let data: unknown = null;
    const refuse = (status: number, reason: string, headers: Record<string, string> = {}) => {
      refusedCounts[status] = (refusedCounts[status] ?? 0) + 1;
      const entry: RefusedPush = { endpoint: device.endpoint, status, reason, topic, text, data, at: Date.now() };
      device.refused.push(entry);
      allRefused.push(entry);
      answer(status, headers);
    };
    try {
      const vapid = verifyVapid(req.headers.authorization);
      if (device.applicationServerKey && vapid.key !== device.applicationServerKey)
        throw new Refusal(403, 'VAPID key is not the subscription’s applicationServerKey');
      const ttlHeader = req.headers.ttl;
      const ttl = typeof ttlHeader === 'string' && /^\d+$/.test(ttlHeader) ? Number(ttlHeader) : NaN;
      if (!Number.isFinite(ttl)) throw new Refusal(400, 'TTL header missing or invalid');
      const urgencyHeader = req.headers.urgency ?? 'normal';
      if (typeof urgencyHeader !== 'string' || !URGENCIES.has(urgencyHeader)) throw new Refusal(400, `Urgency ${String(urgencyHeader)}`);
      if (topic !== null && !TOPIC.test(topic)) throw new Refusal(400, `Topic ${topic}`);
      if (req.headers['content-encoding'] !== 'aes128gcm') throw new Refusal(415, `Content-Encoding ${String(req.headers['content-encoding'])}`);
      if (body.length > MAX_BODY) throw new Refusal(413, `body of ${body.length} bytes`);
      try {
        text = decrypt(body, { version: 'aes128gcm', privateKey: device.ecdh, authSecret: device.auth }).toString('utf8');
      } catch (error) {
        throw new Refusal(400, `does not decrypt: ${(error as Error).message}`);
      }
      try {
        data = JSON.parse(text);
      } catch {
        data = null;
      }
      const override = device.override;
      if (override) {
        override.remaining -= 1;
        if (override.remaining <= 0) device.override = null;
        const headers: Record<string, string> = override.retryAfter !== undefined ? { 'retry-after': String(override.retryAfter) } : {};
        return refuse(override.status, 'respondWith', headers);
      }
      messageSeq += 1;
      delivered += 1;
      const message: ReceivedPush = {
        messageId: messageSeq,
        endpoint: device.endpoint,
        ttl,
        urgency: urgencyHeader as ReceivedPush['urgency'],
        topic,
        text,
        data,
        vapidKey: vapid.key,
        vapidSubject: vapid.subject,
        receivedAt: Date.now(),
      };
      device.received.push(message);
      allReceived.push(message);
      if (topic !== null) {
        const previous = device.stored.findIndex((m) => m.topic === topic);
        if (previous >= 0) device.stored.splice(previous, 1);
      }
      device.stored.push(message);
      return answer(201, { location: `/message/${messageSeq}` });
    } catch (error) {
      if (error instanceof Refusal) return refuse(error.status, error.message);
      return refuse(500, (error as Error).message);
    }
  };

  const server = createServer({ keepAliveTimeout: 30_000 }, (req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY + 1) chunks.push(chunk);
    });
    req.on('end', () => handle(req, res, chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    req.on('error', () => res.destroy());
  });
  server.headersTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  origin = `http://${host}:${port}`;

  const alive = (device: Device): ReceivedPush[] => {
    const now = Date.now();
    device.stored = device.stored.filter((m) => m.receivedAt + m.ttl * 1000 > now);
    return device.stored;
  };

  const waitFor = (condition: () => boolean, timeoutMs = 20_000): Promise<void> =>
    new Promise((resolve, reject) => {
      if (condition()) return resolve();
      const check = () => {
        if (!condition()) return;
        waiters.delete(check);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`push service: condition not met in ${timeoutMs} ms (${delivered} delivered, ${requests} requests)`));
      }, timeoutMs);
      waiters.add(check);
    });

  return {
    origin,
    newSubscription(subscriptionOptions = {}) {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const token = randomBytes(16).toString('base64url');
      const auth = randomBytes(16).toString('base64url');
      const endpoint = `${origin}/push/${token}`;
      devices.set(token, {
        endpoint,
        ecdh,
        auth,
        applicationServerKey: subscriptionOptions.applicationServerKey ?? null,
        received: [],
        refused: [],
        stored: [],
        override: null,
      });
      return { endpoint, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth } };
    },
    received: (subscription) => (subscription ? [...deviceOf(subscription).received] : [...allReceived]),
    refused: (subscription) => (subscription ? [...deviceOf(subscription).refused] : [...allRefused]),
    stored: (subscription) => [...alive(deviceOf(subscription))],
    read(subscription) {
      const device = deviceOf(subscription);
      const messages = alive(device);
      device.stored = [];
      return messages;
    },
    respondWith(subscription, status, respondOptions = {}) {
      deviceOf(subscription).override = status === null ? null : { status, remaining: respondOptions.times ?? Infinity, retryAfter: respondOptions.retryAfter };
    },
    counts: () => ({ requests, delivered, refused: { ...refusedCounts }, vapidTokens }),
    connections: () => new Promise<number>((resolve, reject) => server.getConnections((error, count) => (error ? reject(error) : resolve(count)))),
    waitFor,
    waitForDeliveries: (n, timeoutMs) => waitFor(() => delivered >= n, timeoutMs),
    reset() {
      allReceived = [];
      allRefused = [];
      requests = 0;
      delivered = 0;
      vapidTokens = 0;
      verifiedAuth.clear();
      for (const key of Object.keys(refusedCounts)) delete refusedCounts[Number(key)];
      for (const device of devices.values()) {
        device.received = [];
        device.refused = [];
        device.stored = [];
        device.override = null;
      }
    },
    async close() {
      for (const waiter of waiters) waiters.delete(waiter);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The same as `startPushService` (the name the benchmark's brief uses). */
export const start = startPushService;
