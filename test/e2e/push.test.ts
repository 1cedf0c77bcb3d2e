import pino from 'pino';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { schema } from '@tribuna/drizzle';
import { PUSH_ADMIN_TEXTS, PUSH_KIND_LABELS, PUSH_TEXTS, type PushPayload } from '@tribuna/contracts/pushRules';
import { startWorker, type WorkerApp } from '../../worker/src/app.ts';
import { axeViolations, seriousOrCritical } from '../support/axe.ts';
import { launchChromium, themedContext } from '../support/browser.ts';
import { testDatabase, truncateAll } from '../support/db.ts';
import { testConfig } from '../support/env.ts';
import { buildPoll, buildUser } from '../support/factories.ts';
import { startServer, type RunningServer } from '../support/liveServer.ts';
import { startPushService, type BrowserSubscription, type PushService } from '../support/pushService.ts';
import { signIn } from '../support/server/sessions.ts';

/** A folder to save the screenshots in (a visual check by hand), or nothing. */
const SCREENSHOTS = process.env.PUSH_SCREENSHOTS;
const PHONE = { width: 390, height: 844 };
type Theme = 'dark' | 'light';

/**
 * Web push in Chromium (issue 31), from the fan's click to the lock screen and back:
 *
 * - after a first vote the fan is asked once on this device ('¿Te avisamos…?'), never again;
 * - in the profile's settings the fan enables push on this device, is listed as 'Este dispositivo',
 *   and changes a kind;
 * - an admin activates a poll and confirms 'Notificar a los fans'; the real worker encrypts the push
 *   for the device and sends it to the local push service (test/support/pushService.ts), which
 *   decrypts it; the queues screen shows the broadcast done;
 * - that very payload is delivered to the page's service worker through the DevTools protocol
 *   (ServiceWorker.deliverPushMessage): the notification shows with the poll's title and URL, and a
 *   click on it takes the fan's open tab to the poll.
 *
 * What a browser cannot do offline: Chromium's PushManager.subscribe() registers with Google's push
 * service (FCM) over the network, which tests do not have, so the page's PushManager is replaced
 * (an init script) by one that answers with a subscription of the local push service, with real
 * P-256 keys. Everything else is the real thing: the permission (granted to the context), the
 * settings' requests, the server's endpoint policy, the worker's encryption and the service worker.
 */
