// Fan clubs and follows (issue 28) in real browsers at a phone's size (390×844), in both themes.
// Groups: a fan creates a private group from /grupos; a second fan asks to join, the first sees the
// request counted live under 'Solicitudes' and approves it; the second posts in the group; a third
// fan, outside it, sees its card and 'Solicitar unirme' but never the post (not even by its URL).
// Follows: a fan follows another from their profile, the followed fan posts for their followers
// only, and the follower reads it on the wall's 'Siguiendo' tab while a fan who does not follow
// them never sees it. Every new screen is scanned by axe-core: no serious or critical violation.
// GROUPS_SCREENSHOTS=<folder> saves a screenshot of each step, for a look by hand.
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GROUP_MESSAGES } from '@tribuna/contracts/groupRules';
import { axeViolations, seriousOrCritical } from '../support/axe.ts';
import { launchChromium, themedContext } from '../support/browser.ts';
import { testDatabase, truncateAll } from '../support/db.ts';
import { buildPost, buildUser } from '../support/factories.ts';
import { signIn } from '../support/server/sessions.ts';
import { startServer, type RunningServer } from '../support/liveServer.ts';

const SCREENSHOTS = process.env.GROUPS_SCREENSHOTS;
const PHONE = { width: 390, height: 844 };
const THEMES = ['light', 'dark'] as const;
const POST_GONE_TEXT = 'Esta publicación ya no está disponible';

