import sharp from 'sharp';
import type { Browser, BrowserContext, Page, WebSocket } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../support/server/sessions.ts';
import { launchChromium } from '../support/browser.ts';
import { testDatabase, truncateAll } from '../support/db.ts';
import { buildComment, buildPoll, buildPost, buildUser, buildVotes } from '../support/factories.ts';
import { startServer, type RunningServer } from '../support/liveServer.ts';

/** A folder to save full-page screenshots in (a visual check by hand), or nothing. */
const SCREENSHOTS = process.env.PROFILE_SCREENSHOTS;

/**
 * Profiles in a real browser on a phone-sized screen: the owner edits the profile with a new
 * avatar and sees it in the navigation bar at once; another user sees the public profile without
 * the voting history; that user reacts to the owner's post on the wall and the owner's Avisos badge
 * changes without a reload, the notification leads to the post and the badge goes; the owner deletes
 * the account (last) and lands on / signed out.
 */
describe('profiles in the browser', () => {
  const database = testDatabase();
  let server: RunningServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  let ownerId = '';
  let readerId = '';
  let ownerPostId = '';

  async function signedIn(userId: string, theme: 'dark' | 'light' = 'dark'): Promise<Page> {
    const { token } = await signIn(server.app as never, { id: userId });
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    await context.addCookies([{ name: 'tribuna_session', value: token, url: server.url }]);
    await context.addInitScript((value) => localStorage.setItem('tribuna-theme', value), theme);
    contexts.push(context);
    return context.newPage();
  }

  const shot = async (page: Page, name: string) => {
    if (SCREENSHOTS) await page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, fullPage: true });
  };

  beforeAll(async () => {
    await truncateAll(database);
    const owner = await buildUser(database.db, { displayName: 'Ana Fan', username: 'ana_fan', bio: 'Fan de la casa desde la temporada 1' });
    ownerId = owner.id;
    const { poll, options } = await buildPoll(database.db, { title: 'Gala de eliminación', isFeatured: true });
    await buildVotes(database.db, [{ pollId: poll.id, optionId: options[0]!.id, userId: owner.id }]);
    const post = await buildPost(database.db, owner.id, { content: 'Mi primera publicación en Tribuna' });
    ownerPostId = post.id;
    const other = await buildUser(database.db, { displayName: 'Luis Lector', username: 'luis' });
    readerId = other.id;
    const otherPost = await buildPost(database.db, other.id, { content: 'Qué gala la de anoche' });
    await buildComment(database.db, otherPost.id, owner.id, { content: '¡Totalmente de acuerdo!' });
    await buildComment(database.db, post.id, other.id, { content: 'Bienvenida' });
    server = await startServer();
    browser = await launchChromium();
  });

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await server?.close();
    await database.close();
  });

  it('edits the profile with a new avatar, shown in the navigation bar at once', async () => {
    const page = await signedIn(ownerId);
    await page.goto(`${server.url}/perfil`);
    await page.getByRole('heading', { level: 1, name: 'Ana Fan' }).waitFor();
    await page.getByText('Gala de eliminación').waitFor();
    await shot(page, 'own-dark');

    await page.getByRole('button', { name: 'Editar Perfil' }).click();
    const dialog = page.getByRole('dialog', { name: 'Editar Perfil' });
    const avatar = await sharp({ create: { width: 800, height: 600, channels: 3, background: { r: 220, g: 40, b: 120 } } })
      .png()
      .toBuffer();
    await dialog.getByLabel('Cambiar foto de perfil').setInputFiles({ name: 'yo.png', mimeType: 'image/png', buffer: avatar });
    await dialog.getByLabel('Nombre', { exact: true }).fill('Ana Editada');
    await dialog.getByLabel('Usuario').fill('Ana_Nueva');
    expect(await dialog.getByLabel('Usuario').inputValue()).toBe('ana_nueva');
    await shot(page, 'edit-dialog-dark');
    await dialog.getByRole('button', { name: 'Guardar Cambios' }).click();
    await dialog.waitFor({ state: 'detached' });

    await page.getByRole('heading', { level: 1, name: 'Ana Editada' }).waitFor();
    await page.getByText('@ana_nueva').waitFor();
    // The bottom bar's Perfil item shows the uploaded picture without a reload.
    const navAvatar = page.getByRole('navigation').getByRole('button', { name: 'Perfil' }).locator('img');
    await expect.poll(() => navAvatar.getAttribute('src')).toMatch(/^\/media\//);
    await shot(page, 'own-after-edit-dark');
  });

  it('shows another user the public profile without the voting history', async () => {
    const page = await signedIn((await buildUser(database.db, { displayName: 'Visita' })).id, 'light');
    await page.goto(`${server.url}/perfil/${ownerId}`);
    await page.getByRole('heading', { level: 1, name: 'Ana Editada' }).waitFor();
    await page.getByText('El historial de votaciones es privado').waitFor();
    expect(await page.getByRole('button', { name: 'Editar Perfil' }).count()).toBe(0);
    expect(await page.getByText('Gala de eliminación').count()).toBe(0);
    await shot(page, 'other-light');
    await page.getByRole('tab', { name: 'Posts' }).click();
    await page.getByText('Mi primera publicación en Tribuna').waitFor();
    await page.getByText('Público').first().waitFor();
    await shot(page, 'other-posts-light');
    await page.getByRole('tab', { name: 'Comentarios' }).click();
    await page.getByText('¡Totalmente de acuerdo!').waitFor();
    await shot(page, 'other-comments-light');
  });

  it("updates the owner's Avisos badge live when another user reacts, and the notification opens the post", async () => {
    // The owner keeps the profile open; wait until the socket asks for their `user:{id}` topic, so
    // the badge can only change through the live message.
    const owner = await signedIn(ownerId);
    const subscribed = new Promise<void>((resolve) => {
      owner.on('websocket', (socket: WebSocket) =>
        socket.on('framesent', ({ payload }) => {
          if (typeof payload === 'string' && payload.includes('"subscribe"') && payload.includes(`user:${ownerId}`)) resolve();
        }),
      );
    });
    await owner.goto(`${server.url}/perfil`);
    await owner.getByRole('heading', { level: 1, name: 'Ana Editada' }).waitFor();
    await subscribed;
    const nav = owner.getByRole('navigation');
    const avisos = nav.getByRole('link', { name: /^Avisos/ });
    const badge = avisos.getByTestId('unread-badge');
    // The comment made by the factory made no notification: no badge yet.
    await nav.getByRole('link', { name: 'Avisos', exact: true }).waitFor();
    expect(await badge.count()).toBe(0);
    const navigations: string[] = [];
    owner.on('framenavigated', (frame) => navigations.push(frame.url()));

    // The other user reacts through the wall's reaction picker.
    const reader = await signedIn(readerId, 'light');
    await reader.goto(`${server.url}/wall`);
    const post = reader.getByRole('article', { name: 'Publicación de Ana Editada' }).filter({ hasText: 'Mi primera publicación en Tribuna' });
    await post.waitFor();
    await post.getByRole('button', { name: 'Reaccionar' }).click();
    await reader.getByRole('button', { name: 'Me gusta' }).click();
    await post.getByRole('button', { name: /Tu reacción: Me gusta/ }).waitFor();

    // The owner's badge changes, without a reload. (Chromium names the link 'Avisos , 1 sin leer':
    // the screen-reader suffix is an absolutely positioned sr-only span, so it counts as a block.)
    await nav.getByRole('link', { name: /^Avisos\s*, 1 sin leer$/ }).waitFor();
    expect(await badge.textContent()).toBe('1');
    expect(navigations).toEqual([]);
    await shot(owner, 'badge-dark');

    // The entry names who and what, and leads to the post (shown first, its comments open).
    await avisos.click();
    await owner.waitForURL(`${server.url}/notificaciones`);
    const entry = owner.getByRole('link').filter({ hasText: 'A Luis Lector le gusta tu publicación' });
    await entry.getByText('Mi primera publicación en Tribuna').waitFor();
    await shot(owner, 'notifications-dark');
    await entry.click();
    await owner.waitForURL(`${server.url}/wall?post=${ownerPostId}`);
    const focused = owner.getByRole('region', { name: 'Publicación' });
    const card = focused.getByRole('article', { name: 'Publicación de Ana Editada' });
    await card.getByText('Mi primera publicación en Tribuna').waitFor();
    await card.getByRole('list', { name: 'Reacciones' }).getByText('Me gusta:').waitFor();
    await card.getByText('Bienvenida').waitFor();
    // Read: the badge is gone.
    await nav.getByRole('link', { name: 'Avisos', exact: true }).waitFor();
    expect(await badge.count()).toBe(0);
    await shot(owner, 'focused-post-dark');
  });

  it('deletes the account and lands on / signed out', async () => {
    const page = await signedIn(ownerId);
    await page.goto(`${server.url}/perfil`);
    await page.getByRole('button', { name: 'Eliminar cuenta' }).click();
    const dialog = page.getByRole('dialog', { name: 'Eliminar cuenta' });
    await dialog.getByRole('textbox').fill('eliminar');
    expect(await dialog.getByRole('textbox').inputValue()).toBe('ELIMINAR');
    await shot(page, 'delete-dialog-dark');
    await dialog.getByRole('button', { name: 'Eliminar Cuenta' }).click();
    await page.waitForURL(`${server.url}/`);
    await expect.poll(() => page.getByRole('button', { name: 'Perfil' }).count()).toBe(0);
    // Signed out everywhere: the protected profile sends to /login.
    await page.goto(`${server.url}/perfil`);
    await page.waitForURL(`${server.url}/login`);
  });
});
