// A browser's push machinery for the web unit tests (jsdom has none): Notification with its
// permission, PushManager, and navigator.serviceWorker with one registration whose pushManager
// subscribes. The push service's endpoint is made up; nothing is sent.
import { vi } from 'vitest';
import { PUSH_KIND_DEFAULTS } from '@tribuna/contracts/pushRules';
import type { PushDevice, PushPreferences } from '@tribuna/contracts/api/push';
import { jsonResponse } from '../../test/fixtures';

export const FAKE_ENDPOINT = 'https://fcm.googleapis.com/fcm/send/fake-device-1';
/** 65 bytes (uncompressed P-256 point) as base64url: the server's VAPID public key. */
export const VAPID_KEY = `B${'A'.repeat(86)}`;
export const P256DH = `B${'b'.repeat(86)}`;
export const AUTH = 'c'.repeat(22);

export interface FakePushOptions {
  permission?: NotificationPermission;
  /** What Notification.requestPermission answers. */
  answer?: NotificationPermission;
  /** This browser already holds a subscription (for VAPID_KEY). */
  subscribed?: boolean;
  /** No Push API at all. */
  unsupported?: boolean;
}

export function installFakePush({ permission = 'default', answer = 'granted', subscribed = false, unsupported = false }: FakePushOptions = {}) {
  const state = { permission, subscription: null as ReturnType<typeof subscriptionFor> | null };
  function subscriptionFor(key: ArrayBuffer) {
    return {
      endpoint: FAKE_ENDPOINT,
      options: { applicationServerKey: key, userVisibleOnly: true },
      toJSON: () => ({ endpoint: FAKE_ENDPOINT, expirationTime: null, keys: { p256dh: P256DH, auth: AUTH } }),
      unsubscribe: vi.fn(async () => {
        state.subscription = null;
        return true;
      }),
    };
  }
  const requestPermission = vi.fn(async () => {
    state.permission = answer;
    return answer;
  });
  const subscribe = vi.fn(async ({ applicationServerKey }: { applicationServerKey: Uint8Array }) => {
    state.subscription = subscriptionFor(applicationServerKey.buffer as ArrayBuffer);
    return state.subscription;
  });
  const registration = { pushManager: { getSubscription: vi.fn(async () => state.subscription), subscribe } };
  if (subscribed) state.subscription = subscriptionFor(keyBytes(VAPID_KEY));
  if (!unsupported) {
    vi.stubGlobal(
      'Notification',
      class {
        static get permission() {
          return state.permission;
        }
        static requestPermission = requestPermission;
      },
    );
    vi.stubGlobal('PushManager', class {});
    Object.defineProperty(navigator, 'serviceWorker', {
      configurable: true,
      value: { ready: Promise.resolve(registration), getRegistration: vi.fn(async () => registration) },
    });
  }
  return { state, requestPermission, subscribe };
}

/** Undoes installFakePush's navigator.serviceWorker (the stubbed globals go by themselves). */
export function removeFakePush() {
  Reflect.deleteProperty(navigator, 'serviceWorker');
}

export function keyBytes(base64Url: string): ArrayBuffer {
  const base64 = base64Url.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0)).buffer;
}

let sequence = 0;
export function buildDevice(overrides: Partial<PushDevice> = {}): PushDevice {
  return {
    id: `70000000-0000-4000-8000-${String(++sequence).padStart(12, '0')}`,
    browser: 'Chrome en Android',
    createdAt: '2026-03-01T12:00:00.000Z',
    lastSeenAt: '2026-03-02T12:00:00.000Z',
    ...overrides,
  };
}

export const settingsResponse =
  (devices: PushDevice[] = [], preferences: PushPreferences = PUSH_KIND_DEFAULTS) =>
  () =>
    jsonResponse(200, { devices, preferences });
export const configResponse =
  (enabled = true) =>
  () =>
    jsonResponse(200, { enabled, publicKey: enabled ? VAPID_KEY : '' });
