// axe-core on every page of the site, in both themes, on a phone and a desktop: the tests are
// test/e2e/accessibility*.test.ts, one per screen size, so that the sizes run in parallel (each
// file with its own database, server and browser).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedIfEmpty } from '../../../server/src/seed/index.ts';
import { signIn } from '../../support/server/sessions.ts';
import { recomputeAllDays } from '../../../worker/src/reports/repository.ts';
import { axeViolations, seriousOrCritical } from '../../support/axe.ts';
import { launchChromium, themedContext } from '../../support/browser.ts';
import { testDatabase, truncateAll } from '../../support/db.ts';
import { testConfig } from '../../support/env.ts';
import { startServer, type RunningServer } from '../../support/liveServer.ts';

/** A folder to save full-page screenshots of every scanned page in (a visual check by hand), or nothing. */
const SCREENSHOTS = process.env.A11Y_SCREENSHOTS;

/** A regular expression of page names to check (while fixing one page), or all. */
const ONLY = process.env.A11Y_ONLY ? new RegExp(process.env.A11Y_ONLY) : null;

const THEMES = ['dark', 'light'] as const;
const SIZES = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 800 } } as const;
export type Size = keyof typeof SIZES;

interface PageCheck {
  name: string;
  /** Who looks at it: a visitor (signed out) or the demo admin (who is also a fan with posts and notifications). */
  as: 'visitor' | 'admin';
  path: (ids: SeedIds) => string;
  /** Waits until the page shows its real content (seeded data), not a spinner, skeleton or empty state. */
  ready: (page: Page) => Promise<void>;
  /** Something to open before the scan (comments, a dialog), so those states are scanned too. */
  then?: (page: Page) => Promise<void>;
}

interface SeedIds {
  adminId: string;
  otherId: string;
}

const heading = (page: Page, name: string | RegExp, level?: number) =>
  page
    .getByRole('heading', { name, ...(level ? { level } : {}) })
    .first()
    .waitFor();
/** Waits for visible text (the phone and desktop layouts of a screen both exist, one of them hidden). */
const text = (page: Page, value: string | RegExp) => page.getByText(value).filter({ visible: true }).first().waitFor();

/** Waits for an admin screen: its title, then a seeded row. */
const adminScreen = (title: string, content: string | RegExp) => async (page: Page) => {
  await heading(page, title, 2);
  await text(page, content);
};

/**
 * Every page of the site, as its audience sees it, with the demo data seeded (polls with votes and
 * results, a wall with posts, images, reactions and comments, notifications, users).
 */
