import fp from 'fastify-plugin';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest, HookHandlerDoneFunction, RouteOptions } from 'fastify';
import type { Redis } from 'ioredis';
import { TOO_MANY_REQUESTS_MESSAGE } from '@tribuna/contracts/httpMessages';
import { MODERATION_LIMITS } from '@tribuna/contracts/moderationRules';
import { addressKey, LocalBuckets, SharedBuckets, sharedRate, takeLocal, type SharedRate } from '../http/buckets.ts';
import { tooManyRequests } from '../http/errors.ts';
import { RATE_LIMITS, type RateLimitName, type RateLimitRule, type RateLimitTable } from '../http/rateLimits.ts';
import { closeRedisClient, createRedisClient } from './redis.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Forgets every bucket, this instance's and the shared ones of this Redis prefix (tests start each case afresh). */
    resetRateLimits(): Promise<void>;
  }
}

export interface RateLimitPluginOptions {
  /** Entries replacing those of RATE_LIMITS (tests use small numbers). */
  overrides?: Partial<RateLimitTable>;
}

/** A shared check Redis has not answered by then is counted by this instance alone. */
export const SHARED_TIMEOUT_MS = 250;

/** What a browser navigating to a limited route (Google sign-in start and callback) sees. */
function tooManyRequestsPage(path: string): string {
  const back = path.startsWith('/auth') ? '<a href="/login">Volver a iniciar sesión</a>' : '<a href="/">Volver al inicio</a>';
  return `<!doctype html>
<html lang="es">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Demasiadas solicitudes · Tribuna</title></head>
<body>
<h1>Demasiadas solicitudes</h1>
<p>${TOO_MANY_REQUESTS_MESSAGE}</p>
<p>${back}</p>
</body>
</html>
`;
}

/** The Redis buckets of every instance, or null (fall back to this instance's) while Redis cannot answer. */
class SharedStore {
  private failing = false;
  private readonly buckets: SharedBuckets;

  constructor(
    private readonly redis: Redis,
    private readonly log: FastifyBaseLogger,
  ) {
    this.buckets = new SharedBuckets(redis);
  }

  async take(buckets: ReadonlyArray<{ key: string; rate: SharedRate }>): Promise<number | null> {
    if (this.redis.status !== 'ready') return this.failed(new Error(`connection ${this.redis.status}`));
    try {
      const wait = await this.buckets.take(buckets);
      if (this.failing) {
        this.failing = false;
        this.log.info('rate limits are shared through Redis again');
      }
      return wait;
    } catch (err) {
      return this.failed(err as Error);
    }
  }

  private failed(err: Error): null {
    if (!this.failing) {
      this.failing = true;
      this.log.warn({ err: { message: err.message } }, 'rate limits: Redis unavailable, each instance counts on its own until it is back');
    }
    return null;
  }
}

/** The buckets of one RATE_LIMITS entry (shared by every route naming it). */
class RouteLimit {
  private readonly user: LocalBuckets | null;
  private readonly signedInAddress: LocalBuckets | null;
  private readonly address: LocalBuckets | null;
  private readonly shared: { user?: SharedRate; signedInAddress?: SharedRate; address?: SharedRate } | null;
  readonly degrades: boolean;

  constructor(
    private readonly name: string,
    rule: RateLimitRule,
    private readonly store: SharedStore,
    private readonly redisKey: (...parts: string[]) => string,
  ) {
    this.degrades = rule.whenLimited === 'degrade';
    this.user = rule.perUser ? new LocalBuckets(rule.perUser) : null;
    this.address = rule.perAddress ? new LocalBuckets(rule.perAddress) : null;
    this.signedInAddress = rule.perSignedInAddress ? new LocalBuckets(rule.perSignedInAddress) : this.address;
    if (rule.store === 'redis') {
      const address = rule.perAddress && sharedRate(rule.perAddress);
      this.shared = {
        user: rule.perUser && sharedRate(rule.perUser),
        address,
        signedInAddress: rule.perSignedInAddress ? sharedRate(rule.perSignedInAddress) : address,
      };
    } else {
      this.shared = null;
    }
  }

  /** 0 when the request may go, else the ms to wait. Only the 'redis' store costs a round trip. */
  take(userId: string | null, address: string): number | Promise<number> {
    if (this.shared) return this.takeShared(userId, address);
    return this.takeLocal(userId, address);
  }

  clear(): void {
    for (const buckets of [this.user, this.signedInAddress, this.address]) buckets?.clear();
  }

  private takeLocal(userId: string | null, address: string): number {
    // A monotonic clock: a wall clock stepped back (NTP, a pinned test clock) must not push
    // every bucket's theoretical arrival time hours ahead of now.
    const now = performance.now();
    if (userId === null) return takeLocal(this.address, address, null, '', now);
    return takeLocal(this.user, userId, this.signedInAddress, address, now);
  }

