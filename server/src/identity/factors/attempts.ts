import type { Redis } from 'ioredis';
import { HttpError, tooManyRequests } from '../../http/errors.ts';
import type { KeyFn } from './challenges.ts';

/** Codes checked per user within the window (a correct one is given back) before verification is refused with 429. */
export const MAX_FAILED_CODES = 5;
export const FAILED_CODES_WINDOW_SECONDS = 10 * 60;
export const TOO_MANY_ATTEMPTS = 'Demasiados intentos. Inténtalo más tarde.';
export const VERIFICATION_UNAVAILABLE = 'La verificación en dos pasos no está disponible en este momento. Inténtalo en unos minutos.';

/**
 * KEYS: counter. ARGV: limit, window seconds. Takes one attempt while fewer than `limit` are
 * counted, in the same step as the check, so parallel requests can never all pass a read of the
 * counter. The window starts with the first attempt (a fixed window shared by every instance).
 * Returns {1, count} when taken, {0, ttl} when refused.
 */
const TAKE_ATTEMPT = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count >= tonumber(ARGV[1]) then
  local ttl = redis.call('TTL', KEYS[1])
  if ttl < 0 then
    redis.call('EXPIRE', KEYS[1], ARGV[2])
    ttl = tonumber(ARGV[2])
  end
  return {0, ttl}
end
count = redis.call('INCR', KEYS[1])
if redis.call('TTL', KEYS[1]) < 0 then redis.call('EXPIRE', KEYS[1], ARGV[2]) end
return {1, count}
`;

/** KEYS: counter. Gives an attempt back; never creates the key (it may have expired meanwhile). */
const GIVE_BACK_ATTEMPT = `
if tonumber(redis.call('GET', KEYS[1]) or '0') > 0 then return redis.call('DECR', KEYS[1]) end
return 0
`;

interface AttemptCommands {
  mfaTakeAttempt(key: string, limit: number, windowSeconds: number): Promise<[number, number]>;
  mfaGiveBackAttempt(key: string): Promise<number>;
}

/** The scripts as commands of this client (EVALSHA, loading the script on first use). */
export function defineAttemptCommands(redis: Redis): void {
  redis.defineCommand('mfaTakeAttempt', { numberOfKeys: 1, lua: TAKE_ATTEMPT });
  redis.defineCommand('mfaGiveBackAttempt', { numberOfKeys: 1, lua: GIVE_BACK_ATTEMPT });
}

const commands = (redis: Redis) => redis as unknown as AttemptCommands;
const attemptsKey = (key: KeyFn, userId: string) => key('mfa', 'attempts', userId);

/** 503 instead of the library's error: without Redis a code is never checked (no unlimited guesses). */
export async function orUnavailable<T>(redisCall: Promise<T>): Promise<T> {
  try {
    return await redisCall;
  } catch {
    throw new HttpError(503, VERIFICATION_UNAVAILABLE);
  }
}

/**
 * Spends one of the user's attempts before their code is checked: 429 (Retry-After: the rest of
 * the window) once MAX_FAILED_CODES are counted, 503 while Redis cannot count.
 */
export async function takeAttempt(redis: Redis, key: KeyFn, userId: string): Promise<void> {
  const [taken, value] = await orUnavailable(commands(redis).mfaTakeAttempt(attemptsKey(key, userId), MAX_FAILED_CODES, FAILED_CODES_WINDOW_SECONDS));
  if (taken !== 1) throw tooManyRequests(TOO_MANY_ATTEMPTS, value);
}

/** A correct code costs nothing: its attempt is given back (the wrong ones of the window still count). */
export async function giveBackAttempt(redis: Redis, key: KeyFn, userId: string): Promise<void> {
  try {
    await commands(redis).mfaGiveBackAttempt(attemptsKey(key, userId));
  } catch {
    // The code was accepted and committed; Redis failing now only leaves the attempt counted.
  }
}
