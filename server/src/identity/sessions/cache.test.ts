import { describe, expect, it } from 'vitest';
import { INVALIDATION_HOLD_MS, SESSION_CACHE_DEGRADED_TTL_MS, SESSION_CACHE_TTL_MS, SessionCache } from './cache.ts';
import type { ActiveSessionRow } from './repository.ts';

const NOW = Date.parse('2025-06-01T20:00:00Z');

function row(id: string, userId = 'user-1'): ActiveSessionRow {
  return {
    id,
    userId,
    level: 'aal1',
    mfaPending: false,
    expiresAt: new Date(NOW + 24 * 60 * 60 * 1000),
    lastSeenAt: new Date(NOW),
    createdAt: new Date(NOW),
    role: 'user',
    isSuspended: false,
    accountCreatedAt: new Date(NOW),
    silencedUntil: null,
  };
}

/** A cache whose (only) listener is up, as in a running server. */
function listeningCache(): SessionCache {
  const cache = new SessionCache();
  cache.listenerUp({});
  return cache;
}

describe('SessionCache', () => {
  it('serves an entry for the TTL while its listener is up', () => {
    const cache = listeningCache();
    cache.set(row('s1'), NOW, cache.generation);
    expect(cache.get('s1', NOW + SESSION_CACHE_TTL_MS)).not.toBeNull();
    expect(cache.get('s1', NOW + SESSION_CACHE_TTL_MS + 1)).toBeNull();
  });

  it('refuses a row whose lookup overlapped an invalidation (read before a revocation, back after its NOTIFY)', () => {
    const cache = listeningCache();
    for (const invalidate of [
      () => cache.applyNotification('s:s1'),
      () => cache.applyNotification('u:someone-else'),
      () => cache.invalidateSession('other', NOW),
      () => cache.clear(),
    ]) {
      const generation = cache.generation;
      invalidate();
      cache.set(row('s1'), NOW, generation);
      expect(cache.get('s1', NOW)).toBeNull();
    }
    cache.set(row('s1'), NOW, cache.generation);
    expect(cache.get('s1', NOW)).not.toBeNull();
  });

  it('keeps a session or user this process invalidated out of the cache until its write has surely committed', () => {
    const cache = listeningCache();
    cache.invalidateSession('s1', NOW);
    cache.invalidateUser('user-2', NOW);
    cache.set(row('s1'), NOW + 1, cache.generation);
    cache.set(row('s2', 'user-2'), NOW + 1, cache.generation);
    cache.set(row('s3'), NOW + 1, cache.generation);
    expect(cache.get('s1', NOW + 1)).toBeNull();
    expect(cache.get('s2', NOW + 1)).toBeNull();
    expect(cache.get('s3', NOW + 1)).not.toBeNull();

    const later = NOW + INVALIDATION_HOLD_MS + 1;
    cache.set(row('s1'), later, cache.generation);
    cache.set(row('s2', 'user-2'), later, cache.generation);
    expect(cache.get('s1', later)).not.toBeNull();
    expect(cache.get('s2', later)).not.toBeNull();
  });

  it('serves only fresh entries while a listener is down (or none started), and starts afresh when it is back', () => {
    const listener = {};
    const cache = new SessionCache();
    cache.set(row('s1'), NOW, cache.generation);
    expect(cache.listening).toBe(false);
    expect(cache.get('s1', NOW + SESSION_CACHE_DEGRADED_TTL_MS)).not.toBeNull();
    expect(cache.get('s1', NOW + SESSION_CACHE_DEGRADED_TTL_MS + 1)).toBeNull();

    cache.listenerUp(listener);
    expect(cache.listening).toBe(true);
    cache.set(row('s1'), NOW, cache.generation);
    cache.listenerDown(listener);
    expect(cache.listening).toBe(false);
    expect(cache.get('s1', NOW + SESSION_CACHE_DEGRADED_TTL_MS + 1)).toBeNull();

    cache.set(row('s2'), NOW, cache.generation);
    const generation = cache.generation;
    cache.listenerUp(listener);
    // Notifications sent while it was down are lost: nothing cached before survives, nor any lookup in flight.
    expect(cache.get('s2', NOW)).toBeNull();
    cache.set(row('s3'), NOW, generation);
    expect(cache.get('s3', NOW)).toBeNull();

    cache.listenerClosed(listener);
    expect(cache.listening).toBe(false);
  });
});
