// The walk of issue 25, in Chromium at a phone's size (390×844), in both themes: a visitor who
// opens a shared profile link finds the site header; home shows a featured poll that has closed,
// with its final results; the back-office lists a season that was deleted and restored (and, with
// 'Mostrar eliminados', a deleted one beside it); the users list marks a deleted account and
// offers no Reactivar. Every screen is scanned by axe-core: no serious or critical violation.
// WALK_SCREENSHOTS=<folder> saves a screenshot of each step, for a look by hand.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedIfEmpty } from '../../server/src/seed/index.ts';
import { signIn } from '../support/server/sessions.ts';
import { axeViolations, seriousOrCritical } from '../support/axe.ts';
import { launchChromium, themedContext } from '../support/browser.ts';
import { testDatabase, truncateAll } from '../support/db.ts';
import { testConfig } from '../support/env.ts';
import { startServer, type RunningServer } from '../support/liveServer.ts';

const SCREENSHOTS = process.env.WALK_SCREENSHOTS;
const PHONE = { width: 390, height: 844 };
const THEMES = ['light', 'dark'] as const;
const XHR = { 'x-requested-with': 'tribuna' };

describe('the walk of a visitor and an admin after issue 25, phone size, both themes', () => {
  const database = testDatabase();
  const mediaDir = mkdtempSync(path.join(tmpdir(), 'tribuna-e2e-walk-media-'));
  let server: RunningServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const ids = { adminId: '', fanId: '', closedPollTitle: '', realityName: '' };

  beforeAll(async () => {
    await truncateAll(database);
    expect(await seedIfEmpty(testConfig({ MEDIA_DIR: mediaDir }))).toBe(true);
    const [admin] = await database.sql<{ id: string }[]>`SELECT id FROM profiles WHERE username = 'admin'`;
    const [fan] = await database.sql<{ id: string }[]>`SELECT id FROM profiles WHERE username = 'vale_fan'`;
    const [gone] = await database.sql<{ id: string }[]>`SELECT id FROM profiles WHERE username = 'tono_reality'`;
    const [closed] = await database.sql<{ id: string; title: string }[]>`SELECT id, title FROM polls WHERE status = 'closed' LIMIT 1`;
    const [season] = await database.sql<{ realityId: string; year: number; name: string }[]>`
      SELECT s.reality_id AS "realityId", s.year, r.name FROM seasons s JOIN realities r ON r.id = s.reality_id LIMIT 1`;
    ids.adminId = admin!.id;
    ids.fanId = fan!.id;
    ids.closedPollTitle = closed!.title;
    ids.realityName = season!.name;

    server = await startServer({ MEDIA_DIR: mediaDir });
    const { cookie } = await signIn(server.app as never, { id: ids.adminId });
    const admin$ = (method: 'POST' | 'DELETE', url: string, payload?: object) =>
      server.app.inject({ method, url, headers: { cookie, ...XHR }, ...(payload ? { payload } : {}) });

    // The producers pin the closed poll on the landing after an elimination.
    expect((await admin$('POST', `/api/admin/polls/${closed!.id}/feature`)).statusCode).toBe(200);
    // Season 2 is created, deleted and restored; season 3 is created and deleted (and stays so).
    const seasonIds: string[] = [];
    for (const number of [2, 3]) {
      const created = await admin$('POST', '/api/admin/seasons', {
        realityId: season!.realityId,
        number,
        year: season!.year + number - 1,
        startDate: null,
        endDate: null,
        active: false,
      });
      expect(created.statusCode, created.body).toBe(201);
      seasonIds.push(created.json<{ id: string }>().id);
      expect((await admin$('DELETE', `/api/admin/seasons/${seasonIds.at(-1)}`)).statusCode).toBe(204);
    }
    expect((await admin$('POST', `/api/admin/seasons/${seasonIds[0]}/restore`)).statusCode).toBe(200);
    // A fan deletes their account.
    const { cookie: goneCookie } = await signIn(server.app as never, { id: gone!.id });
    const deleted = await server.app.inject({ method: 'DELETE', url: '/api/me', headers: { cookie: goneCookie, ...XHR }, payload: { confirm: 'ELIMINAR' } });
    expect(deleted.statusCode, deleted.body).toBe(204);

    browser = await launchChromium();
  });

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await server?.close();
    await database.close();
  });

  async function newPage(theme: string, as: 'visitor' | 'admin'): Promise<Page> {
    const session = as === 'admin' ? { token: (await signIn(server.app as never, { id: ids.adminId })).token, url: server.url } : undefined;
    const context = await themedContext(browser, { viewport: PHONE, theme, session });
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    return page;
  }

  /** axe's serious and critical violations on the page as it is now, and a screenshot when asked. */
  async function check(page: Page, step: string, theme: string): Promise<string[]> {
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(theme === 'dark');
    if (SCREENSHOTS) await page.screenshot({ path: path.join(SCREENSHOTS, `walk-${step}-${theme}.png`), fullPage: true });
    return seriousOrCritical(await axeViolations(page)).map(
      (v) =>
        `${step} (${theme}): ${v.impact} ${v.id} — ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join(' | ')}`,
    );
  }

  for (const theme of THEMES) {
    it(`${theme}: shared profile, featured closed poll, restored season, deleted account`, { timeout: 180_000 }, async () => {
      const failures: string[] = [];

      // 1. A visitor opens a fan's shared profile link: the site header leads home and to sign in.
      const visitor = await newPage(theme, 'visitor');
      await visitor.goto(`${server.url}/perfil/${ids.fanId}`, { waitUntil: 'networkidle' });
      await visitor.getByRole('heading', { name: 'Valeria Ríos', level: 1 }).waitFor();
      const signInLink = visitor.getByRole('link', { name: 'Iniciar sesión' }).filter({ visible: true });
      await expect(signInLink.count()).resolves.toBe(1);
      failures.push(...(await check(visitor, 'shared-profile', theme)));
      await signInLink.click();
      await visitor.waitForURL(`${server.url}/login`);
      await visitor.goBack();
      await visitor.getByRole('link', { name: 'Tribuna' }).filter({ visible: true }).first().click();
      await visitor.waitForURL(`${server.url}/`);

      // 2. Home shows the featured poll although it closed: final results, 'Votación cerrada', no vote.
      await visitor.getByRole('heading', { name: ids.closedPollTitle }).first().waitFor();
      await visitor.getByText('Votación cerrada').filter({ visible: true }).first().waitFor();
      await visitor.getByRole('heading', { name: 'Resultados finales' }).waitFor();
      await expect(visitor.getByRole('button', { name: /^Votar/ }).count()).resolves.toBe(0);
      failures.push(...(await check(visitor, 'home-featured-closed', theme)));

      // 3. The back-office's seasons: the restored season 2 listed (inactive); season 3 only with
      //    'Mostrar eliminados', marked and offering Restaurar.
      const admin = await newPage(theme, 'admin');
      await admin.goto(`${server.url}/admin/temporadas`, { waitUntil: 'networkidle' });
      await admin.getByRole('heading', { name: 'Temporadas', level: 2 }).waitFor();
      await admin
        .getByRole('button', { name: `Editar ${ids.realityName} · Temporada 2` })
        .filter({ visible: true })
        .first()
        .waitFor();
      await expect(
        admin
          .getByRole('button', { name: `Restaurar ${ids.realityName} · Temporada 3` })
          .filter({ visible: true })
          .count(),
      ).resolves.toBe(0);
      await admin.getByLabel('Mostrar eliminados').check();
      await admin
        .getByRole('button', { name: `Restaurar ${ids.realityName} · Temporada 3` })
        .filter({ visible: true })
        .first()
        .waitFor();
      failures.push(...(await check(admin, 'seasons-restored', theme)));

      // 4. The users list: the deleted account is marked 'Cuenta eliminada' and offers no Reactivar.
      await admin.goto(`${server.url}/admin/usuarios`, { waitUntil: 'networkidle' });
      await admin.getByRole('heading', { name: 'Usuarios', level: 2 }).waitFor();
      await admin.getByText('Cuenta eliminada').filter({ visible: true }).first().waitFor();
      await expect(
        admin
          .getByRole('button', { name: /Reactivar/ })
          .filter({ visible: true })
          .count(),
      ).resolves.toBe(0);
      failures.push(...(await check(admin, 'users-deleted-account', theme)));

      expect(failures).toEqual([]);
    });
  }
});