describe('fan clubs and follows in the browser, phone size, both themes', () => {
  const database = testDatabase();
  let server: RunningServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    await truncateAll(database);
    const veteran = await buildUser(database.db, { displayName: 'Fan Veterana' });
    await buildPost(database.db, veteran.id, { content: 'La gala de anoche estuvo intensa' });
    server = await startServer();
    browser = await launchChromium();
  });

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await server?.close();
    await database.close();
  });

  /** A new fan, signed in, in a phone-sized browser of their own. */
  async function fan(displayName: string, theme: string): Promise<{ id: string; page: Page }> {
    const user = await buildUser(database.db, { displayName });
    const { token } = await signIn(server.app as never, user);
    const context = await themedContext(browser, { viewport: PHONE, theme, session: { token, url: server.url } });
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    return { id: user.id, page };
  }

  /** axe's serious and critical violations on the page as it is now, and a screenshot when asked. */
  async function check(page: Page, step: string, theme: string): Promise<string[]> {
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(theme === 'dark');
    if (SCREENSHOTS) await page.screenshot({ path: path.join(SCREENSHOTS, `groups-${step}-${theme}.png`), fullPage: true });
    return seriousOrCritical(await axeViolations(page)).map(
      (v) =>
        `${step} (${theme}): ${v.impact} ${v.id} — ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join(', ')}`,
    );
  }

  const postIdOf = async (content: string) => {
    const [row] = await database.sql<{ id: string }[]>`SELECT id FROM posts WHERE content = ${content}`;
    return row!.id;
  };

  for (const theme of THEMES) {
    it(`${theme}: a private group, a request approved live, a member's post, and an outsider who sees the card only`, { timeout: 120_000 }, async () => {
      const failures: string[] = [];
      const groupName = theme === 'light' ? 'Team Ximena' : 'Team Ximena Nocturno';
      const founder = await fan(`Fundadora ${theme}`, theme);
      const applicantName = `Aspirante ${theme}`;
      const applicant = await fan(applicantName, theme);
      const outsider = await fan(`Curiosa ${theme}`, theme);
      const content = `Hola equipo, ¡a votar por Ximena! (${theme})`;

      // The founder creates it from the directory: private.
      await founder.page.goto(`${server.url}/grupos`);
      await founder.page.getByRole('heading', { level: 1, name: 'Grupos' }).waitFor();
      await founder.page
        .getByRole('status')
        .filter({ hasText: /Cargando grupos/ })
        .waitFor({ state: 'detached' });
      failures.push(...(await check(founder.page, 'directory-founder', theme)));
      await founder.page.getByRole('button', { name: 'Crear grupo' }).click();
      const dialog = founder.page.getByRole('dialog', { name: 'Crear grupo' });
      await dialog.getByLabel('Nombre', { exact: true }).fill(groupName);
      await dialog.getByLabel('Descripción').fill('El club de fans de Ximena: estrategia de votos y memes.');
      await dialog.getByRole('radio', { name: 'Privado' }).check();
      failures.push(...(await check(founder.page, 'create', theme)));
      await dialog.getByRole('button', { name: 'Crear grupo' }).click();
      await founder.page.getByRole('heading', { level: 1, name: groupName }).waitFor();
      const groupUrl = founder.page.url();
      expect(groupUrl).toMatch(/\/grupos\/[0-9a-f-]{36}$/);
      const requestsTab = founder.page.getByRole('tab', { name: /^Solicitudes/ });
      expect(await requestsTab.textContent()).toBe('Solicitudes');
      failures.push(...(await check(founder.page, 'group-founder', theme)));

      // The second fan finds its card in the directory and asks to join.
      await applicant.page.goto(`${server.url}/grupos`);
      const card = applicant.page.getByRole('article', { name: groupName });
      await card.getByText('Privado').waitFor();
      failures.push(...(await check(applicant.page, 'directory', theme)));
      await card.getByRole('link', { name: groupName }).click();
      await applicant.page.getByRole('heading', { level: 1, name: groupName }).waitFor();
      await applicant.page.getByText(GROUP_MESSAGES.privateGroup).waitFor();
      await applicant.page.getByRole('button', { name: 'Solicitar unirme' }).click();
      await applicant.page.getByRole('status').filter({ hasText: 'Solicitud enviada' }).waitFor();
      failures.push(...(await check(applicant.page, 'requested', theme)));

      // The founder sees it counted live, without a reload, and approves it.
      await founder.page.getByRole('tab', { name: /^Solicitudes\s*,\s*1 pendiente$/ }).waitFor();
      await requestsTab.click();
      const accept = founder.page.getByRole('button', { name: `Aceptar a ${applicantName}` });
      await accept.waitFor();
      failures.push(...(await check(founder.page, 'requests', theme)));
      await accept.click();
      await expect.poll(() => requestsTab.textContent()).toBe('Solicitudes');

      // The new member's page opens up live: the group's wall with its composer (no audience choice).
      const composer = applicant.page.getByRole('textbox', { name: '¿Qué está pasando?' });
      await composer.waitFor();
      await applicant.page.getByRole('button', { name: 'Salir del grupo' }).waitFor();
      expect(await applicant.page.getByRole('combobox', { name: 'Visible para' }).count()).toBe(0);
      await composer.fill(content);
      await applicant.page.getByRole('button', { name: 'Publicar' }).click();
      const post = applicant.page.getByRole('article', { name: `Publicación de ${applicantName}` });
      await post.getByText(content).waitFor();
      failures.push(...(await check(applicant.page, 'member-post', theme)));
      const postId = await postIdOf(content);
      const [stored] = await database.sql<{ visibility: string; group_id: string }[]>`SELECT visibility, group_id FROM posts WHERE id = ${postId}`;
      expect(stored).toEqual({ visibility: 'group', group_id: groupUrl.split('/').at(-1) });

      // The founder reads it on the group's wall.
      await founder.page.getByRole('tab', { name: 'Muro' }).click();
      await founder.page
        .getByRole('article', { name: `Publicación de ${applicantName}` })
        .getByText(content)
        .waitFor();

      // A third fan, outside the group: its card and 'Solicitar unirme', never the post.
      await outsider.page.goto(`${server.url}/grupos`);
      const outsiderCard = outsider.page.getByRole('article', { name: groupName });
      await outsiderCard.getByText('Privado').waitFor();
      await outsiderCard.getByText('2 miembros').waitFor();
      await outsiderCard.getByRole('link', { name: groupName }).click();
      await outsider.page.getByRole('heading', { level: 1, name: groupName }).waitFor();
      await outsider.page.getByRole('button', { name: 'Solicitar unirme' }).waitFor();
      await outsider.page.getByText(GROUP_MESSAGES.privateGroup).waitFor();
      expect(await outsider.page.getByText(content).count()).toBe(0);
      failures.push(...(await check(outsider.page, 'outsider', theme)));
      // Not by the post's own address either, nor on the wall.
      const direct = await outsider.page.request.get(`${server.url}/api/posts/${postId}`);
      expect(direct.status()).toBe(404);
      await outsider.page.goto(`${server.url}/wall?post=${postId}`);
      await outsider.page.getByText(POST_GONE_TEXT).waitFor();
      await outsider.page.getByText('La gala de anoche estuvo intensa').waitFor();
      expect(await outsider.page.getByText(content).count()).toBe(0);
      failures.push(...(await check(outsider.page, 'outsider-post-url', theme)));

      expect(failures).toEqual([]);
    });
  }

  for (const theme of THEMES) {
    it(
      `${theme}: a fan follows another and reads their followers-only post on 'Siguiendo'; a fan who does not follow never sees it`,
      { timeout: 120_000 },
      async () => {
        const failures: string[] = [];
        const idolName = `Creadora ${theme}`;
        const followerName = `Seguidora ${theme}`;
        const idol = await fan(idolName, theme);
        const follower = await fan(followerName, theme);
        const stranger = await fan(`Desconocida ${theme}`, theme);
        const content = `Adelanto solo para mis seguidores (${theme})`;

        // The follower follows from the idol's profile: at once, and counted.
        await follower.page.goto(`${server.url}/perfil/${idol.id}`);
        await follower.page.getByRole('heading', { level: 1, name: idolName }).waitFor();
        const followButton = follower.page.getByRole('button', { name: 'Seguir', exact: true });
        expect(await followButton.getAttribute('aria-pressed')).toBe('false');
        failures.push(...(await check(follower.page, 'profile', theme)));
        const followed = follower.page.waitForResponse((r) => r.url().endsWith(`/api/profiles/${idol.id}/follow`) && r.request().method() === 'PUT');
        await followButton.click();
        const following = follower.page.getByRole('button', { name: 'Siguiendo', exact: true });
        await expect.poll(() => following.getAttribute('aria-pressed')).toBe('true');
        expect((await followed).status()).toBe(200);
        await follower.page.getByRole('button', { name: '1 Seguidores' }).click();
        const list = follower.page.getByRole('dialog', { name: 'Seguidores' });
        await list.getByRole('link', { name: followerName }).waitFor();
        failures.push(...(await check(follower.page, 'followers-list', theme)));
        await list.getByRole('button', { name: 'Cerrar' }).click();
        const [edge] = await database.sql<
          { n: number }[]
        >`SELECT count(*)::int AS n FROM follows WHERE follower_id = ${follower.id} AND followee_id = ${idol.id}`;
        expect(edge!.n).toBe(1);

        // The idol is told, and posts for their followers only.
        await idol.page.goto(`${server.url}/notificaciones`);
        const told = idol.page.getByRole('link', { name: new RegExp(`${followerName} empezó a seguirte`) });
        await told.waitFor();
        expect(await told.getAttribute('href')).toBe(`/perfil/${follower.id}`);
        failures.push(...(await check(idol.page, 'notification', theme)));
        await idol.page.goto(`${server.url}/wall`);
        await idol.page.getByRole('combobox', { name: 'Visible para' }).selectOption({ label: 'Seguidores' });
        await idol.page.getByRole('textbox', { name: '¿Qué está pasando?' }).fill(content);
        failures.push(...(await check(idol.page, 'composer-followers', theme)));
        await idol.page.getByRole('button', { name: 'Publicar' }).click();
        const own = idol.page.getByRole('article', { name: `Publicación de ${idolName}` }).filter({ hasText: content });
        await own.getByTitle('Solo para seguidores').waitFor();
        const postId = await postIdOf(content);
        const [stored] = await database.sql<{ visibility: string }[]>`SELECT visibility FROM posts WHERE id = ${postId}`;
        expect(stored!.visibility).toBe('followers');

        // The follower reads it on 'Siguiendo'.
        await follower.page.goto(`${server.url}/wall`);
        await follower.page.getByText('La gala de anoche estuvo intensa').waitFor();
        expect(await follower.page.getByText(content).count()).toBe(0);
        await follower.page.getByRole('button', { name: 'Siguiendo', exact: true }).click();
        const read = follower.page.getByRole('article', { name: `Publicación de ${idolName}` }).filter({ hasText: content });
        await read.getByTitle('Solo para seguidores').waitFor();
        expect(follower.page.url()).toMatch(/\/wall\?ver=siguiendo$/);
        failures.push(...(await check(follower.page, 'wall-following', theme)));

        // A fan who does not follow the idol: nothing on either tab, nor by its address.
        await stranger.page.goto(`${server.url}/wall`);
        await stranger.page.getByText('La gala de anoche estuvo intensa').waitFor();
        expect(await stranger.page.getByText(content).count()).toBe(0);
        await stranger.page.getByRole('button', { name: 'Siguiendo', exact: true }).click();
        await stranger.page.getByText('Aún no sigues a nadie').waitFor();
        expect(await stranger.page.getByText(content).count()).toBe(0);
        failures.push(...(await check(stranger.page, 'wall-following-empty', theme)));
        expect((await stranger.page.request.get(`${server.url}/api/posts/${postId}`)).status()).toBe(404);

        expect(failures).toEqual([]);
      },
    );
  }
});
