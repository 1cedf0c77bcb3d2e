import http from 'node:http';
import https from 'node:https';
import webpush from 'web-push';
import { PUSH_DELIVERY, PUSH_LIMITS, type PushKind, type PushPayload } from '@tribuna/contracts/pushRules';
import { EndpointPolicy, publicOnlyLookup } from '../../../server/src/push/endpointPolicy.ts';
import type { VapidKeys } from '../../../server/src/push/vapid.ts';
import { inlineEncryptor, type Encrypted, type Encryptor } from './encryptor.ts';

// Sends one push (RFC 8030) to one device: `web-push` encrypts the payload for the subscription
// (RFC 8291 aes128gcm) and the request goes out through our own agents, so that
// - the VAPID Authorization (RFC 8292) is signed once per push service origin and reused until
//   near its expiry, not once per message;
// - connections are kept alive (a broadcast sends thousands of requests to a handful of hosts);
// - every connection resolves its host through publicOnlyLookup (the endpoint policy of
//   server/src/push/endpointPolicy.ts): a name resolving to a private, loopback or link-local
//   address is refused on the very lookup the socket connects with (DNS rebinding safe). Only the
//   origins of PUSH_TEST_ENDPOINT_ORIGINS (the tests' local push service) skip that check;
// - at most `concurrency` requests are in flight per worker process, whatever the jobs running.

export interface OutgoingPush {
  endpoint: string;
  p256dh: string;
  auth: string;
  kind: PushKind;
  payload: PushPayload;
}

/** What the push service's answer means for the message. */
export type SendOutcome =
  | { outcome: 'sent'; status: number }
  | { outcome: 'gone'; status: number; error: string }
  | { outcome: 'retry'; status: number | null; error: string; retryAfterMs: number | null }
  | { outcome: 'failed'; status: number | null; error: string };

/** VAPID JWTs are valid 12 hours (RFC 8292 allows 24) and renewed an hour before they expire. */
const VAPID_LIFETIME_SECONDS = 12 * 60 * 60;
const VAPID_RENEW_BEFORE_SECONDS = 60 * 60;
/** A push service that accepts no byte for this long is given up on (the message is retried). */
const REQUEST_TIMEOUT_MS = 15_000;
/** A Retry-After beyond an hour is taken as an hour. */
const MAX_RETRY_AFTER_MS = 60 * 60 * 1000;

/** Backoff of the n-th failed attempt (1-based): 5 s, 10 s, 20 s… */
export const backoffMs = (attempts: number): number => 5_000 * 2 ** Math.max(0, attempts - 1);

/** Retry-After as seconds or an HTTP date, in ms from now; null when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | null {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return null;
  if (/^\d+$/.test(text.trim())) return Math.min(Number(text.trim()) * 1000, MAX_RETRY_AFTER_MS);
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.min(Math.max(0, at - now), MAX_RETRY_AFTER_MS);
}

/** A counting semaphore: at most `size` holders; the others wait in order. */
export class Slots {
  private free: number;
  private readonly waiting: (() => void)[] = [];
  constructor(readonly size: number) {
    this.free = size;
  }
  async acquire(): Promise<() => void> {
    if (this.free > 0) this.free -= 1;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.free += 1;
    };
  }
}

export interface PushSenderOptions {
  keys: VapidKeys;
  subject: string;
  testEndpointOrigins: readonly string[];
  concurrency?: number;
  timeoutMs?: number;
  /** Where payloads are encrypted (default: inline; the worker uses a low-priority thread, encryptor.ts). */
  encryptor?: Encryptor;
}

export class PushSender {
  readonly slots: Slots;
  private readonly policy: EndpointPolicy;
  private readonly vapid = new Map<string, { authorization: string; renewAt: number }>();
  private readonly publicAgent: https.Agent;
  private readonly testHttpAgent: http.Agent;
  private readonly testHttpsAgent: https.Agent;
  private readonly timeoutMs: number;

  constructor(private readonly options: PushSenderOptions) {
    const concurrency = options.concurrency ?? PUSH_LIMITS.sendConcurrency;
    this.slots = new Slots(concurrency);
    this.policy = new EndpointPolicy({ testEndpointOrigins: options.testEndpointOrigins });
    this.timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;
    const agentOptions = { keepAlive: true, maxSockets: concurrency, maxFreeSockets: concurrency, timeout: 60_000 };
    this.publicAgent = new https.Agent({ ...agentOptions, lookup: publicOnlyLookup() });
    this.testHttpAgent = new http.Agent(agentOptions);
    this.testHttpsAgent = new https.Agent(agentOptions);
  }

