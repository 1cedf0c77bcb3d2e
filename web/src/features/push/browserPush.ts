import type { PushDevice, PushSubscriptionInput } from '@tribuna/contracts/api/push';
import { isRunningInstalled } from '../../lib/pwa/installPrompt';
import { fetchPushConfig, sendPushSubscription } from './api';
import { recordSentSubscription, storeDeviceId } from './pushState';

/**
 * - `supported`: this browser can subscribe;
 * - `ios`: an iPhone or iPad outside the home-screen app (Safari gives web push only to home-screen apps, iOS 16.4+);
 * - `unsupported`: no service worker, Push API or notifications here.
 */
export type PushSupport = 'supported' | 'ios' | 'unsupported';

function isAppleMobile(): boolean {
  const ua = navigator.userAgent;
  // iPadOS reports itself as a Mac; a Mac has no touch screen.
  return /iPhone|iPad|iPod/.test(ua) || (/Macintosh/.test(ua) && navigator.maxTouchPoints > 1);
}

export function pushSupport(): PushSupport {
  const apis = 'serviceWorker' in navigator && typeof window.PushManager !== 'undefined' && typeof window.Notification !== 'undefined';
  if (isAppleMobile() && !isRunningInstalled()) return 'ios';
  return apis ? 'supported' : 'unsupported';
}

/** 'default' | 'granted' | 'denied' (denied where notifications do not exist at all). */
export function notificationPermission(): NotificationPermission {
  return typeof window.Notification === 'undefined' ? 'denied' : Notification.permission;
}

/** How long to wait for the service worker (registered once the page went idle, web/src/main.tsx). */
export const SERVICE_WORKER_WAIT_MS = 20_000;

async function serviceWorker(): Promise<ServiceWorkerRegistration> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('The service worker did not become ready')), SERVICE_WORKER_WAIT_MS);
  });
  try {
    return await Promise.race([navigator.serviceWorker.ready, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** This browser's current push subscription, or null (also where push does not work). */
export async function currentSubscription(): Promise<PushSubscription | null> {
  if (pushSupport() !== 'supported') return null;
  const registration = await navigator.serviceWorker.getRegistration();
  return (await registration?.pushManager.getSubscription()) ?? null;
}

/** The VAPID key (base64url) as the bytes pushManager.subscribe takes. */
export function applicationServerKey(base64Url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64Url.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** What POST /api/me/push/subscriptions takes, from the browser's subscription. */
export function subscriptionInput(subscription: PushSubscription): PushSubscriptionInput {
  const json = subscription.toJSON();
  const { p256dh = '', auth = '' } = json.keys ?? {};
  return {
    endpoint: json.endpoint ?? subscription.endpoint,
    ...(typeof json.expirationTime === 'number' ? { expirationTime: json.expirationTime } : {}),
    keys: { p256dh, auth },
  };
}

/** Sends this browser's subscription to the server and remembers the device it became. */
export async function registerSubscription(subscription: PushSubscription): Promise<PushDevice> {
  const device = await sendPushSubscription(subscriptionInput(subscription));
  storeDeviceId(device.id);
  await recordSentSubscription(subscription.endpoint, device.id);
  return device;
}

export type EnableResult = { status: 'enabled'; device: PushDevice } | { status: 'denied' } | { status: 'unavailable' };

/**
 * 'Activar en este dispositivo' and 'Sí, avísame': asks for permission (only ever from a click),
 * subscribes with the server's VAPID key (again when the browser holds one for another key), and
 * sends the subscription. Throws when subscribing or sending fails (an ApiError carries the server's
 * Spanish message: too many devices, a refused push service).
 */
export async function enableThisDevice(): Promise<EnableResult> {
  if (pushSupport() !== 'supported') return { status: 'unavailable' };
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return { status: 'denied' };
  const [config, registration] = await Promise.all([fetchPushConfig(), serviceWorker()]);
  if (!config.enabled) return { status: 'unavailable' };
  const key = applicationServerKey(config.publicKey);
  let subscription = await registration.pushManager.getSubscription();
  const subscribedKey = subscription?.options.applicationServerKey;
  if (subscription && subscribedKey && !sameBytes(new Uint8Array(subscribedKey), key)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  return { status: 'enabled', device: await registerSubscription(subscription) };
}

/** Forgets this browser's subscription (after 'Desactivar' or 'Quitar' of this device). */
export async function unsubscribeThisDevice(): Promise<void> {
  const subscription = await currentSubscription().catch(() => null);
  await subscription?.unsubscribe().catch(() => false);
  storeDeviceId(null);
  await recordSentSubscription(null, null);
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}
