import type { Redis } from 'ioredis';
import { tooManyRequests } from '../http/errors.ts';
import type { KeyFn } from './challenges.ts';

/** Wrong codes allowed per user within the window before verification is refused with 429. */
export const MAX_FAILED_CODES = 5;
export const FAILED_CODES_WINDOW_SECONDS = 10 * 60;
export const TOO_MANY_ATTEMPTS = 'Demasiados intentos. Inténtalo más tarde.';

const failuresKey = (key: KeyFn, userId: string) => key('mfa', 'failures', userId);

/** 429 while the user has used up their wrong codes for the current window. */
export async function assertCanTryCode(redis: Redis, key: KeyFn, userId: string): Promise<void> {
  const k = failuresKey(key, userId);
  const count = Number((await redis.get(k)) ?? 0);
  if (count >= MAX_FAILED_CODES) {
    const ttl = await redis.ttl(k);
    throw tooManyRequests(TOO_MANY_ATTEMPTS, ttl > 0 ? ttl : FAILED_CODES_WINDOW_SECONDS);
  }
}

/** Counts a wrong code; the window starts with the first one (a fixed window, shared by every instance). */
export async function recordFailedCode(redis: Redis, key: KeyFn, userId: string): Promise<void> {
  const k = failuresKey(key, userId);
  await redis.multi().set(k, '0', 'EX', FAILED_CODES_WINDOW_SECONDS, 'NX').incr(k).exec();
}