  /** The VAPID Authorization for a push service origin: signed once, reused until an hour before it expires. */
  authorization(origin: string, nowMs = Date.now()): string {
    const cached = this.vapid.get(origin);
    if (cached && cached.renewAt > nowMs) return cached.authorization;
    const expiration = Math.floor(nowMs / 1000) + VAPID_LIFETIME_SECONDS;
    const { Authorization } = webpush.getVapidHeaders(
      origin,
      this.options.subject,
      this.options.keys.publicKey,
      this.options.keys.privateKey,
      'aes128gcm',
      expiration,
    );
    this.vapid.set(origin, { authorization: Authorization, renewAt: (expiration - VAPID_RENEW_BEFORE_SECONDS) * 1000 });
    return Authorization;
  }

  /** Sends one push, holding one of the process's slots while its request is in flight. Never rejects. */
  async send(push: OutgoingPush): Promise<SendOutcome> {
    const release = await this.slots.acquire();
    try {
      return await this.deliver(push);
    } finally {
      release();
    }
  }

  /** Sends one push; the caller holds a slot (`slots.acquire()`). Never rejects. */
  async deliver(push: OutgoingPush): Promise<SendOutcome> {
    const verdict = this.policy.checkUrl(push.endpoint);
    if (!verdict.ok) return { outcome: 'failed', status: null, error: `endpoint refused (${verdict.reason})` };
    const { url, testOrigin } = verdict;
    const delivery = PUSH_DELIVERY[push.kind];
    let details: Encrypted;
    try {
      details = await (this.options.encryptor ?? inlineEncryptor).encrypt({
        subscription: { endpoint: push.endpoint, keys: { p256dh: push.p256dh, auth: push.auth } },
        payload: JSON.stringify(push.payload),
        options: {
          TTL: delivery.ttlSeconds,
          urgency: delivery.urgency,
          topic: delivery.topic,
          contentEncoding: 'aes128gcm',
          headers: { Authorization: this.authorization(url.origin) },
        },
      });
    } catch (error) {
      // Keys that are not a P-256 point and a 16-byte secret: no attempt will do better.
      return { outcome: 'failed', status: null, error: `cannot encrypt: ${(error as Error).message}` };
    }
    const agent = !testOrigin ? this.publicAgent : url.protocol === 'https:' ? this.testHttpsAgent : this.testHttpAgent;
    const request = url.protocol === 'https:' ? https.request : http.request;
    return new Promise<SendOutcome>((resolve) => {
      const req = request(url, { method: 'POST', headers: details.headers as http.OutgoingHttpHeaders, agent }, (res) => {
        res.resume();
        res.on('error', () => undefined);
        res.on('end', () => resolve(classify(res.statusCode ?? 0, res.headers['retry-after'])));
        res.on('aborted', () => resolve({ outcome: 'retry', status: res.statusCode ?? null, error: 'response aborted', retryAfterMs: null }));
      });
      req.setTimeout(this.timeoutMs, () => req.destroy(new Error(`no answer in ${this.timeoutMs} ms`)));
      req.on('error', (error: NodeJS.ErrnoException) => {
        // A name resolving to a private address stays refused: not worth another attempt.
        if (error.code === 'EPRIVATEADDRESS') resolve({ outcome: 'failed', status: null, error: error.message });
        else resolve({ outcome: 'retry', status: null, error: error.message, retryAfterMs: null });
      });
      req.end(details.body ?? undefined);
    });
  }

  close(): void {
    void this.options.encryptor?.close();
    this.publicAgent.destroy();
    this.testHttpAgent.destroy();
    this.testHttpsAgent.destroy();
  }
}

/** The push service's answer: 2xx sent; 404/410 the subscription is gone; 429/5xx (and 408) again later; anything else failed. */
export function classify(status: number, retryAfter: string | string[] | undefined): SendOutcome {
  if (status >= 200 && status < 300) return { outcome: 'sent', status };
  if (status === 404 || status === 410) return { outcome: 'gone', status, error: `${status} from the push service: subscription gone` };
  if (status === 429 || status === 408 || status >= 500) {
    return { outcome: 'retry', status, error: `${status} from the push service`, retryAfterMs: parseRetryAfter(retryAfter) };
  }
  return { outcome: 'failed', status, error: `${status} from the push service` };
}