const PAGES: PageCheck[] = [
  {
    name: 'home (visitor)',
    as: 'visitor',
    path: () => '/',
    ready: async (p) => {
      await heading(p, /.+/, 1);
      await text(p, 'En vivo');
    },
  },
  { name: 'login', as: 'visitor', path: () => '/login', ready: (p) => heading(p, 'Iniciar sesión') },
  { name: 'terms', as: 'visitor', path: () => '/terminos', ready: (p) => heading(p, 'Términos y Condiciones', 1) },
  { name: 'privacy', as: 'visitor', path: () => '/privacidad', ready: (p) => heading(p, 'Política de Privacidad', 1) },
  // A shared profile link opened by a visitor (with the site header: brand, theme, Iniciar sesión).
  { name: "a user's profile (visitor)", as: 'visitor', path: (ids) => `/perfil/${ids.otherId}`, ready: (p) => heading(p, 'Valeria Ríos', 1) },
  {
    name: 'home (fan)',
    as: 'admin',
    path: () => '/',
    ready: async (p) => {
      await heading(p, /.+/, 1);
      await text(p, 'En vivo');
    },
  },
  {
    name: 'wall',
    as: 'admin',
    path: () => '/wall',
    ready: async (p) => {
      await heading(p, 'Muro', 1);
      await p.getByRole('article').first().waitFor();
    },
    // One post's comments open, so the comment list and its form are scanned too.
    then: async (p) => {
      await p
        .getByRole('button', { name: /\d+ comentarios?/ })
        .first()
        .click();
      await p.getByRole('textbox', { name: 'Escribe un comentario' }).first().waitFor();
    },
  },
  {
    name: 'groups',
    as: 'admin',
    path: () => '/grupos',
    ready: async (p) => {
      await heading(p, 'Grupos', 1);
      // The demo groups, loaded (the admin belongs to none or some of them).
      await heading(p, /^(Tus grupos|Descubre grupos)$/, 2);
    },
  },
  { name: 'own profile', as: 'admin', path: () => '/perfil', ready: (p) => heading(p, 'Admin Tribuna', 1) },
  { name: "another user's profile", as: 'admin', path: (ids) => `/perfil/${ids.otherId}`, ready: (p) => heading(p, 'Valeria Ríos', 1) },
  {
    name: 'notifications',
    as: 'admin',
    path: () => '/notificaciones',
    ready: async (p) => {
      await heading(p, 'Notificaciones', 1);
      await p.getByRole('list').getByRole('listitem').first().waitFor();
    },
  },
  { name: 'admin dashboard', as: 'admin', path: () => '/admin', ready: adminScreen('Dashboard', /Nuevo voto en/) },
  {
    name: 'admin realities',
    as: 'admin',
    path: () => '/admin/realitys',
    ready: adminScreen('Realities', 'La Casa de las Estrellas'),
    // The form dialog open, so a modal is scanned too.
    then: async (p) => {
      await p.getByRole('button', { name: 'Nuevo reality' }).click();
      await p.getByRole('dialog', { name: 'Nuevo reality' }).waitFor();
    },
  },
  { name: 'admin seasons', as: 'admin', path: () => '/admin/temporadas', ready: adminScreen('Temporadas', /La Casa de las Estrellas/) },
  { name: 'admin contestants', as: 'admin', path: () => '/admin/concursantes', ready: adminScreen('Concursantes', 'Ximena Valdés') },
  { name: 'admin polls', as: 'admin', path: () => '/admin/encuestas', ready: adminScreen('Encuestas', /Reparte tus 10 puntos/) },
  {
    name: 'admin users',
    as: 'admin',
    path: () => '/admin/usuarios',
    ready: adminScreen('Usuarios', 'Valeria Ríos'),
    // The points adjustment dialog open.
    then: async (p) => {
      await p.getByRole('button', { name: 'Puntos de Valeria Ríos' }).filter({ visible: true }).click();
      await p.getByRole('dialog', { name: 'Ajustar puntos de Valeria Ríos' }).waitFor();
    },
  },
  { name: 'admin reports', as: 'admin', path: () => '/admin/informes', ready: adminScreen('Informes', 'Totales del período') },
  {
    name: 'admin abuse report',
    as: 'admin',
    path: () => '/admin/abuse-report',
    ready: async (p) => {
      await heading(p, 'Detección de abuso', 2);
      await p.getByText('Cargando reporte...').waitFor({ state: 'detached' });
    },
  },
  {
    name: 'admin audit',
    as: 'admin',
    path: () => '/admin/auditoria',
    ready: async (p) => {
      await heading(p, 'Auditoría', 2);
      await p.getByRole('list', { name: 'Acciones registradas' }).getByRole('listitem').first().waitFor();
    },
    // One entry's changes open, so the diff is scanned too.
    then: async (p) => {
      await p.getByRole('button', { name: 'Ver cambios' }).first().click();
      await text(p, 'Reality de Prueba');
    },
  },
  {
    name: 'admin queues',
    as: 'admin',
    path: () => '/admin/colas',
    ready: async (p) => {
      await heading(p, 'Colas', 2);
      await p.getByRole('heading', { level: 3 }).first().waitFor();
    },
  },
  {
    name: 'admin moderation',
    as: 'admin',
    path: () => '/admin/moderacion',
    // The fan's report of beforeAll, listed with its post, author and actions.
    ready: async (p) => {
      await heading(p, 'Moderación', 2);
      await p.getByRole('article').first().waitFor();
    },
    // An action's confirmation open (its duration choice and reason), so the dialog is scanned too.
    then: async (p) => {
      await p
        .getByRole('button', { name: /^Silenciar al autor:/ })
        .first()
        .click();
      await p.getByRole('dialog', { name: /^Silenciar al autor:/ }).waitFor();
    },
  },
];

