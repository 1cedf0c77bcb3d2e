import { afterEach, describe, expect, it, vi } from 'vitest';
import { computeDeviceFingerprint, DEVICE_ID_KEY, FINGERPRINT_PATTERN, getDeviceFingerprint, resetDeviceFingerprintCache } from './deviceFingerprint';

describe('device fingerprint', () => {
  afterEach(() => resetDeviceFingerprintCache());

  it('has the format the server accepts: 8 to 128 characters of [A-Za-z0-9_-]', async () => {
    const fingerprint = await computeDeviceFingerprint();
    expect(fingerprint).toMatch(FINGERPRINT_PATTERN);
    expect(fingerprint).toMatch(/^[A-Za-z0-9_-]{44}$/);
  });

  it('is stable: the random part is stored once in localStorage and reused', async () => {
    const first = await computeDeviceFingerprint();
    const stored = localStorage.getItem(DEVICE_ID_KEY);
    expect(stored).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(first.startsWith(stored!)).toBe(true);

    resetDeviceFingerprintCache();
    expect(await computeDeviceFingerprint()).toBe(first);
    expect(await getDeviceFingerprint()).toBe(first);
  });

  it('differs between browsers (another stored id) but keeps the traits hash', async () => {
    const first = await computeDeviceFingerprint();
    localStorage.clear();
    const second = await computeDeviceFingerprint();
    expect(second).not.toBe(first);
    expect(second.slice(22)).toBe(first.slice(22));
  });

  it('replaces a tampered stored id', async () => {
    localStorage.setItem(DEVICE_ID_KEY, 'not valid!');
    const fingerprint = await computeDeviceFingerprint();
    expect(fingerprint).toMatch(FINGERPRINT_PATTERN);
    expect(localStorage.getItem(DEVICE_ID_KEY)).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it('works without SubtleCrypto (plain http) and without storage (private browsing)', async () => {
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new DOMException('denied', 'SecurityError');
    });
    const realSubtle = crypto.subtle;
    Object.defineProperty(crypto, 'subtle', { value: undefined, configurable: true });
    try {
      const first = await computeDeviceFingerprint();
      expect(first).toMatch(/^[A-Za-z0-9_-]{44}$/);
      expect(await computeDeviceFingerprint()).toBe(first);
    } finally {
      Object.defineProperty(crypto, 'subtle', { value: realSubtle, configurable: true });
    }
  });
});
