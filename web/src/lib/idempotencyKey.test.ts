import { afterEach, describe, expect, it, vi } from 'vitest';
import { newIdempotencyKey } from './idempotencyKey';

const ACCEPTED = /^[A-Za-z0-9_-]{8,100}$/;

describe('newIdempotencyKey', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('makes a new key the server accepts on every call', () => {
    const keys = Array.from({ length: 20 }, () => newIdempotencyKey());
    for (const key of keys) expect(key).toMatch(ACCEPTED);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('still makes them where crypto.randomUUID is missing (a page on plain http)', () => {
    const real = globalThis.crypto;
    vi.stubGlobal('crypto', { getRandomValues: <T extends ArrayBufferView>(array: T) => real.getRandomValues(array) });
    const keys = [newIdempotencyKey(), newIdempotencyKey()];
    for (const key of keys) expect(key).toMatch(/^[0-9a-f]{32}$/);
    expect(keys[0]).not.toBe(keys[1]);
  });
});
