/*
 * Tribuna's web push handlers (issue 31), imported by the generated service worker
 * (web/vite.config.ts, workbox `importScripts`). A plain script, not bundled: it runs as it is in
 * the worker's global scope, so everything stays inside this function.
 *
 * - `push`: shows the notification the worker sent (contracts/src/pushRules.ts PushPayload). Never
 *   silent: a push that cannot be read still shows a generic 'Tribuna' notification (browsers revoke
 *   subscriptions that receive pushes without showing anything).
 * - `notificationclick`: focuses an open tab of the site and takes it to the push's page, or opens one.
 * - `pushsubscriptionchange`, and each push: when the browser rotated the subscription (or the
 *   server's VAPID key changed), subscribes again and sends it to the server with `replaces`.
 */
(() => {
  const ICON = '/icon-192.png';
  /** Monochrome (white on transparent): Android shows it in the status bar. */
  const BADGE = '/badge-96.png';
  const FALLBACK = { title: 'Tribuna', body: 'Tienes novedades en Tribuna.', url: '/' };
  /** Same names as web/src/features/push/pushState.ts: the page records what it sent there too. */
  const STATE_CACHE = 'tribuna-push';
  const STATE_KEY = '/push-state.json';
  const CONFIG_PATH = '/api/push/config';
  const SUBSCRIBE_PATH = '/api/me/push/subscriptions';
  /** A subscription the server confirmed this long ago is sent again on the next push (it refreshes the device's 'last seen'). */
  const RECONFIRM_MS = 7 * 24 * 60 * 60 * 1000;
  const REQUEST_TIMEOUT_MS = 10_000;

  const text = (value, max) => (typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, max) : null);

  /** A path of this site (never another origin, whatever the payload says). */
  function sitePath(value) {
    if (typeof value !== 'string' || value === '') return FALLBACK.url;
    try {
      const url = new URL(value, self.location.origin);
      return url.origin === self.location.origin ? `${url.pathname}${url.search}${url.hash}` : FALLBACK.url;
    } catch {
      return FALLBACK.url;
    }
  }

  /** The notification a push shows: its payload's, or the generic one when it cannot be read. */
  function notificationOf(data) {
    let payload = null;
    try {
      payload = data ? data.json() : null;
    } catch {
      payload = null;
    }
    if (payload === null || typeof payload !== 'object') payload = {};
    const title = text(payload.title, 200);
    const at = typeof payload.at === 'string' ? Date.parse(payload.at) : NaN;
    const id = text(payload.id, 100);
    const url = sitePath(payload.url);
    return {
      title: title ?? FALLBACK.title,
      options: {
        body: title ? (text(payload.body, 500) ?? '') : FALLBACK.body,
        icon: typeof payload.icon === 'string' && payload.icon.startsWith('/') ? payload.icon : ICON,
        badge: BADGE,
        lang: 'es',
        // The same push received twice (resent after a worker died) replaces the first copy.
        ...(id ? { tag: id } : {}),
        timestamp: Number.isFinite(at) ? at : Date.now(),
        data: { url, id, kind: typeof payload.kind === 'string' ? payload.kind : null },
      },
    };
  }

  async function withTimeout(path, init) {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), REQUEST_TIMEOUT_MS);
    try {
      return await fetch(path, { credentials: 'same-origin', ...init, signal: controller.signal });
    } finally {
      clearTimeout(timer);
    }
  }

  async function readState() {
    try {
      const cache = await caches.open(STATE_CACHE);
      const response = await cache.match(STATE_KEY);
      return response ? await response.json() : null;
    } catch {
      return null;
    }
  }

  async function writeState(state) {
    const cache = await caches.open(STATE_CACHE);
    await cache.put(STATE_KEY, new Response(JSON.stringify(state), { headers: { 'content-type': 'application/json' } }));
  }

  async function pushConfig() {
    const response = await withTimeout(CONFIG_PATH, { headers: { accept: 'application/json' } });
    if (!response.ok) return null;
    const config = await response.json();
    return config && config.enabled && typeof config.publicKey === 'string' ? config : null;
  }

  function base64Url(buffer) {
    let binary = '';
    for (const byte of new Uint8Array(buffer)) binary += String.fromCharCode(byte);
    return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  }

  /** POST /api/me/push/subscriptions (signed-in fans only: a 401 leaves it to the page). */
  async function sendSubscription(subscription, replaces) {
    const json = subscription.toJSON();
    const body = { endpoint: json.endpoint, keys: json.keys };
    if (typeof json.expirationTime === 'number') body.expirationTime = json.expirationTime;
    if (replaces && replaces !== json.endpoint) body.replaces = replaces;
    const response = await withTimeout(SUBSCRIBE_PATH, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json', 'x-requested-with': 'tribuna' },
      body: JSON.stringify(body),
    });
    if (!response.ok) return;
    const device = await response.json().catch(() => null);
    await writeState({ endpoint: json.endpoint, postedAt: Date.now(), deviceId: device && typeof device.id === 'string' ? device.id : null });
  }

  /**
   * Makes sure the server knows this device's current subscription: subscribes again when the
   * browser dropped it (`pushsubscriptionchange`) or the server's key changed, and sends it with
   * `replaces` (the endpoint it rotated away from) when it differs from the one last sent.
   */
  async function refreshSubscription({ rotated = false, oldEndpoint = null, newSubscription = null } = {}) {
    const state = await readState();
    let subscription = newSubscription ?? (await self.registration.pushManager.getSubscription());
    // On a push with no subscription (never subscribed here, or unsubscribed from the page): nothing to keep.
    if (!subscription && !rotated) return;
    const fresh = subscription && state && state.endpoint === subscription.endpoint && Date.now() - state.postedAt < RECONFIRM_MS;
    if (fresh && !rotated) return;
    const config = await pushConfig();
    if (!config) return;
    const previous = oldEndpoint ?? (state ? state.endpoint : null);
    const key = subscription && subscription.options ? subscription.options.applicationServerKey : null;
    if (subscription && key && base64Url(key) !== config.publicKey) {
      await subscription.unsubscribe().catch(() => false);
      subscription = null;
    }
    subscription ??= await self.registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: config.publicKey });
    await sendSubscription(subscription, previous);
  }

  self.addEventListener('push', (event) => {
    const { title, options } = notificationOf(event.data);
    event.waitUntil(
      Promise.all([
        self.registration.showNotification(title, options),
        // Never in the way of the notification: a failure here only waits for the next push.
        refreshSubscription().catch(() => undefined),
      ]),
    );
  });

  /** Focuses a tab of the site (the one on that page, the focused one, any) and takes it there, or opens a new one. */
  async function openPage(path) {
    const url = new URL(path, self.location.origin).href;
    const windows = (await self.clients.matchAll({ type: 'window', includeUncontrolled: true })).filter(
      (client) => new URL(client.url).origin === self.location.origin,
    );
    const client = windows.find((c) => c.url === url) ?? windows.find((c) => c.focused) ?? windows[0];
    if (!client) return self.clients.openWindow(url);
    // Focus while the click still allows it, then navigate (a tab this worker does not control refuses: open one instead).
    const focused = await client.focus().catch(() => client);
    if (client.url === url) return focused;
    try {
      return (await client.navigate(url)) ?? focused;
    } catch {
      return self.clients.openWindow(url);
    }
  }

  self.addEventListener('notificationclick', (event) => {
    event.notification.close();
    const data = event.notification.data ?? {};
    event.waitUntil(openPage(sitePath(data.url)));
  });

  self.addEventListener('pushsubscriptionchange', (event) => {
    event.waitUntil(
      refreshSubscription({
        rotated: true,
        oldEndpoint: event.oldSubscription ? event.oldSubscription.endpoint : null,
        newSubscription: event.newSubscription ?? null,
      }).catch(() => undefined),
    );
  });
})();