/**
 * axe-core in Chromium on every page of the site, in both themes, at the screen size `size`: no
 * violation of impact serious or critical. One server, one browser; a context per theme and
 * audience, reused for all its pages. With `probes`, also the checks that the scan can fail and that
 * reduced motion stops every animation (run once, at one size).
 */
export function describeAccessibility(size: Size, { probes }: { probes: boolean }): void {
  describe(`accessibility (axe-core) of every page, both themes, ${size}`, () => {
    const database = testDatabase();
    const mediaDir = mkdtempSync(path.join(tmpdir(), 'tribuna-e2e-a11y-media-'));
    let server: RunningServer;
    let browser: Browser;
    const ids: SeedIds = { adminId: '', otherId: '' };
    const contexts: BrowserContext[] = [];
    let checked = 0;

    beforeAll(async () => {
      await truncateAll(database);
      expect(await seedIfEmpty(testConfig({ MEDIA_DIR: mediaDir }))).toBe(true);
      const [admin] = await database.sql<{ id: string }[]>`SELECT id FROM profiles WHERE username = 'admin'`;
      const [other] = await database.sql<{ id: string }[]>`SELECT id FROM profiles WHERE username = 'vale_fan'`;
      ids.adminId = admin!.id;
      ids.otherId = other!.id;
      // An admin action, so the audit log has an entry.
      server = await startServer({ MEDIA_DIR: mediaDir });
      const { cookie } = await signIn(server.app as never, { id: ids.adminId });
      const created = await server.app.inject({
        method: 'POST',
        url: '/api/admin/realities',
        headers: { cookie, 'x-requested-with': 'tribuna' },
        payload: { name: 'Reality de Prueba', active: true },
      });
      expect(created.statusCode).toBe(201);
      // A fan's report of another fan's post (not staff's: a fan may be silenced), so the moderation queue lists an item.
      const [reported] = await database.sql<{ id: string }[]>`
        SELECT p.id FROM posts p JOIN profiles a ON a.id = p.user_id
        WHERE a.role = 'user' AND p.user_id <> ${ids.otherId} AND p.group_id IS NULL AND p.visibility = 'public' AND NOT p.is_hidden
        ORDER BY p.created_at DESC LIMIT 1`;
      const { cookie: fanCookie } = await signIn(server.app as never, { id: ids.otherId });
      const report = await server.app.inject({
        method: 'POST',
        url: '/api/reports',
        headers: { cookie: fanCookie, 'x-requested-with': 'tribuna' },
        payload: { targetType: 'post', targetId: reported!.id, reason: 'spam', comment: 'Publica lo mismo en todos lados' },
      });
      expect(report.statusCode).toBe(201);
      // The daily usage reports the worker would aggregate.
      await recomputeAllDays(database.db, server.app.config.showTimezone);
      browser = await launchChromium();
    });

    afterAll(async () => {
      for (const context of contexts) await context.close();
      await browser?.close();
      await server?.close();
      await database.close();
      console.log(
        `accessibility: ${checked} scans = ${PAGES.length} pages × ${THEMES.length} themes at the ${size} size (${PAGES.filter((p) => p.then).length} of them with a dialog or panel opened)`,
      );
    });

    async function contextFor(theme: string, size: keyof typeof SIZES, as: PageCheck['as']): Promise<BrowserContext> {
      // Reduced motion so no scan catches an element half-way through a fade (its contrast is then wrong).
      const session = as === 'admin' ? { token: (await signIn(server.app as never, { id: ids.adminId })).token, url: server.url } : undefined;
      const context = await themedContext(browser, { viewport: SIZES[size], theme, session });
      contexts.push(context);
      return context;
    }

    const scan = (page: Page) => axeViolations(page, { experimental: true });

    if (probes)
      it('the scan can fail: axe reports a low-contrast text added to the home page', async () => {
        const page = await (await contextFor('light', 'phone', 'visitor')).newPage();
        await page.goto(server.url);
        await heading(page, /.+/, 1);
        await page.evaluate(() => {
          const p = document.createElement('p');
          p.textContent = 'Texto apenas visible';
          p.style.cssText = 'color:#999;background:#aaa';
          document.querySelector('main')?.append(p);
        });
        expect((await scan(page)).map((v) => v.id)).toContain('color-contrast');
      });

    if (probes)
      it('with reduced motion, the live dot, the result bars and the spinners neither animate nor transition', async () => {
        const durations = async (reducedMotion: 'reduce' | 'no-preference') => {
          const context = await browser.newContext({ viewport: SIZES.phone, reducedMotion });
          contexts.push(context);
          const page = await context.newPage();
          await page.goto(server.url);
          await text(page, 'En vivo');
          return page.evaluate(() => {
            const seconds = (value: string) => Math.max(...value.split(',').map((v) => (v.trim().endsWith('ms') ? parseFloat(v) / 1000 : parseFloat(v))));
            const ping = document.querySelector('.animate-ping');
            const bar = document.querySelector('[role="progressbar"] > div');
            if (!ping || !bar) throw new Error('no live dot or result bar on the home page');
            const all = [...document.querySelectorAll('*')].map((el) => getComputedStyle(el));
            return {
              ping: seconds(getComputedStyle(ping).animationDuration),
              pingIterations: getComputedStyle(ping).animationIterationCount,
              bar: seconds(getComputedStyle(bar).transitionDuration),
              longestAnimation: Math.max(...all.map((style) => seconds(style.animationDuration))),
              longestTransition: Math.max(...all.map((style) => seconds(style.transitionDuration))),
            };
          });
        };
        // Without the preference, they do move (so the check below can fail).
        const moving = await durations('no-preference');
        expect(moving.ping).toBeGreaterThan(0.5);
        expect(moving.longestTransition).toBeGreaterThan(0.1);
        const still = await durations('reduce');
        expect(still).toEqual({
          ping: expect.any(Number),
          pingIterations: '1',
          bar: expect.any(Number),
          longestAnimation: expect.any(Number),
          longestTransition: expect.any(Number),
        });
        for (const value of [still.ping, still.bar, still.longestAnimation, still.longestTransition]) expect(value).toBeLessThan(0.001);
      });

    for (const theme of THEMES) {
      it(`${size}, ${theme} theme: no serious or critical violation on ${PAGES.length} pages`, { timeout: 600_000 }, async () => {
        const pages = new Map<PageCheck['as'], Page>();
        const failures: string[] = [];
        for (const check of PAGES.filter((c) => !ONLY || ONLY.test(c.name))) {
          let page = pages.get(check.as);
          if (!page) {
            page = await (await contextFor(theme, size, check.as)).newPage();
            page.setDefaultTimeout(20_000);
            pages.set(check.as, page);
          }
          // networkidle: every request of the page answered, so no scan sees a half-loaded screen.
          await page.goto(`${server.url}${check.path(ids)}`, { waitUntil: 'networkidle' });
          try {
            await check.ready(page);
            await check.then?.(page);
          } catch (err) {
            failures.push(`${check.name} (${size}, ${theme}): never showed its content: ${(err as Error).message.split('\n')[0]}`);
            continue;
          }
          expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(theme === 'dark');
          if (SCREENSHOTS) {
            const file = `${check.name.replace(/[^a-z0-9]+/gi, '_')}-${size}-${theme}.png`;
            await page.screenshot({ path: path.join(SCREENSHOTS, file), fullPage: true });
          }
          const serious = seriousOrCritical(await scan(page));
          checked += 1;
          for (const v of serious) {
            const targets = v.nodes
              .map((n) => n.target.join(' '))
              .slice(0, 4)
              .join(' | ');
            failures.push(`${check.name} (${size}, ${theme}): ${v.impact} ${v.id} ×${v.nodes.length}: ${v.help} — ${targets}`);
          }
        }
        if (failures.length) console.log(failures.join('\n'));
        expect(failures).toEqual([]);
      });
    }
  });
}
