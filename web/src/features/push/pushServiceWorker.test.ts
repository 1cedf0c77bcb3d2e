// web/public/push-sw.js in a made-up service worker scope: the browser's parts (registration,
// clients, Cache Storage, fetch) are recorded; the script is the real one. The browser test
// (test/e2e/push.test.ts) runs it in Chromium.
import { describe, expect, it, vi } from 'vitest';
import { ENDPOINT_ROUTES } from '@tribuna/contracts/endpointRoutes';
import type { PushPayload } from '@tribuna/contracts/pushRules';
import source from '../../../public/push-sw.js?raw';
import { PUSH_STATE_CACHE, PUSH_STATE_KEY } from './pushState';
import { AUTH, P256DH, VAPID_KEY, keyBytes } from './pushFixtures';

const ORIGIN = 'https://tribuna.test';
const OLD_ENDPOINT = 'https://fcm.googleapis.com/fcm/send/old';
const NEW_ENDPOINT = 'https://fcm.googleapis.com/fcm/send/new';

interface FakeWindow {
  url: string;
  focused: boolean;
  focus: ReturnType<typeof vi.fn>;
  navigate: ReturnType<typeof vi.fn>;
}

function subscription(endpoint: string, key = VAPID_KEY) {
  return {
    endpoint,
    options: { applicationServerKey: keyBytes(key) },
    toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh: P256DH, auth: AUTH } }),
    unsubscribe: vi.fn(async () => true),
  };
}

function tab(url: string, focused = false): FakeWindow {
  const client: FakeWindow = {
    url,
    focused,
    focus: vi.fn(async () => client),
    navigate: vi.fn(async (to: string) => ({ ...client, url: to })),
  };
  return client;
}

/** Runs push-sw.js against a made-up worker scope. */
function worker({ current = null as ReturnType<typeof subscription> | null, recorded = null as object | null, windows = [] as FakeWindow[] } = {}) {
  const listeners = new Map<string, (event: unknown) => void>();
  const store = new Map<string, string>();
  if (recorded) store.set(PUSH_STATE_KEY, JSON.stringify(recorded));
  const cacheNames: string[] = [];
  const caches = {
    open: vi.fn(async (name: string) => {
      cacheNames.push(name);
      return {
        match: async (key: string) => (store.has(key) ? new Response(store.get(key)) : undefined),
        put: async (key: string, response: Response) => void store.set(key, await response.text()),
      };
    }),
  };
  const fetch = vi.fn(async (path: string, init: RequestInit = {}) => {
    if (path === ENDPOINT_ROUTES.pushConfig.path) return Response.json({ enabled: true, publicKey: VAPID_KEY });
    if (path === ENDPOINT_ROUTES.subscribePush.path && init.method === 'POST') return Response.json({ id: 'device-2' }, { status: 201 });
    return new Response('', { status: 404 });
  });
  const registration = {
    showNotification: vi.fn(async () => undefined),
    pushManager: {
      getSubscription: vi.fn(async () => current),
      subscribe: vi.fn(async () => subscription(NEW_ENDPOINT)),
    },
  };
  const clients = { matchAll: vi.fn(async () => windows), openWindow: vi.fn(async (url: string) => ({ url })) };
  const self = {
    addEventListener: (type: string, listener: (event: unknown) => void) => listeners.set(type, listener),
    registration,
    clients,
    location: { origin: ORIGIN },
  };
  new Function('self', 'fetch', 'caches', source)(self, fetch, caches);

  /** Dispatches `type` and waits for what the handler handed to waitUntil. */
  async function dispatch(type: string, fields: object) {
    const pending: Promise<unknown>[] = [];
    listeners.get(type)!({ ...fields, waitUntil: (promise: Promise<unknown>) => pending.push(promise) });
    expect(pending).toHaveLength(1);
    return Promise.all(pending);
  }
  const posts = () =>
    fetch.mock.calls
      .filter(([path, init]) => path === ENDPOINT_ROUTES.subscribePush.path && init?.method === 'POST')
      .map(([, init]) => JSON.parse(String(init?.body)));
  return { dispatch, registration, clients, fetch, posts, store, cacheNames };
}

