import { createHash, randomBytes } from 'node:crypto';
import { SESSION_TOKEN_BYTES } from './constants.ts';

/** A new opaque cookie token (base64url of 32 random bytes). */
export function newSessionToken(): string {
  return randomBytes(SESSION_TOKEN_BYTES).toString('base64url');
}

/** sessions.id: the SHA-256 (hex) of the cookie token, so a database leak gives no usable cookie. */
export function sessionIdFor(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Tokens we issue are exactly 43 base64url characters; anything else is not worth a query. */
export function looksLikeSessionToken(token: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(token);
}
