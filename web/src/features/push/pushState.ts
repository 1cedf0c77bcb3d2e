/**
 * What this device remembers about push: the id of its subscription on the server (to mark 'Este
 * dispositivo' in the list), and, in Cache Storage,
 * the endpoint last sent to the server, which the service worker (web/public/push-sw.js) reads to
 * tell a rotated subscription from the one the server knows. The cache names are the worker's.
 */
export const DEVICE_ID_KEY = 'tribuna-push-device';
export const PUSH_STATE_CACHE = 'tribuna-push';
export const PUSH_STATE_KEY = '/push-state.json';

function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string | null): void {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // Without storage the device is simply not marked, and the prompt may come again.
  }
}

export const storedDeviceId = (): string | null => read(DEVICE_ID_KEY);
export const storeDeviceId = (id: string | null): void => write(DEVICE_ID_KEY, id);

/** Records what the server now knows for the service worker (best effort: without Cache Storage it sends again on the next push). */
export async function recordSentSubscription(endpoint: string | null, deviceId: string | null): Promise<void> {
  if (typeof caches === 'undefined') return;
  try {
    const cache = await caches.open(PUSH_STATE_CACHE);
    if (endpoint === null) await cache.delete(PUSH_STATE_KEY);
    else
      await cache.put(
        PUSH_STATE_KEY,
        new Response(JSON.stringify({ endpoint, postedAt: Date.now(), deviceId }), { headers: { 'content-type': 'application/json' } }),
      );
  } catch {
    // The worker sends the subscription again on the next push.
  }
}

/** The device id the service worker recorded after it sent a rotated subscription (or null). */
export async function recordedDeviceId(): Promise<string | null> {
  if (typeof caches === 'undefined') return null;
  try {
    const response = await (await caches.open(PUSH_STATE_CACHE)).match(PUSH_STATE_KEY);
    const state = response ? ((await response.json()) as { deviceId?: unknown }) : null;
    return typeof state?.deviceId === 'string' ? state.deviceId : null;
  } catch {
    return null;
  }
}