  private async takeShared(userId: string | null, address: string): Promise<number> {
    const { user, signedInAddress, address: visitorAddress } = this.shared!;
    const buckets: Array<{ key: string; rate: SharedRate }> = [];
    if (userId === null) {
      if (visitorAddress) buckets.push({ key: this.redisKey('rl', this.name, 'a', address), rate: visitorAddress });
    } else {
      if (user) buckets.push({ key: this.redisKey('rl', this.name, 'u', userId), rate: user });
      // Signed-in callers counted against perAddress share the visitors' bucket.
      const tag = signedInAddress === visitorAddress ? 'a' : 's';
      if (signedInAddress) buckets.push({ key: this.redisKey('rl', this.name, tag, address), rate: signedInAddress });
    }
    if (buckets.length === 0) return 0;
    return (await this.store.take(buckets)) ?? this.takeLocal(userId, address);
  }
}

/** An account younger than MODERATION_LIMITS.trustedAccountAgeMs (issue 29): it writes under its entries' `newAccounts` limits. */
export function isNewAccount(createdAt: Date, now = Date.now()): boolean {
  return now - createdAt.getTime() < MODERATION_LIMITS.trustedAccountAgeMs;
}

function prependOnRequest(route: RouteOptions, hook: (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => void): void {
  const own = route.onRequest;
  // A new array: the HEAD twin of a GET route is built from the same options and gets its own pass.
  route.onRequest = own === undefined ? [hook] : [hook, ...(Array.isArray(own) ? own : [own])];
}

function documents429(route: RouteOptions): boolean {
  const responses = (route.schema?.response ?? {}) as Record<string, unknown>;
  return '429' in responses || '4xx' in responses;
}

/**
 * Enforces RATE_LIMITS. Registered after the auth plugin and before every domain: each limited
 * route gets the check as its first own onRequest hook, so it runs after the session is resolved
 * (request.user) and before the body is read; routes without a limit pay nothing. A route
 * registered after this plugin (any path: every domain's route) that declares nothing stops the
 * server from starting; the static files (web/dist, /media) are registered before it.
 */
export default fp<RateLimitPluginOptions>(
  async (app, options) => {
    const table: RateLimitTable = { ...RATE_LIMITS, ...options.overrides };
    const redis = createRedisClient(app.config.redisUrl, 'tribuna-ratelimit', app.log, {
      commandTimeout: SHARED_TIMEOUT_MS,
      // Never queue checks while disconnected: they are answered from this instance's buckets at once.
      enableOfflineQueue: false,
    });
    app.addHook('onClose', async () => {
      await closeRedisClient(redis);
    });
    const store = new SharedStore(redis, app.log);
    const limits = new Map<RateLimitName, RouteLimit>();

    const limitFor = (name: RateLimitName): RouteLimit => {
      let limit = limits.get(name);
      if (!limit) {
        const rule = table[name] as RateLimitRule | undefined;
        if (!rule) throw new Error(`unknown rate limit "${name}": add it to RATE_LIMITS in http/rateLimits.ts`);
        limit = new RouteLimit(name, rule, store, app.redisKey);
        limits.set(name, limit);
      }
      return limit;
    };

    app.addHook('onRoute', (route) => {
      const name = route.config?.rateLimit;
      const where = `${String(route.method)} ${route.url}`;
      if (name === false) return;
      if (name === undefined) {
        throw new Error(
          `${where} declares no rate limit: add config.rateLimit (an entry of RATE_LIMITS in http/rateLimits.ts), or rateLimit: false with the reason`,
        );
      }
      const limit = limitFor(name);
      if (!limit.degrades && !documents429(route)) throw new Error(`${where} is rate limited but does not document its 429: add errorResponses(429)`);
      // New accounts (issue 29) are counted against the entry's tighter sibling, when it names one.
      const tighter = (table[name] as RateLimitRule).newAccounts;
      const forNewAccounts = tighter === undefined ? null : limitFor(tighter as RateLimitName);

      prependOnRequest(route, (request, reply, done) => {
        const answer = (wait: number) => {
          if (wait <= 0) return done();
          if (limit.degrades) {
            request.rateLimited = true;
            return done();
          }
          const error = tooManyRequests(TOO_MANY_REQUESTS_MESSAGE, wait / 1000);
          if (request.headers.accept?.includes('text/html')) {
            reply.code(429).headers(error.headers).header('cache-control', 'no-store').type('text/html; charset=utf-8');
            reply.send(tooManyRequestsPage(request.url));
            return;
          }
          done(error);
        };
        const userId = request.user?.id ?? request.authSession?.userId ?? null;
        const chosen = forNewAccounts && request.user && isNewAccount(request.user.accountCreatedAt) ? forNewAccounts : limit;
        const wait = chosen.take(userId, addressKey(request.ip ?? ''));
        if (typeof wait === 'number') answer(wait);
        else void wait.then(answer, done);
      });
    });

    app.decorate('resetRateLimits', async () => {
      for (const limit of limits.values()) limit.clear();
      if (redis.status !== 'ready') return;
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', app.redisKey('rl', '*'), 'COUNT', 1000);
        if (keys.length > 0) await redis.del(...keys);
        cursor = next;
      } while (cursor !== '0');
    });
  },
  { name: 'rate-limit', dependencies: ['config', 'redis', 'auth'] },
);
