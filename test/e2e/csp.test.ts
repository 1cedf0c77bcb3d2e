import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page, WebSocket } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedIfEmpty } from '../../server/src/seed/index.ts';
import { SESSION_COOKIE } from '../../server/src/identity/sessions/constants.ts';
import { signIn } from '../support/server/sessions.ts';
import { launchChromium } from '../support/browser.ts';
import { testDatabase, truncateAll } from '../support/db.ts';
import { testConfig } from '../support/env.ts';
import { startServer, type RunningServer } from '../support/liveServer.ts';

type Visitor = 'visitor' | 'fan' | 'admin';
type Theme = 'dark' | 'light';

interface WebPage {
  path: string;
  /** Where the page ends up when it redirects (pathname), per visitor. */
  landsOn?: Partial<Record<Visitor, string>>;
  /** Something that shows once the page has rendered, beyond the first heading. */
  ready?: (page: Page) => Promise<unknown>;
}

/** Whatever the browser reports about the Content-Security-Policy (or Permissions-Policy) of the page. */
interface Reports {
  violations: string[];
  console: string[];
}

const POLICY_MESSAGE = /content[ -]security[ -]policy|permissions[ -]policy/i;

/** An admin screen (a lazy chunk under the shell's h1) has rendered its own heading; others were sent elsewhere. */
const adminScreen = (title: string) => async (page: Page) => {
  if (new URL(page.url()).pathname.startsWith('/admin')) await page.getByRole('heading', { level: 2, name: title, exact: true }).waitFor();
};

