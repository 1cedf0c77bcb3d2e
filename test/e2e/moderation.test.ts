// Reports and moderation (issue 29) in real browsers, both themes. A fan reports a post from its
// menu ('Reportar', a reason, 'Gracias, revisaremos tu reporte'); a site moderator (role
// 'moderator', who sees only 'Moderación' in the back-office) finds it in /admin/moderacion with
// the live count, and hides it; a third fan's open wall drops it live, without a reload; the
// reporter reads the outcome among their notifications; the author still sees the post on their
// profile, marked 'Oculto por moderación'. Fans at a phone's size (390×844); the queue at a phone's
// size and at a desktop's. Every screen is scanned by axe-core: no serious or critical violation.
// MODERATION_SCREENSHOTS=<folder> saves a screenshot of each step, for a look by hand.
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODERATION_MESSAGES } from '@tribuna/contracts/moderationRules';
import { axeViolations, seriousOrCritical } from '../support/axe.ts';
import { launchChromium, themedContext } from '../support/browser.ts';
import { testDatabase, truncateAll } from '../support/db.ts';
import { buildPost, buildUser } from '../support/factories.ts';
import { signIn } from '../support/server/sessions.ts';
import { startServer, type RunningServer } from '../support/liveServer.ts';

const SCREENSHOTS = process.env.MODERATION_SCREENSHOTS;
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
const THEMES = ['light', 'dark'] as const;

