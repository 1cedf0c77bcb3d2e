import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../support/server/sessions.ts';
import { launchChromium } from '../support/browser.ts';
import { testDatabase, truncateAll } from '../support/db.ts';
import { buildPoll, buildUser } from '../support/factories.ts';
import { startServer, type RunningServer } from '../support/liveServer.ts';

const REALITY = 'Gran Hermano Tribuna';
const SEASON = `${REALITY} · Temporada 1`;
const CONTESTANTS = ['Ana Fuerte', 'Bruno Sereno', 'Carla Veloz'];
const POLL = '¿Quién debe salvarse esta semana?';
const OLD_POLL = 'La encuesta de la semana pasada';

/**
 * The back-office in a real browser (issue 12): an admin builds a reality, an active season, three
 * contestants with uploaded photos and a poll through the UI only, then features and closes the
 * poll; a fan keeps the home page open on a phone and sees the new poll replace the old featured one,
 * then shows it closed, without a reload.
 */
describe('the back-office, from an empty catalogue to a featured and closed poll', () => {
  const database = testDatabase();
  const mediaDir = mkdtempSync(path.join(tmpdir(), 'tribuna-e2e-admin-media-'));
  let server: RunningServer;
  let browser: Browser;
  let admin: Page;
  let fan: Page;
  let adminId: string;
  const contexts: BrowserContext[] = [];

  async function signedInPage(role: 'admin' | 'user', displayName: string, viewport: { width: number; height: number }, at: string): Promise<Page> {
    const user = await buildUser(database.db, { displayName, role });
    if (role === 'admin') adminId = user.id;
    const { token } = await signIn(server.app as never, user);
    const context = await browser.newContext({ viewport });
    await context.addCookies([{ name: 'tribuna_session', value: token, url: server.url }]);
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(`${server.url}${at}`);
    return page;
  }

  beforeAll(async () => {
    await truncateAll(database);
    await buildPoll(database.db, { options: 2, isFeatured: true, endDate: new Date(Date.now() + 3 * 86_400_000), title: OLD_POLL });
    server = await startServer({ MEDIA_DIR: mediaDir });
    browser = await launchChromium();
    fan = await signedInPage('user', 'Fan Atenta', { width: 390, height: 844 }, '/');
    await fan.getByRole('heading', { level: 1, name: OLD_POLL }).waitFor();
    await fan.getByText('En vivo').first().waitFor();
    admin = await signedInPage('admin', 'Admin Tribuna', { width: 1280, height: 900 }, '/admin');
    await admin.getByRole('heading', { name: 'Administración' }).waitFor();
  });

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await server?.close();
    await database.close();
  });

  /** Follows a sidebar entry (client-side navigation) and waits for the screen's heading. */
  async function openSection(label: string): Promise<void> {
    await admin.getByRole('navigation', { name: 'Secciones de administración' }).getByRole('link', { name: label, exact: true }).click();
    await admin.getByRole('heading', { level: 2, name: label, exact: true }).waitFor();
  }

  /** Waits for the modal named `title` to open, returns it. */
  async function dialog(title: string): Promise<Locator> {
    const modal = admin.getByRole('dialog', { name: title });
    await modal.waitFor();
    return modal;
  }

  const photo = (r: number, g: number) =>
    sharp({ create: { width: 800, height: 600, channels: 3, background: { r, g, b: 90 } } })
      .jpeg()
      .toBuffer();

  it('creates the catalogue and a poll, features it and closes it; the home page follows live', async () => {
    const navigations: string[] = [];
    fan.on('framenavigated', (frame) => navigations.push(frame.url()));

    // A reality.
    await openSection('Realities');
    await admin.getByRole('button', { name: 'Nuevo reality' }).click();
    let modal = await dialog('Nuevo reality');
    await modal.getByRole('textbox', { name: 'Nombre' }).fill(REALITY);
    expect(await modal.getByRole('checkbox', { name: 'Activo' }).isChecked()).toBe(true);
    await modal.getByRole('button', { name: 'Crear reality' }).click();
    await modal.waitFor({ state: 'detached' });
    await admin.getByRole('list', { name: 'Realities' }).getByText(REALITY).waitFor();

    // An active season of it.
    await openSection('Temporadas');
    await admin.getByRole('button', { name: 'Nueva temporada' }).click();
    modal = await dialog('Nueva temporada');
    await modal.getByRole('combobox', { name: 'Reality' }).selectOption({ label: REALITY });
    expect(await modal.getByRole('spinbutton', { name: 'Número' }).inputValue()).toBe('1');
    await modal.getByRole('checkbox', { name: 'Activa' }).check();
    await modal.getByRole('button', { name: 'Crear temporada' }).click();
    await modal.waitFor({ state: 'detached' });
    await admin.getByRole('button', { name: `Editar ${SEASON}` }).waitFor();

    // Three contestants, each with an uploaded photo.
    await openSection('Concursantes');
    for (const [index, name] of CONTESTANTS.entries()) {
      await admin.getByRole('button', { name: 'Nuevo concursante' }).click();
      modal = await dialog('Nuevo concursante');
      await modal.getByRole('combobox', { name: 'Temporada' }).selectOption({ label: SEASON });
      await modal.getByRole('textbox', { name: 'Nombre completo' }).fill(name);
      const [chooser] = await Promise.all([admin.waitForEvent('filechooser'), modal.getByRole('button', { name: 'Elegir foto' }).click()]);
      await chooser.setFiles({ name: `foto-${index + 1}.jpg`, mimeType: 'image/jpeg', buffer: await photo(60 * index, 200 - 50 * index) });
      // The upload is over when the field offers to change the photo and previews the stored one.
      await modal.getByRole('button', { name: 'Cambiar foto' }).waitFor();
      await expect.poll(() => modal.getByRole('img', { name: `Vista previa de la foto de ${name}` }).getAttribute('src')).toMatch(/^\/media\//);
      expect(await modal.getByRole('progressbar', { name: 'Subiendo foto' }).count()).toBe(0);
      await modal.getByRole('button', { name: 'Crear concursante' }).click();
      await modal.waitFor({ state: 'detached' });
      await admin.getByRole('button', { name: `Editar ${name}` }).waitFor();
    }

    // A single-choice poll of those three, active.
    await openSection('Encuestas');
    await admin.getByRole('button', { name: 'Nueva encuesta' }).click();
    modal = await dialog('Nueva encuesta');
    await modal.getByRole('textbox', { name: 'Título' }).fill(POLL);
    await modal.getByRole('combobox', { name: 'Temporada' }).selectOption({ label: SEASON });
    for (const name of CONTESTANTS) await modal.getByRole('checkbox', { name }).check();
    expect(await modal.getByRole('radio', { name: 'Voto único' }).isChecked()).toBe(true);
    await modal.getByRole('radio', { name: 'Activa' }).check();
    await modal.getByRole('button', { name: 'Crear encuesta' }).click();
    await modal.waitFor({ state: 'detached' });

    // Featured: the fan's home page swaps the old poll for the new one.
    await admin.getByRole('button', { name: `Fijar en Landing: ${POLL}` }).click();
    await admin.getByRole('button', { name: `Fijar en Landing: ${OLD_POLL}` }).waitFor();
    await expect.poll(() => admin.getByRole('button', { name: `Fijar en Landing: ${POLL}` }).count()).toBe(0);
    await fan.getByRole('heading', { level: 1, name: POLL }).waitFor();
    for (const name of CONTESTANTS) await fan.getByRole('radio', { name: new RegExp(name) }).waitFor();
    expect(await fan.getByRole('heading', { name: OLD_POLL }).count()).toBe(0);

    // Closed: the fan's home page says so and no longer offers a vote.
    await admin.getByRole('button', { name: `Cerrar: ${POLL}` }).click();
    await admin.getByRole('button', { name: `Reabrir: ${POLL}` }).waitFor();
    const card = fan.getByRole('article').filter({ has: fan.getByRole('heading', { level: 1, name: POLL }) });
    await card.getByText('Cerrada', { exact: true }).waitFor();
    await expect.poll(() => fan.getByRole('button', { name: 'Votar' }).count()).toBe(0);
    expect(navigations).toEqual([]);

    // What was stored.
    const realities = await database.sql<{ id: string; name: string; active: boolean }[]>`
      SELECT id, name, active FROM realities WHERE name = ${REALITY} AND deleted_at IS NULL`;
    expect(realities).toEqual([expect.objectContaining({ name: REALITY, active: true })]);
    const seasons = await database.sql<{ id: string; number: number; active: boolean }[]>`
      SELECT id, number, active FROM seasons WHERE reality_id = ${realities[0]!.id}`;
    expect(seasons).toEqual([expect.objectContaining({ number: 1, active: true })]);
    const seasonId = seasons[0]!.id;
    const contestants = await database.sql<{ id: string; full_name: string; photo_url: string | null; status: string }[]>`
      SELECT id, full_name, photo_url, status FROM contestants WHERE season_id = ${seasonId} ORDER BY full_name`;
    expect(contestants.map((c) => [c.full_name, c.status])).toEqual(CONTESTANTS.map((name) => [name, 'active']));
    for (const { photo_url: url } of contestants) {
      expect(url).toMatch(/^\/media\/[^/]/);
      const meta = await sharp(path.join(server.app.config.mediaDir, url!.slice('/media/'.length))).metadata();
      expect(meta.format).toBe('webp');
      expect(meta.width).toBeGreaterThan(0);
      expect(meta.width).toBe(meta.height);
    }
    expect(new Set(contestants.map((c) => c.photo_url)).size).toBe(3);

    const polls = await database.sql<{ id: string; title: string; status: string; is_featured: boolean; season_id: string }[]>`
      SELECT id, title, status, is_featured, season_id FROM polls ORDER BY created_at`;
    expect(polls.map((p) => [p.title, p.status, p.is_featured])).toEqual([
      [OLD_POLL, 'active', false],
      [POLL, 'closed', true],
    ]);
    const poll = polls[1]!;
    expect(poll.season_id).toBe(seasonId);
    const options = await database.sql<{ contestant_id: string | null; text: string | null }[]>`
      SELECT contestant_id, text FROM poll_options WHERE poll_id = ${poll.id} AND removed_at IS NULL ORDER BY "order"`;
    expect(options.map((o) => o.contestant_id).sort()).toEqual(contestants.map((c) => c.id).sort());
    const [config] = await database.sql<{ max_points_per_user: number }[]>`SELECT max_points_per_user FROM poll_points_config WHERE poll_id = ${poll.id}`;
    expect(config!.max_points_per_user).toBe(1);

    const audit = await database.sql<{ action: string; entity_id: string | null; admin_id: string }[]>`
      SELECT action, entity_id, admin_id FROM admin_audit_log ORDER BY id`;
    expect(audit.every((row) => row.admin_id === adminId)).toBe(true);
    const actions = audit.map((row) => row.action);
    expect(actions.filter((a) => a === 'reality.create')).toHaveLength(1);
    expect(actions.filter((a) => a === 'season.create')).toHaveLength(1);
    expect(actions.filter((a) => a === 'contestant_photo.upload')).toHaveLength(3);
    expect(actions.filter((a) => a === 'contestant.create')).toHaveLength(3);
    expect(audit.filter((row) => row.entity_id === poll.id).map((row) => row.action)).toEqual(['poll.create', 'poll.feature', 'poll.close']);
  });
});