describe('every web page under the Content-Security-Policy', () => {
  const database = testDatabase();
  const mediaDir = mkdtempSync(path.join(tmpdir(), 'tribuna-e2e-csp-media-'));
  let server: RunningServer;
  let browser: Browser;
  let pages: WebPage[];
  const cookies: Partial<Record<Visitor, string>> = {};

  beforeAll(async () => {
    await truncateAll(database);
    expect(await seedIfEmpty(testConfig({ MEDIA_DIR: mediaDir }))).toBe(true);
    server = await startServer({ MEDIA_DIR: mediaDir });
    browser = await launchChromium();

    const [admin] = await database.sql<{ id: string }[]>`SELECT id FROM profiles WHERE role = 'admin' LIMIT 1`;
    const [fan] = await database.sql<{ id: string }[]>`SELECT id FROM profiles WHERE role = 'user' ORDER BY created_at LIMIT 1`;
    const [shared] = await database.sql<{ id: string }[]>`
      SELECT id FROM polls WHERE status <> 'draft' ORDER BY is_featured, created_at LIMIT 1`;
    cookies.admin = (await signIn(server.app as never, admin!)).token;
    cookies.fan = (await signIn(server.app as never, fan!)).token;

    const toLogin = { visitor: '/login' };
    // Every route of web/src/app/routes.tsx, a shared poll link, an unknown path and the API docs.
    pages = [
      { path: '/', ready: (page) => page.locator('[role=progressbar]').first().waitFor() },
      { path: `/?encuesta=${shared!.id}`, ready: (page) => page.locator('[role=progressbar]').first().waitFor() },
      { path: '/login', landsOn: { fan: '/', admin: '/admin' } },
      { path: '/auth/callback', landsOn: { visitor: '/login', fan: '/', admin: '/admin' } },
      { path: '/terminos' },
      { path: '/privacidad' },
      { path: `/perfil/${fan!.id}` },
      { path: '/wall', landsOn: toLogin },
      { path: '/grupos', landsOn: toLogin },
      { path: '/notificaciones', landsOn: toLogin },
      { path: '/perfil', landsOn: toLogin },
      { path: '/admin', landsOn: { visitor: '/login', fan: '/' }, ready: adminScreen('Dashboard') },
      { path: '/admin/realitys', landsOn: { visitor: '/login', fan: '/' }, ready: adminScreen('Realities') },
      { path: '/admin/temporadas', landsOn: { visitor: '/login', fan: '/' }, ready: adminScreen('Temporadas') },
      { path: '/admin/concursantes', landsOn: { visitor: '/login', fan: '/' }, ready: adminScreen('Concursantes') },
      { path: '/admin/encuestas', landsOn: { visitor: '/login', fan: '/' }, ready: adminScreen('Encuestas') },
      { path: '/no-existe/para-nada', landsOn: { visitor: '/', fan: '/', admin: '/' } },
    ];
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await database.close();
  });

  /** A browser context for `visitor` with `theme` stored, reporting every policy complaint. */
  async function openContext(visitor: Visitor, theme: Theme): Promise<{ context: BrowserContext; reports: Reports }> {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const reports: Reports = { violations: [], console: [] };
    const token = cookies[visitor as Exclude<Visitor, 'visitor'>];
    if (token) await context.addCookies([{ name: SESSION_COOKIE, value: token, url: server.url }]);
    await context.exposeFunction('__reportPolicyViolation', (report: string) => reports.violations.push(report));
    await context.addInitScript((stored: Theme) => {
      if (stored === 'light') localStorage.setItem('tribuna-theme', 'light');
      document.addEventListener('securitypolicyviolation', (event) => {
        const report = `${event.violatedDirective} blocked ${event.blockedURI || 'inline'} at ${event.sourceFile}:${event.lineNumber}`;
        (window as unknown as { __reportPolicyViolation(report: string): void }).__reportPolicyViolation(report);
      });
    }, theme);
    context.on('console', (message) => {
      if (POLICY_MESSAGE.test(message.text())) reports.console.push(`${message.page()?.url()}: ${message.text()}`);
    });
    return { context, reports };
  }

  async function visit(page: Page, webPage: WebPage, visitor: Visitor): Promise<void> {
    const liveSockets: string[] = [];
    const onSocket = (socket: WebSocket) => liveSockets.push(socket.url());
    page.on('websocket', onSocket);
    await page.goto(`${server.url}${webPage.path}`, { waitUntil: 'networkidle' });
    const landing = webPage.landsOn?.[visitor] ?? webPage.path.split('?')[0]!;
    await page.waitForURL((url) => url.pathname === landing);
    await page.locator('#root h1, #root h2').first().waitFor();
    await webPage.ready?.(page);
    await page.waitForLoadState('networkidle');
    // The home page watches its poll live: the websocket to /ws passed connect-src.
    if (landing === '/') await expect.poll(() => liveSockets.some((url) => new URL(url).pathname === '/ws'), { message: webPage.path }).toBe(true);
    page.off('websocket', onSocket);
  }

  it('reports a blocked inline script (the check below can see a violation)', async () => {
    const { context, reports } = await openContext('visitor', 'dark');
    const page = await context.newPage();
    await page.goto(`${server.url}/terminos`, { waitUntil: 'networkidle' });
    await page.addScriptTag({ content: 'window.__inlineRan = true;' }).catch(() => undefined);
    await expect.poll(() => reports.violations.length).toBeGreaterThan(0);
    expect(reports.violations[0]).toMatch(/^script-src/);
    expect(reports.console.some((text) => /Content Security Policy/.test(text))).toBe(true);
    expect(await page.evaluate(() => (window as unknown as { __inlineRan?: boolean }).__inlineRan)).toBeUndefined();
    await context.close();
  });

  it.each([
    ['visitor', 'dark'],
    ['visitor', 'light'],
    ['admin', 'dark'],
    ['admin', 'light'],
  ] as const)('loads every page as a %s in the %s theme without a policy violation', async (visitor, theme) => {
    const { context, reports } = await openContext(visitor, theme);
    const page = await context.newPage();
    for (const webPage of pages) {
      await visit(page, webPage, visitor);
      expect(await page.evaluate(() => document.documentElement.classList.contains('dark')), webPage.path).toBe(theme === 'dark');
    }
    if (visitor === 'admin') {
      // The second-factor enrolment shows its QR code as a data: image.
      await page.goto(`${server.url}/perfil`, { waitUntil: 'networkidle' });
      await page.getByRole('button', { name: 'Activar', exact: true }).click();
      const qr = page.getByRole('img', { name: 'Código QR para configurar la verificación en dos pasos' });
      await qr.waitFor();
      expect(await qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    }
    expect(reports.violations).toEqual([]);
    expect(reports.console).toEqual([]);
    await context.close();
  });

  it('keeps a fan out of /admin without a policy violation', async () => {
    const { context, reports } = await openContext('fan', 'dark');
    const page = await context.newPage();
    for (const webPage of pages.filter((p) => p.path.startsWith('/admin') || ['/perfil', '/login'].includes(p.path))) await visit(page, webPage, 'fan');
    expect(reports.violations).toEqual([]);
    expect(reports.console).toEqual([]);
    await context.close();
  });

  it('serves Swagger UI at /api/docs under the policy', async () => {
    const { context, reports } = await openContext('visitor', 'dark');
    const page = await context.newPage();
    await page.goto(`${server.url}/api/docs`, { waitUntil: 'networkidle' });
    await page.getByText('Tribuna API').first().waitFor();
    await page.locator('.opblock').first().waitFor();
    expect(reports.violations).toEqual([]);
    expect(reports.console).toEqual([]);
    await context.close();
  });

  it('applies the stored light theme from theme-init.js before the app runs', async () => {
    const { context, reports } = await openContext('visitor', 'light');
    const page = await context.newPage();
    // Without the app bundle only web/public/theme-init.js can change <html>.
    await page.route('**/assets/*.js', (route) => route.abort());
    await page.addInitScript(() => {
      document.addEventListener('DOMContentLoaded', () => {
        const root = document.documentElement;
        (window as unknown as { __themeAtReady: unknown }).__themeAtReady = {
          dark: root.classList.contains('dark'),
          colorScheme: root.style.colorScheme,
          themeColor: document.querySelector('meta[name="theme-color"]')?.getAttribute('content'),
          rendered: (document.getElementById('root')?.childElementCount ?? 0) > 0,
        };
      });
    });
    await page.goto(server.url, { waitUntil: 'domcontentloaded' });
    const atReady = await page.waitForFunction(() => (window as unknown as { __themeAtReady?: unknown }).__themeAtReady);
    expect(await atReady.jsonValue()).toEqual({ dark: false, colorScheme: 'light', themeColor: '#ffffff', rendered: false });
    expect(reports.violations).toEqual([]);
    expect(reports.console).toEqual([]);
    await context.close();
  });

  it('keeps the dark default when nothing is stored', async () => {
    const { context } = await openContext('visitor', 'dark');
    const page = await context.newPage();
    await page.route('**/assets/*.js', (route) => route.abort());
    await page.goto(server.url, { waitUntil: 'domcontentloaded' });
    expect(await page.evaluate(() => [document.documentElement.classList.contains('dark'), document.documentElement.style.colorScheme])).toEqual([
      true,
      'dark',
    ]);
    await context.close();
  });
});