describe('reports and the moderation queue in the browser, both themes', () => {
  const database = testDatabase();
  let server: RunningServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    await truncateAll(database);
    server = await startServer();
    browser = await launchChromium();
  });

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await server?.close();
    await database.close();
  });

  /** A new account, signed in, in a browser of its own. */
  async function person(
    displayName: string,
    theme: string,
    options: { role?: 'moderator'; viewport?: typeof PHONE } = {},
  ): Promise<{ id: string; page: Page }> {
    const user = await buildUser(database.db, { displayName, ...(options.role ? { role: options.role } : {}) });
    const { token } = await signIn(server.app as never, user);
    const context = await themedContext(browser, { viewport: options.viewport ?? PHONE, theme, session: { token, url: server.url } });
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    return { id: user.id, page };
  }

  /** axe's serious and critical violations on the page as it is now, and a screenshot when asked. */
  async function check(page: Page, step: string, theme: string): Promise<string[]> {
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(theme === 'dark');
    if (SCREENSHOTS) await page.screenshot({ path: path.join(SCREENSHOTS, `moderation-${step}-${theme}.png`), fullPage: true });
    return seriousOrCritical(await axeViolations(page)).map(
      (v) =>
        `${step} (${theme}): ${v.impact} ${v.id} — ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join(', ')}`,
    );
  }

  for (const theme of THEMES) {
    it(
      `${theme}: a fan reports a post, a moderator hides it, it leaves another fan's wall live, and reporter and author are told`,
      { timeout: 150_000 },
      async () => {
        const failures: string[] = [];
        const authorName = `Autora ${theme}`;
        const content = `Esto es spam, compren seguidores aquí (${theme})`;
        const author = await person(authorName, theme);
        const post = await buildPost(database.db, author.id, { content });
        const reporter = await person(`Reportera ${theme}`, theme);
        const watcher = await person(`Espectador ${theme}`, theme);
        const moderator = await person(`Moderadora ${theme}`, theme, { role: 'moderator' });

        // A third fan has the wall open all along.
        await watcher.page.goto(`${server.url}/wall`);
        const watched = watcher.page.getByRole('article', { name: `Publicación de ${authorName}` }).filter({ hasText: content });
        await watched.waitFor();

        // The moderator opens the queue: nothing pending yet; the count is live from here on.
        // A moderator's back-office is the queue alone: /admin leads there.
        await moderator.page.goto(`${server.url}/admin`);
        await moderator.page.waitForURL(/\/admin\/moderacion$/);
        await moderator.page.getByRole('heading', { name: 'Moderación', exact: true }).waitFor();
        await moderator.page.getByRole('status').filter({ hasText: 'Cargando reportes' }).waitFor({ state: 'detached' });
        expect(await moderator.page.getByText(content).count()).toBe(0);
        failures.push(...(await check(moderator.page, 'queue-empty', theme)));

        // The reporter reports it from the post's menu.
        await reporter.page.goto(`${server.url}/wall`);
        const card = reporter.page.getByRole('article', { name: `Publicación de ${authorName}` }).filter({ hasText: content });
        await card.getByRole('button', { name: 'Opciones de la publicación' }).click();
        await reporter.page.getByRole('menuitem', { name: 'Reportar' }).click();
        const dialog = reporter.page.getByRole('dialog', { name: 'Reportar' });
        await dialog.getByRole('radio', { name: 'Spam' }).check();
        await dialog.getByLabel(MODERATION_MESSAGES.reportCommentLabel).fill('Vende seguidores falsos en cada publicación.');
        failures.push(...(await check(reporter.page, 'report-dialog', theme)));
        await dialog.getByRole('button', { name: 'Enviar reporte' }).click();
        await dialog.getByText(MODERATION_MESSAGES.reported).waitFor();
        failures.push(...(await check(reporter.page, 'reported', theme)));
        const [report] = await database.sql<{ status: string; reason: string }[]>`SELECT status, reason FROM reports WHERE target_id = ${post.id}`;
        expect(report).toEqual({ status: 'open', reason: 'spam' });

        // The moderator's queue shows it, with the live count in the navigation.
        // The navigation's entry (in the phone's menu) counts it live, without a reload.
        await moderator.page.getByRole('link', { name: 'Moderación 1 pendiente', includeHidden: true }).waitFor({ state: 'attached' });
        await moderator.page.reload();
        const item = moderator.page.getByRole('article').filter({ hasText: content });
        await item.getByText('Vende seguidores falsos en cada publicación.').waitFor();
        failures.push(...(await check(moderator.page, 'queue-phone', theme)));
        await moderator.page.setViewportSize(DESKTOP);
        failures.push(...(await check(moderator.page, 'queue-desktop', theme)));

        // It hides the post, with a reason.
        await item.getByRole('button', { name: /^Ocultar:/ }).click();
        const confirm = moderator.page.getByRole('dialog', { name: /^Ocultar:/ });
        await confirm.getByLabel('Motivo (opcional)').fill('Spam comercial');
        failures.push(...(await check(moderator.page, 'hide-dialog', theme)));
        await confirm.getByRole('button', { name: 'Ocultar', exact: true }).click();
        await confirm.waitFor({ state: 'detached' });
        await moderator.page.setViewportSize(PHONE);

        // The watcher's wall drops it live, without a reload.
        await watched.waitFor({ state: 'detached' });
        failures.push(...(await check(watcher.page, 'wall-after', theme)));

        // The reporter is told the outcome.
        await reporter.page.goto(`${server.url}/notificaciones`);
        await reporter.page.getByText(MODERATION_MESSAGES.outcomeActioned).waitFor();
        failures.push(...(await check(reporter.page, 'outcome', theme)));

        // The author still sees it on their profile, marked as hidden by moderation.
        await author.page.goto(`${server.url}/perfil/${author.id}`);
        const own = author.page.getByRole('article', { name: `Publicación de ${authorName}` }).filter({ hasText: content });
        await author.page.getByRole('tab', { name: 'Posts' }).click();
        await own.getByText(MODERATION_MESSAGES.hiddenByModeration).waitFor();
        failures.push(...(await check(author.page, 'author-profile', theme)));

        const [stored] = await database.sql<{ is_hidden: boolean; hidden: boolean }[]>`
        SELECT is_hidden, moderation_hidden_at IS NOT NULL AS hidden FROM posts WHERE id = ${post.id}`;
        expect(stored).toEqual({ is_hidden: true, hidden: true });
        const closed = await database.sql<{ status: string }[]>`SELECT status FROM reports WHERE target_id = ${post.id}`;
        expect(closed).toEqual([{ status: 'actioned' }]);
        expect(failures).toEqual([]);
      },
    );
  }
});
