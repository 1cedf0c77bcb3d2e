import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedIfEmpty } from '../../server/src/seed/index.ts';
import { launchChromium } from '../support/browser.ts';
import { testDatabase, truncateAll } from '../support/db.ts';
import { testConfig } from '../support/env.ts';
import { startServer, type RunningServer } from '../support/liveServer.ts';

describe('public shell in a real browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  const mediaDir = mkdtempSync(path.join(tmpdir(), 'tribuna-e2e-media-'));

  beforeAll(async () => {
    const database = testDatabase();
    await truncateAll(database);
    await database.close();
    expect(await seedIfEmpty(testConfig({ MEDIA_DIR: mediaDir }))).toBe(true);
    server = await startServer({ MEDIA_DIR: mediaDir });
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    page = await context.newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('renders the home page with the seeded featured poll', async () => {
    const { poll } = (await (await fetch(`${server.url}/api/polls/home`)).json()) as { poll: { title: string } };
    await page.goto(server.url);
    await page.getByRole('heading', { name: poll.title }).waitFor({ state: 'visible' });
    expect(await page.getByText('días').count()).toBeGreaterThan(0);
  });

  it('keeps the chosen theme across a reload (default dark)', async () => {
    await page.goto(server.url);
    const isDark = () => page.evaluate(() => document.documentElement.classList.contains('dark'));
    expect(await isDark()).toBe(true);
    await page.getByRole('button', { name: 'Cambiar a modo claro' }).click();
    expect(await isDark()).toBe(false);
    await page.reload();
    await page.getByRole('button', { name: 'Cambiar a modo oscuro' }).waitFor();
    expect(await isDark()).toBe(false);
  });

  it('shows the 12 section headings of /terminos', async () => {
    await page.goto(`${server.url}/terminos`);
    const headings = page.locator('main h2');
    await expect.poll(() => headings.count()).toBe(12);
    expect(await headings.first().innerText()).toMatch(/^1\./);
  });

  it('gives a visitor who opens a shared profile link on a phone a way home and to sign in', async () => {
    const database = testDatabase();
    const [other] = await database.sql<{ id: string; display_name: string }[]>`SELECT id, display_name FROM profiles WHERE username = 'vale_fan'`;
    await database.close();
    await page.goto(`${server.url}/perfil/${other!.id}`);
    await page.getByRole('heading', { level: 1, name: other!.display_name }).waitFor();
    const header = page.getByRole('banner');
    await header.getByRole('link', { name: 'Iniciar sesión' }).waitFor();
    // Both fit on the phone's screen, above the profile.
    for (const name of ['Tribuna', 'Iniciar sesión']) {
      const box = await header.getByRole('link', { name }).boundingBox();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    }
    await header.getByRole('link', { name: 'Tribuna' }).click();
    await page.waitForURL(`${server.url}/`);
    await page.getByRole('banner').getByRole('link', { name: 'Iniciar sesión' }).click();
    await page.waitForURL(`${server.url}/login`);
    await page.getByRole('heading', { name: 'Iniciar sesión' }).waitFor();
  });

  it('sends an unknown path to /', async () => {
    await page.goto(`${server.url}/no-existe/para-nada`);
    await page.waitForURL(`${server.url}/`);
    expect(new URL(page.url()).pathname).toBe('/');
  });
});
