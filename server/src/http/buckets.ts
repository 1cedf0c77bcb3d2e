import type { Redis } from 'ioredis';
import type { Rate } from './rateLimits.ts';

/**
 * Token buckets as GCRA (generic cell rate algorithm): a bucket is one number, its theoretical
 * arrival time (TAT). A request is let through when the TAT it would push the bucket to is at most
 * `windowSeconds` ahead of now; each request pushes it by `windowSeconds / max`. A bucket whose TAT
 * has passed is full, exactly as if it did not exist, so forgetting it changes nothing.
 */

/** Buckets per local limit kept in memory: past this, full ones are dropped, then the oldest. */
export const LOCAL_MAX_KEYS = 50_000;

/** The Retry-After of a wait: whole seconds, at least 1. */
export const retryAfterSeconds = (waitMs: number) => Math.max(1, Math.ceil(waitMs / 1000));

/** Per-instance buckets of one limit, keyed by user id or address. */
export class LocalBuckets {
  private readonly tats = new Map<string, number>();
  /** ms each request pushes the TAT by. */
  readonly interval: number;
  /** How far ahead of now (ms) the TAT may be. */
  readonly tolerance: number;

  constructor(
    rate: Rate,
    private readonly maxKeys = LOCAL_MAX_KEYS,
  ) {
    this.interval = (rate.windowSeconds * 1000) / rate.max;
    this.tolerance = rate.windowSeconds * 1000;
  }

  /** The TAT the bucket gets if this request is let through. */
  next(key: string, now: number): number {
    const tat = this.tats.get(key);
    return (tat !== undefined && tat > now ? tat : now) + this.interval;
  }

  /** ms to wait before a request pushing the TAT to `next` fits; ≤ 0 when it fits now. */
  excess(next: number, now: number): number {
    return next - now - this.tolerance;
  }

  commit(key: string, next: number, now: number): void {
    if (this.tats.size >= this.maxKeys && !this.tats.has(key)) this.evict(now);
    this.tats.set(key, next);
  }

  get size(): number {
    return this.tats.size;
  }

  clear(): void {
    this.tats.clear();
  }

  /**
   * Drops full buckets, then (random or spoofed addresses filling the map) the oldest until a
   * quarter is free, so a flood of new keys costs amortised O(1) each and memory stays bounded.
   */
  private evict(now: number): void {
    for (const [key, tat] of this.tats) if (tat <= now) this.tats.delete(key);
    const target = Math.floor(this.maxKeys * 0.75);
    for (const key of this.tats.keys()) {
      if (this.tats.size <= target) break;
      this.tats.delete(key);
    }
  }
}

/**
 * Takes one request from up to two buckets, all or nothing: a request refused by one bucket is not
 * counted by the other. Returns 0 when let through, else the ms to wait.
 */
export function takeLocal(first: LocalBuckets | null, firstKey: string, second: LocalBuckets | null, secondKey: string, now: number): number {
  const firstNext = first ? first.next(firstKey, now) : 0;
  const secondNext = second ? second.next(secondKey, now) : 0;
  const wait = Math.max(first ? first.excess(firstNext, now) : 0, second ? second.excess(secondNext, now) : 0);
  if (wait > 0) return wait;
  first?.commit(firstKey, firstNext, now);
  second?.commit(secondKey, secondNext, now);
  return 0;
}

/**
 * KEYS: the buckets (1 or 2). ARGV: interval and tolerance of each bucket, in µs.
 * The same GCRA in Redis, on Redis' clock (so every instance agrees), all or nothing like
 * takeLocal. Returns 0 when let through, else the µs to wait. TATs in µs since the epoch stay
 * exact in a double (< 2^53) and are written with %.0f, never in exponent notation.
 */
const TAKE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local wait = 0
local nexts = {}
for i, key in ipairs(KEYS) do
  local tat = tonumber(redis.call('GET', key) or '0')
  if tat < now then tat = now end
  local nxt = tat + tonumber(ARGV[2 * i - 1])
  local excess = nxt - now - tonumber(ARGV[2 * i])
  if excess > wait then wait = excess end
  nexts[i] = nxt
end
if wait > 0 then return math.ceil(wait) end
for i, key in ipairs(KEYS) do
  redis.call('SET', key, string.format('%.0f', nexts[i]), 'PX', math.ceil((nexts[i] - now) / 1000))
end
return 0
`;

interface BucketCommands {
  rateLimitTake(numberOfKeys: number, ...keysAndArgs: Array<string | number>): Promise<number>;
}

/** A limit's parameters as the script takes them. */
export interface SharedRate {
  intervalUs: number;
  toleranceUs: number;
}

export function sharedRate(rate: Rate): SharedRate {
  return { intervalUs: Math.round((rate.windowSeconds * 1e6) / rate.max), toleranceUs: rate.windowSeconds * 1e6 };
}

/** Buckets in Redis, shared by every instance: one round trip per request, whatever the number of buckets. */
export class SharedBuckets {
  private readonly commands: BucketCommands;

  constructor(redis: Redis) {
    redis.defineCommand('rateLimitTake', { lua: TAKE });
    this.commands = redis as unknown as BucketCommands;
  }

  /** 0 when let through, else the ms to wait. Rejects when Redis cannot answer. */
  async take(buckets: ReadonlyArray<{ key: string; rate: SharedRate }>): Promise<number> {
    const args: Array<string | number> = buckets.map((b) => b.key);
    for (const b of buckets) args.push(b.rate.intervalUs, b.rate.toleranceUs);
    const waitUs = await this.commands.rateLimitTake(buckets.length, ...args);
    return waitUs / 1000;
  }
}

/**
 * The address a limit counts: IPv4 as is (also when written IPv4-mapped), IPv6 by its /64, which
 * one subscriber usually holds whole: counting single IPv6 addresses would give them 2^64 buckets.
 */
export function addressKey(ip: string): string {
  if (!ip.includes(':')) return ip;
  const lower = ip.toLowerCase();
  if (lower.startsWith('::ffff:') && lower.includes('.')) return lower.slice(7);
  const address = lower.split('%')[0]!;
  const [head = '', tail] = address.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':').flatMap((g) => (g.includes('.') ? ['0', '0'] : [g])));
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const full = [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${full
    .slice(0, 4)
    .map((g) => (Number.parseInt(g, 16) || 0).toString(16))
    .join(':')}::/64`;
}
