/** Where the random half of the fingerprint is kept for good. */
export const DEVICE_ID_KEY = 'tribuna-device-id';
const DEVICE_ID_PATTERN = /^[A-Za-z0-9_-]{22}$/;
/** What the server accepts (contracts: DeviceFingerprint). */
export const FINGERPRINT_PATTERN = /^[A-Za-z0-9_-]{8,128}$/;

/** Kept for the page's lifetime when storage is refused (private browsing). */
let memoryDeviceId: string | null = null;
let cached: Promise<string> | null = null;

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

/** 16 random bytes as 22 base64url characters. */
function randomDeviceId(): string {
  return base64url(crypto.getRandomValues(new Uint8Array(16)));
}

/** A random id created once per browser and kept in localStorage under 'tribuna-device-id'. */
export function getDeviceId(): string {
  try {
    const stored = localStorage.getItem(DEVICE_ID_KEY);
    if (stored && DEVICE_ID_PATTERN.test(stored)) return stored;
    const id = randomDeviceId();
    localStorage.setItem(DEVICE_ID_KEY, id);
    return id;
  } catch {
    memoryDeviceId ??= randomDeviceId();
    return memoryDeviceId;
  }
}

/**
 * Traits that stay the same between visits on one device. Screen sides are sorted so turning a
 * phone does not change them.
 */
export function deviceTraits(): string {
  const sides = typeof screen === 'undefined' ? [0, 0] : [screen.width, screen.height].sort((a, b) => a - b);
  let timeZone = '';
  try {
    timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone ?? '';
  } catch {
    // no Intl time zone support: leave it out
  }
  return JSON.stringify([navigator.userAgent, navigator.language, `${sides[0]}x${sides[1]}`, timeZone, navigator.hardwareConcurrency ?? 0]);
}

/** SHA-256 where SubtleCrypto exists (secure contexts), else a 64-bit FNV-1a pair as a fallback. */
async function digest(text: string): Promise<Uint8Array> {
  const data = new TextEncoder().encode(text);
  if (globalThis.crypto?.subtle) {
    try {
      return new Uint8Array(await crypto.subtle.digest('SHA-256', data));
    } catch {
      // fall through to the non-cryptographic hash
    }
  }
  const out = new Uint8Array(16);
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193 ^ data.length;
  for (const byte of data) {
    h1 = Math.imul(h1 ^ byte, 0x01000193) >>> 0;
    h2 = Math.imul(h2 ^ byte, 0x5bd1e995) >>> 0;
  }
  new DataView(out.buffer).setUint32(0, h1);
  new DataView(out.buffer).setUint32(4, h2);
  new DataView(out.buffer).setUint32(8, Math.imul(h1, h2) >>> 0);
  new DataView(out.buffer).setUint32(12, (h1 ^ h2) >>> 0);
  return out;
}

/**
 * The device fingerprint sent with each vote: the stored random id (22 characters, stable for the
 * browser) followed by 22 characters of a hash of the device's traits. 44 characters of
 * [A-Za-z0-9_-]. The server may compare either half on its own.
 */
export async function computeDeviceFingerprint(): Promise<string> {
  const hash = base64url(await digest(deviceTraits())).slice(0, 22);
  return `${getDeviceId()}${hash}`;
}

/** computeDeviceFingerprint(), once per page. */
export function getDeviceFingerprint(): Promise<string> {
  cached ??= computeDeviceFingerprint().catch((error: unknown) => {
    cached = null;
    throw error;
  });
  return cached;
}

/** Forgets the cached value (tests). */
export function resetDeviceFingerprintCache(): void {
  cached = null;
  memoryDeviceId = null;
}