describe('web push in the browser', () => {
  const database = testDatabase();
  let server: RunningServer;
  let worker: WorkerApp;
  let pushService: PushService;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  let fanId = '';
  /** A second fan: each theme's prompt is a first vote. */
  let otherFanId = '';
  let adminId = '';
  let homePollOption = '';
  let draftPollId = '';
  let device: BrowserSubscription;

  const shot = async (page: Page, name: string) => {
    if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/${name}.png` });
  };

  async function expectAxeClean(page: Page) {
    const violations = seriousOrCritical(await axeViolations(page));
    expect(violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)).toEqual([]);
  }

  /** A page of `userId` at 390×844 in `theme`; with `pushDevice`, notifications allowed and the page's PushManager answering with the local push service's subscription. */
  async function pageAs(userId: string, theme: Theme, { pushDevice = false, viewport = PHONE } = {}): Promise<Page> {
    const { token } = await signIn(server.app as never, { id: userId });
    const context = await themedContext(browser, { viewport, theme, session: { token, url: server.url } });
    contexts.push(context);
    if (pushDevice) {
      await context.grantPermissions(['notifications'], { origin: server.url });
      await context.addInitScript((subscription: BrowserSubscription) => {
        // Remembered across reloads, as a browser's subscription is.
        const KEY = 'e2e-push-subscribed';
        const make = () => ({
          endpoint: subscription.endpoint,
          expirationTime: null,
          options: { applicationServerKey: null, userVisibleOnly: true },
          toJSON: () => ({ endpoint: subscription.endpoint, expirationTime: null, keys: subscription.keys }),
          unsubscribe: async () => {
            localStorage.removeItem(KEY);
            return true;
          },
        });
        PushManager.prototype.subscribe = async function () {
          localStorage.setItem(KEY, '1');
          return make() as unknown as PushSubscription;
        };
        PushManager.prototype.getSubscription = async function () {
          return localStorage.getItem(KEY) === '1' ? (make() as unknown as PushSubscription) : null;
        };
      }, device);
    }
    return context.newPage();
  }

  /**
   * Waits until the service worker controls the page: it is registered once the page went idle
   * (web/src/main.tsx) and does not claim the page that registered it, so the page is loaded
   * again once it is active, as a fan's next visit would be.
   */
  async function controlledByServiceWorker(page: Page) {
    await page.evaluate(async () => {
      const worker = (await navigator.serviceWorker.ready).active!;
      if (worker.state !== 'activated')
        await new Promise((resolve) => worker.addEventListener('statechange', () => worker.state === 'activated' && resolve(null)));
    });
    await page.reload();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });
  }

  /** Scrolls the profile to its 'Notificaciones push' settings (for the screenshots). */
  async function showSettings(page: Page) {
    await page.getByRole('heading', { name: PUSH_TEXTS.settingsTitle }).evaluate((heading) => heading.scrollIntoView({ block: 'start' }));
  }

  beforeAll(async () => {
    await truncateAll(database);
    fanId = (await buildUser(database.db, { displayName: 'Ana Fan', username: 'ana_fan' })).id;
    otherFanId = (await buildUser(database.db, { displayName: 'Luis Fan', username: 'luis_fan' })).id;
    adminId = (await buildUser(database.db, { displayName: 'Admin Tribuna', role: 'admin' })).id;
    const home = await buildPoll(database.db, { title: 'Gala de la semana', isFeatured: true, endDate: new Date(Date.now() + 3 * 86_400_000) });
    const [contestant] = await database.db
      .select({ fullName: schema.contestants.fullName })
      .from(schema.contestants)
      .where(eq(schema.contestants.id, home.options[0]!.contestantId!));
    homePollOption = contestant!.fullName;
    draftPollId = (await buildPoll(database.db, { title: 'Gala del domingo', status: 'draft', endDate: new Date(Date.now() + 3 * 86_400_000) })).poll.id;

    pushService = await startPushService();
    const overrides = { PUSH_TEST_ENDPOINT_ORIGINS: pushService.origin };
    server = await startServer(overrides);
    worker = await startWorker({ config: testConfig(overrides), db: database.db, logger: pino({ level: 'silent' }), schedules: false });
    const config = (await server.app.inject({ method: 'GET', url: '/api/push/config' })).json<{ enabled: boolean; publicKey: string }>();
    expect(config.enabled).toBe(true);
    device = pushService.newSubscription({ applicationServerKey: config.publicKey });
    browser = await launchChromium();
  });

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await worker?.close();
    await server?.close();
    await pushService?.close();
    await database.close();
  });

  it.each<Theme>(['dark', 'light'])('asks once per device after a vote, never on load (%s)', async (theme) => {
    const page = await pageAs(theme === 'dark' ? fanId : otherFanId, theme);
    await page.goto(server.url);
    await page.getByRole('heading', { name: 'Gala de la semana' }).waitFor();
    await page.getByRole('radio', { name: new RegExp(homePollOption) }).check();
    expect(await page.getByRole('dialog').count()).toBe(0);
    await page.getByRole('button', { name: 'Votar' }).click();
    await page.getByText('¡Voto registrado!').waitFor();

    const prompt = page.getByRole('dialog', { name: PUSH_TEXTS.promptTitle });
    await prompt.waitFor();
    await expect.poll(() => prompt.evaluate((element) => element === document.activeElement)).toBe(true);
    await shot(page, `prompt-${theme}`);
    await expectAxeClean(page);

    await prompt.getByRole('button', { name: PUSH_TEXTS.promptDismiss }).click();
    await prompt.waitFor({ state: 'detached' });
    // The next vote on this device does not ask again, nor does a reload.
    await page.getByRole('button', { name: 'Cambiar voto' }).click();
    await page.getByRole('radio', { name: new RegExp(homePollOption) }).check();
    await page.getByRole('button', { name: 'Votar' }).click();
    await page.getByText('¡Voto registrado!').waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Gala de la semana' }).waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(await page.evaluate(() => localStorage.getItem('tribuna-push-prompted'))).toBe('1');
  });

  it.each<Theme>(['light', 'dark'])("enables push on this device in the profile's settings and saves a kind (%s)", async (theme) => {
    const page = await pageAs(fanId, theme, { pushDevice: true });
    await page.goto(`${server.url}/perfil`);
    await controlledByServiceWorker(page);
    const enable = page.getByRole('button', { name: PUSH_TEXTS.enable });
    await showSettings(page);
    await shot(page, `settings-before-${theme}`);

    await enable.click();
    await page.getByText(PUSH_TEXTS.thisDevice, { exact: true }).waitFor();
    await page.getByRole('button', { name: PUSH_TEXTS.disable }).waitFor();
    const rows = await database.db.select().from(schema.pushSubscriptions).where(eq(schema.pushSubscriptions.endpoint, device.endpoint));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ userId: fanId, p256dh: device.keys.p256dh, auth: device.keys.auth });

    const reactions = page.getByRole('switch', { name: PUSH_KIND_LABELS.reactions });
    const wanted = theme === 'light';
    await reactions.setChecked(wanted);
    await page.getByText(PUSH_TEXTS.saved).waitFor();
    const [preferences] = await database.db.select().from(schema.pushPreferences).where(eq(schema.pushPreferences.userId, fanId));
    expect(preferences?.reactions).toBe(wanted);

    await showSettings(page);
    await shot(page, `settings-enabled-${theme}`);
    await expectAxeClean(page);
  });

  it("delivers an admin's 'Notificar a los fans' to the device; the notification shows the poll and a click opens it", async () => {
    // The fan's phone, on another page of the site, with the service worker in control.
    const fan = await pageAs(fanId, 'dark', { pushDevice: true });
    const cdp: CDPSession = await fan.context().newCDPSession(fan);
    const registrations: Array<{ registrationId: string; scopeURL: string; isDeleted: boolean }> = [];
    cdp.on('ServiceWorker.workerRegistrationUpdated', (event) => registrations.push(...event.registrations));
    await cdp.send('ServiceWorker.enable');
    await fan.goto(`${server.url}/wall`);
    await controlledByServiceWorker(fan);

    // The admin activates the draft and notifies the fans, confirmed.
    const admin = await pageAs(adminId, 'light', { viewport: { width: 1280, height: 900 } });
    await admin.goto(`${server.url}/admin/encuestas`);
    const row = admin.getByRole('row').filter({ hasText: 'Gala del domingo' });
    await row.getByRole('button', { name: 'Activar: Gala del domingo' }).click();
    await admin.getByRole('button', { name: `${PUSH_ADMIN_TEXTS.notify}: Gala del domingo` }).click();
    const confirm = admin.getByRole('dialog', { name: PUSH_ADMIN_TEXTS.confirmTitle });
    await confirm.getByRole('button', { name: PUSH_ADMIN_TEXTS.confirm }).click();
    await admin.getByText(`${PUSH_ADMIN_TEXTS.queued}: Gala del domingo`).waitFor();

    // The worker encrypted it for the device; the push service decrypted it.
    await pushService.waitForDeliveries(1, 30_000);
    const [received] = pushService.received(device);
    const payload = received!.data as PushPayload;
    expect(payload).toMatchObject({
      kind: 'poll_opened',
      title: '¡Ya pueden votar!',
      body: 'Votación abierta: Gala del domingo',
      url: `/?encuesta=${draftPollId}`,
    });
    const [broadcast] = await database.db
      .select()
      .from(schema.pushBroadcasts)
      .where(and(eq(schema.pushBroadcasts.pollId, draftPollId), eq(schema.pushBroadcasts.kind, 'poll_opened')));
    expect(broadcast?.createdBy).toBe(adminId);

    // The queues screen shows it done: 1 of 1.
    await admin.goto(`${server.url}/admin/colas`);
    const progress = admin.getByRole('progressbar', { name: 'Progreso de Gala del domingo' });
    await expect.poll(() => progress.getAttribute('aria-valuetext'), { timeout: 15_000 }).toBe('1 de 1 dispositivos');
    await admin.getByText('Terminada').waitFor();
    await progress.scrollIntoViewIfNeeded();
    await shot(admin, 'queues-broadcast-light');

    // The browser's push service hands the message to the service worker: it shows the notification.
    await expect.poll(() => registrations.filter((r) => !r.isDeleted && r.scopeURL === `${server.url}/`).length).toBeGreaterThan(0);
    const registrationId = registrations.find((r) => !r.isDeleted && r.scopeURL === `${server.url}/`)!.registrationId;
    await cdp.send('ServiceWorker.deliverPushMessage', { origin: server.url, registrationId, data: received!.text });
    const notifications = async () =>
      fan.evaluate(async () => {
        const registration = await navigator.serviceWorker.ready;
        return (await registration.getNotifications()).map((n) => ({
          title: n.title,
          body: n.body,
          tag: n.tag,
          icon: n.icon,
          badge: n.badge,
          data: n.data as unknown,
        }));
      });
    await expect.poll(async () => (await notifications()).length).toBe(1);
    const [shown] = await notifications();
    expect(shown).toMatchObject({
      title: '¡Ya pueden votar!',
      body: 'Votación abierta: Gala del domingo',
      tag: payload.id,
      icon: `${server.url}/icon-192.png`,
      badge: `${server.url}/badge-96.png`,
      data: { url: `/?encuesta=${draftPollId}`, id: payload.id, kind: 'poll_opened' },
    });

    // A push the service worker cannot read still shows something (never silent).
    await cdp.send('ServiceWorker.deliverPushMessage', { origin: server.url, registrationId, data: 'not json' });
    await expect.poll(async () => (await notifications()).map((n) => n.title)).toContain('Tribuna');

    // The fan taps the notification: the open tab goes to the poll.
    const [serviceWorker] = fan.context().serviceWorkers();
    expect(serviceWorker).toBeDefined();
    await serviceWorker!.evaluate(async (tag) => {
      // The worker's global scope (the DOM typings of this file know only windows).
      const scope = self as unknown as {
        registration: ServiceWorkerRegistration;
        dispatchEvent: (event: Event) => boolean;
        NotificationEvent: new (type: string, init: { notification: Notification }) => Event;
      };
      const [notification] = await scope.registration.getNotifications({ tag });
      scope.dispatchEvent(new scope.NotificationEvent('notificationclick', { notification: notification! }));
    }, payload.id);
    await fan.waitForURL(`${server.url}/?encuesta=${draftPollId}`);
    await fan.getByRole('heading', { name: 'Gala del domingo' }).first().waitFor();
    expect((await notifications()).map((n) => n.tag)).not.toContain(payload.id);
  });
});
