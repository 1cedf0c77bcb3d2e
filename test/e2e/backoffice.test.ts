import pino from 'pino';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '@tribuna/drizzle';
import { eq, sql } from 'drizzle-orm';
import { signIn } from '../support/server/sessions.ts';
import { startWorker, type WorkerApp } from '../../worker/src/app.ts';
import { launchChromium } from '../support/browser.ts';
import { testDatabase, truncateAll } from '../support/db.ts';
import { buildPoll, buildUser } from '../support/factories.ts';
import { startServer, type RunningServer } from '../support/liveServer.ts';

const POLL = '¿Quién merece quedarse?';
const SHARED_DEVICE = 'device-compartido-0123456789abcdef';

/**
 * The back-office II in real browsers with a real worker (issue 14): an admin suspends a fan, whose
 * next vote is refused; two accounts vote from one device; the reports screen shows the day's votes
 * once the worker has recomputed them; the abuse scan flags the shared device and the admin voids
 * its votes; a fan keeping the home page open sees the bars change without a reload.
 */
describe('the back-office: users, reports and abuse, with the worker', () => {
  const database = testDatabase();
  let server: RunningServer;
  let worker: WorkerApp;
  let browser: Browser;
  let admin: Page;
  let watcher: Page;
  let optionName: string;
  let pollId: string;
  let optionId: string;
  const contexts: BrowserContext[] = [];

  async function pageAs(user: { id: string }, viewport: { width: number; height: number }, at: string): Promise<Page> {
    const { token } = await signIn(server.app as never, user as never);
    const context = await browser.newContext({ viewport });
    await context.addCookies([{ name: 'tribuna_session', value: token, url: server.url }]);
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(`${server.url}${at}`);
    return page;
  }

  /** A vote through the real route, as `user`, from `device`. */
  async function voteAs(user: { id: string }, device: string): Promise<number> {
    const { cookie } = await signIn(server.app as never, user as never);
    const res = await server.app.inject({
      method: 'POST',
      url: `/api/polls/${pollId}/votes`,
      headers: { cookie, 'x-requested-with': 'tribuna', origin: server.url },
      payload: { optionId, deviceFingerprint: device },
    });
    return res.statusCode;
  }

  beforeAll(async () => {
    await truncateAll(database);
    const { poll, options } = await buildPoll(database.db, { options: 2, isFeatured: true, endDate: new Date(Date.now() + 3 * 86_400_000), title: POLL });
    pollId = poll.id;
    optionId = options[0]!.id;
    const [contestant] = await database.db
      .select({ fullName: schema.contestants.fullName })
      .from(schema.contestants)
      .where(eq(schema.contestants.id, options[0]!.contestantId!));
    optionName = contestant!.fullName;
    server = await startServer();
    const { testConfig } = await import('../support/env.ts');
    worker = await startWorker({ config: testConfig(), db: database.db, logger: pino({ level: 'silent' }), schedules: false });
    browser = await launchChromium();
    const adminUser = await buildUser(database.db, { displayName: 'Admin Tribuna', role: 'admin' });
    admin = await pageAs(adminUser, { width: 1280, height: 900 }, '/admin/usuarios');
    await admin.getByRole('heading', { name: 'Administración' }).waitFor();
  });

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await worker?.close();
    await server?.close();
    await database.close();
  });

  it('suspends a fan from the users screen; their next vote is refused', async () => {
    const fan = await buildUser(database.db, { displayName: 'Fan Sospechosa' });
    const fanPage = await pageAs(fan, { width: 390, height: 844 }, '/');
    await fanPage.getByRole('heading', { level: 1, name: POLL }).waitFor();

    await admin.getByRole('searchbox').first().fill('Sospechosa');
    await admin.getByRole('button', { name: 'Suspender a Fan Sospechosa' }).first().click();
    await admin.getByRole('dialog').getByRole('button', { name: 'Suspender' }).click();
    await expect.poll(async () => (await database.db.select().from(schema.profiles).where(eq(schema.profiles.id, fan.id)))[0]!.isSuspended).toBe(true);

    // The fan's page still shows the poll; voting is refused (the suspension ended every session of
    // theirs, so the refused vote sends them to sign in again) and stores nothing.
    await fanPage.getByRole('radio', { name: new RegExp(optionName) }).check();
    await fanPage.getByRole('button', { name: 'Votar' }).click();
    await fanPage.waitForURL(/\/login$/);
    expect(await fanPage.getByText('¡Voto registrado!').count()).toBe(0);
    const [stored] = await database.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM votes WHERE user_id = ${fan.id}`);
    expect(stored!.n).toBe(0);
    const audit = await database.db.select().from(schema.adminAuditLog).where(eq(schema.adminAuditLog.action, 'user.suspend'));
    expect(audit).toHaveLength(1);
  });

  it('shows the day’s votes on the reports screen after the worker recomputes them, then voids a shared device’s votes live', async () => {
    // Two accounts vote from the same device: a flagged device.
    const botA = await buildUser(database.db, { displayName: 'Cuenta Uno' });
    const botB = await buildUser(database.db, { displayName: 'Cuenta Dos' });
    expect(await voteAs(botA, SHARED_DEVICE)).toBe(201);
    expect(await voteAs(botB, SHARED_DEVICE)).toBe(201);

    // A fan keeps the home page open and sees both votes on the first option.
    const viewer = await buildUser(database.db, { displayName: 'Mirona Fiel' });
    watcher = await pageAs(viewer, { width: 390, height: 844 }, '/');
    const bar = `[role=progressbar][aria-label="Porcentaje de ${optionName}"]`;
    await watcher.waitForFunction((selector) => document.querySelector(selector)?.getAttribute('aria-valuenow') === '100', bar);
    const navigations: string[] = [];
    watcher.on('framenavigated', (frame) => navigations.push(frame.url()));

    // Reports: Hoy, after a full recompute by the worker.
    await admin.goto(`${server.url}/admin/informes`);
    await admin.getByRole('button', { name: 'Hoy' }).click();
    await admin.getByRole('button', { name: 'Recalcular todo' }).click();
    await expect
      .poll(
        async () => {
          await admin.getByRole('button', { name: 'Hoy' }).click();
          return admin.getByTestId('report-total-totalVotes').textContent();
        },
        { timeout: 20_000, interval: 1000 },
      )
      .toBe('2');

    // Abuse: a scan run by the worker flags the device; its votes are voided after review.
    await admin.goto(`${server.url}/admin/abuse-report`);
    await admin.getByRole('button', { name: 'Actualizar reporte' }).click();
    const shown = SHARED_DEVICE.slice(0, 16);
    const votesButton = admin.getByRole('button', { name: new RegExp(`Ver votos del dispositivo ${shown}`) });
    await votesButton.waitFor({ timeout: 20_000 });
    expect(await admin.getByTestId('abuse-flaggedDevices').textContent()).toBe('1');
    await votesButton.click();
    const dialog = admin.getByRole('dialog');
    await dialog.getByText('Seleccionar todos').click();
    await dialog.getByLabel(/Motivo de la anulación/).fill('Dos cuentas desde un mismo dispositivo');
    await dialog.getByRole('button', { name: 'Anular votos seleccionados' }).click();
    await admin.getByRole('dialog', { name: 'Anular votos' }).getByRole('button', { name: 'Anular votos' }).click();

    // The voided votes leave the results at once: the watcher's bar drops to 0 without a reload.
    await watcher.waitForFunction((selector) => document.querySelector(selector)?.getAttribute('aria-valuenow') === '0', bar, { timeout: 10_000 });
    expect(navigations).toEqual([]);
    const [left] = await database.db.execute<{ votes: number; voided: number }>(
      sql`SELECT (SELECT count(*)::int FROM votes WHERE poll_id = ${pollId}) AS votes, (SELECT count(*)::int FROM voided_votes WHERE poll_id = ${pollId}) AS voided`,
    );
    expect(left).toEqual({ votes: 0, voided: 2 });
  });
});
