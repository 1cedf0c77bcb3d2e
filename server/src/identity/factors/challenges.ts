import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

/** A challenge must be answered within five minutes. */
export const CHALLENGE_TTL_SECONDS = 5 * 60;

/** A challenge belongs to one factor and to the session that asked for it. */
export interface StoredChallenge {
  factorId: string;
  userId: string;
  sessionId: string;
}

export type KeyFn = (...parts: string[]) => string;

const challengeKey = (key: KeyFn, id: string) => key('mfa', 'challenge', id);

export async function storeChallenge(redis: Redis, key: KeyFn, challenge: StoredChallenge, now = Date.now()): Promise<{ id: string; expiresAt: Date }> {
  const id = randomUUID();
  await redis.set(challengeKey(key, id), JSON.stringify(challenge), 'EX', CHALLENGE_TTL_SECONDS);
  return { id, expiresAt: new Date(now + CHALLENGE_TTL_SECONDS * 1000) };
}

export async function readChallenge(redis: Redis, key: KeyFn, id: string): Promise<StoredChallenge | null> {
  const raw = await redis.get(challengeKey(key, id));
  if (!raw) return null;
  try {
    return JSON.parse(raw) as StoredChallenge;
  } catch {
    return null;
  }
}

export async function deleteChallenge(redis: Redis, key: KeyFn, id: string): Promise<void> {
  await redis.del(challengeKey(key, id));
}
