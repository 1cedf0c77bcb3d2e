/**
 * A fresh Idempotency-Key (what the server accepts: 8–100 of [A-Za-z0-9_-]). crypto.randomUUID
 * exists only in secure contexts (https, localhost), so a page opened over plain http on a LAN
 * address falls back to 16 random bytes in hex.
 */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}
