import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '@tribuna/drizzle';
import { eq } from 'drizzle-orm';
import { signIn } from '../support/server/sessions.ts';
import { launchChromium } from '../support/browser.ts';
import { testDatabase, truncateAll } from '../support/db.ts';
import { buildPoll, buildUser } from '../support/factories.ts';
import { startServer, type RunningServer } from '../support/liveServer.ts';

describe('live results across two signed-in browsers', () => {
  const database = testDatabase();
  let server: RunningServer;
  let browser: Browser;
  let voter: Page;
  let watcher: Page;
  let optionName: string;
  const contexts: BrowserContext[] = [];

  async function signedInPage(displayName: string): Promise<Page> {
    const user = await buildUser(database.db, { displayName });
    const { token } = await signIn(server.app as never, user);
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    await context.addCookies([{ name: 'tribuna_session', value: token, url: server.url }]);
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(server.url);
    await page.getByText('En vivo').first().waitFor();
    return page;
  }

  beforeAll(async () => {
    await truncateAll(database);
    const { poll, options } = await buildPoll(database.db, {
      options: 3,
      isFeatured: true,
      endDate: new Date(Date.now() + 3 * 86_400_000),
      title: 'Duelo en vivo',
    });
    const [contestant] = await database.db
      .select({ fullName: schema.contestants.fullName })
      .from(schema.contestants)
      .where(eq(schema.contestants.id, options[0]!.contestantId!));
    optionName = contestant!.fullName;
    expect(poll.isFeatured).toBe(true);
    server = await startServer();
    browser = await launchChromium();
    watcher = await signedInPage('Mirona Atenta');
    voter = await signedInPage('Votante Veloz');
  });

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await server?.close();
    await database.close();
  });

  it("shows one fan's vote on the other fan's screen without a reload", async () => {
    const watcherBar = watcher.getByRole('progressbar', { name: `Porcentaje de ${optionName}` });
    expect(await watcherBar.getAttribute('aria-valuenow')).toBe('0');
    // The watcher keeps the voters list of that option open while the other fan votes.
    await watcher.getByRole('button', { name: new RegExp(`Ver votantes de ${optionName}`) }).click();
    const dialog = watcher.getByRole('dialog');
    await dialog.getByText('No hay votos aún').waitFor();
    const navigations: string[] = [];
    watcher.on('framenavigated', (frame) => navigations.push(frame.url()));

    await voter.getByRole('radio', { name: new RegExp(optionName) }).check();
    await voter.getByRole('button', { name: 'Votar' }).click();
    await voter.getByText('¡Voto registrado!').waitFor();

    await dialog.getByText('Votante Veloz').waitFor();
    await watcher.waitForFunction(
      (name) => document.querySelector(`[role=progressbar][aria-label="Porcentaje de ${name}"]`)?.getAttribute('aria-valuenow') === '100',
      optionName,
    );
    expect(navigations).toEqual([]);
    const [stored] = await database.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM votes`;
    expect(stored!.n).toBe(1);
  });
});