const pushData = (value: unknown) => ({
  json: () => (typeof value === 'string' ? JSON.parse(value) : value),
  text: () => (typeof value === 'string' ? value : JSON.stringify(value)),
});

const payload: PushPayload = {
  id: 'b7d1f6e0-1111-4000-8000-000000000001',
  kind: 'poll_opened',
  title: '¡Ya pueden votar!',
  body: 'Votación abierta: Gala del domingo',
  url: '/?encuesta=123',
  at: '2026-03-01T21:00:00.000Z',
};

describe('push-sw.js', () => {
  it("shows the payload's notification: title, body, icon, badge, tag = id, URL and time", async () => {
    const sw = worker();
    await sw.dispatch('push', { data: pushData(payload) });
    expect(sw.registration.showNotification).toHaveBeenCalledWith('¡Ya pueden votar!', {
      body: 'Votación abierta: Gala del domingo',
      icon: '/icon-192.png',
      badge: '/badge-96.png',
      lang: 'es',
      tag: payload.id,
      timestamp: Date.parse(payload.at),
      data: { url: '/?encuesta=123', id: payload.id, kind: 'poll_opened' },
    });
  });

  it.each([
    ['no data', null],
    ['data that is not JSON', pushData('{not json')],
    ['JSON without a title', pushData({ body: 'x' })],
  ])('never stays silent: %s still shows a generic Tribuna notification', async (_, data) => {
    const sw = worker();
    await sw.dispatch('push', { data });
    expect(sw.registration.showNotification).toHaveBeenCalledWith(
      'Tribuna',
      expect.objectContaining({ body: 'Tienes novedades en Tribuna.', data: expect.objectContaining({ url: '/' }) }),
    );
  });

  it('never leads to another site', async () => {
    const sw = worker();
    await sw.dispatch('push', { data: pushData({ ...payload, url: 'https://evil.example/phish' }) });
    expect(sw.registration.showNotification).toHaveBeenCalledWith(payload.title, expect.objectContaining({ data: expect.objectContaining({ url: '/' }) }));
  });

  it('on click, focuses an open tab of the site and takes it to the URL', async () => {
    const other = tab('https://elsewhere.test/');
    const home = tab(`${ORIGIN}/wall`, true);
    const sw = worker({ windows: [other, home] });
    const close = vi.fn();
    await sw.dispatch('notificationclick', { notification: { close, data: { url: '/?encuesta=123' } } });
    expect(close).toHaveBeenCalled();
    expect(home.focus).toHaveBeenCalled();
    expect(home.navigate).toHaveBeenCalledWith(`${ORIGIN}/?encuesta=123`);
    expect(other.navigate).not.toHaveBeenCalled();
    expect(sw.clients.openWindow).not.toHaveBeenCalled();
  });

  it('on click, only focuses a tab already on that page, and opens one when no tab is open', async () => {
    const there = tab(`${ORIGIN}/?encuesta=123`);
    const focusOnly = worker({ windows: [tab(`${ORIGIN}/wall`), there] });
    await focusOnly.dispatch('notificationclick', { notification: { close: vi.fn(), data: { url: '/?encuesta=123' } } });
    expect(there.focus).toHaveBeenCalled();
    expect(there.navigate).not.toHaveBeenCalled();

    const none = worker();
    await none.dispatch('notificationclick', { notification: { close: vi.fn(), data: { url: '/publicaciones/9' } } });
    expect(none.clients.openWindow).toHaveBeenCalledWith(`${ORIGIN}/publicaciones/9`);
  });

  it('opens a window when the open tab refuses to navigate (not controlled by the worker)', async () => {
    const stranger = tab(`${ORIGIN}/wall`);
    stranger.navigate.mockRejectedValue(new TypeError('not controlled'));
    const sw = worker({ windows: [stranger] });
    await sw.dispatch('notificationclick', { notification: { close: vi.fn(), data: { url: '/?encuesta=1' } } });
    expect(sw.clients.openWindow).toHaveBeenCalledWith(`${ORIGIN}/?encuesta=1`);
  });

  it('on a push, sends nothing while the subscription is the one the server has', async () => {
    const sw = worker({ current: subscription(OLD_ENDPOINT), recorded: { endpoint: OLD_ENDPOINT, postedAt: Date.now(), deviceId: 'device-1' } });
    await sw.dispatch('push', { data: pushData(payload) });
    expect(sw.fetch).not.toHaveBeenCalled();
  });

  it('on a push, sends a subscription the browser rotated, replacing the old endpoint, and records it', async () => {
    const sw = worker({ current: subscription(NEW_ENDPOINT), recorded: { endpoint: OLD_ENDPOINT, postedAt: Date.now(), deviceId: 'device-1' } });
    await sw.dispatch('push', { data: pushData(payload) });
    expect(sw.posts()).toEqual([{ endpoint: NEW_ENDPOINT, keys: { p256dh: P256DH, auth: AUTH }, replaces: OLD_ENDPOINT }]);
    const request = sw.fetch.mock.calls.find(([path]) => path === ENDPOINT_ROUTES.subscribePush.path)![1]!;
    expect(request.headers).toMatchObject({ 'x-requested-with': 'tribuna', 'content-type': 'application/json' });
    expect(request.credentials).toBe('same-origin');
    expect(sw.cacheNames.every((name) => name === PUSH_STATE_CACHE)).toBe(true);
    expect(JSON.parse(sw.store.get(PUSH_STATE_KEY)!)).toMatchObject({ endpoint: NEW_ENDPOINT, deviceId: 'device-2' });
    expect(sw.registration.showNotification).toHaveBeenCalledTimes(1);
  });

  it('on a push, subscribes again when the server changed its VAPID key', async () => {
    const stale = subscription(OLD_ENDPOINT, `B${'Z'.repeat(86)}`);
    const sw = worker({ current: stale, recorded: { endpoint: OLD_ENDPOINT, postedAt: Date.now() - 8 * 24 * 3600 * 1000 } });
    await sw.dispatch('push', { data: pushData(payload) });
    expect(stale.unsubscribe).toHaveBeenCalled();
    expect(sw.registration.pushManager.subscribe).toHaveBeenCalledWith({ userVisibleOnly: true, applicationServerKey: VAPID_KEY });
    expect(sw.posts()).toEqual([expect.objectContaining({ endpoint: NEW_ENDPOINT, replaces: OLD_ENDPOINT })]);
  });

  it('on pushsubscriptionchange without a new subscription, subscribes with the key from /api/push/config and replaces the old one', async () => {
    const sw = worker({ recorded: { endpoint: OLD_ENDPOINT, postedAt: Date.now() } });
    await sw.dispatch('pushsubscriptionchange', { oldSubscription: { endpoint: OLD_ENDPOINT }, newSubscription: null });
    expect(sw.fetch.mock.calls[0]![0]).toBe(ENDPOINT_ROUTES.pushConfig.path);
    expect(sw.registration.pushManager.subscribe).toHaveBeenCalledWith({ userVisibleOnly: true, applicationServerKey: VAPID_KEY });
    expect(sw.posts()).toEqual([{ endpoint: NEW_ENDPOINT, keys: { p256dh: P256DH, auth: AUTH }, replaces: OLD_ENDPOINT }]);
  });

  it("on pushsubscriptionchange with the browser's new subscription, sends it as it is", async () => {
    const sw = worker();
    await sw.dispatch('pushsubscriptionchange', { oldSubscription: { endpoint: OLD_ENDPOINT }, newSubscription: subscription(NEW_ENDPOINT) });
    expect(sw.registration.pushManager.subscribe).not.toHaveBeenCalled();
    expect(sw.posts()).toEqual([expect.objectContaining({ endpoint: NEW_ENDPOINT, replaces: OLD_ENDPOINT })]);
  });
});
