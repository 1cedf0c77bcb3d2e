import sharp from 'sharp';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../support/server/sessions.ts';
import { launchChromium } from '../support/browser.ts';
import { testDatabase, truncateAll } from '../support/db.ts';
import { buildPost, buildUser } from '../support/factories.ts';
import { startServer, type RunningServer } from '../support/liveServer.ts';

/**
 * The wall in two real browsers on a phone-sized screen: one fan posts two images, reacts,
 * comments and replies; the other, who keeps the wall open, sees the new-post notice, then the
 * comment and the reaction counts on the post, without reloading.
 */
describe('the wall, live between two browsers', () => {
  const database = testDatabase();
  let server: RunningServer;
  let browser: Browser;
  let author: Page;
  let reader: Page;
  const contexts: BrowserContext[] = [];

  async function signedInWall(displayName: string): Promise<Page> {
    const user = await buildUser(database.db, { displayName });
    const { token } = await signIn(server.app as never, user);
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    await context.addCookies([{ name: 'tribuna_session', value: token, url: server.url }]);
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(`${server.url}/wall`);
    await page.getByRole('heading', { name: 'Muro' }).waitFor();
    return page;
  }

  beforeAll(async () => {
    await truncateAll(database);
    const veteran = await buildUser(database.db, { displayName: 'Fan Veterana' });
    await buildPost(database.db, veteran.id, { content: 'La gala de anoche estuvo intensa' });
    server = await startServer();
    browser = await launchChromium();
    reader = await signedInWall('Lectora Fiel');
    author = await signedInWall('Autora Activa');
    await reader.getByText('La gala de anoche estuvo intensa').waitFor();
  });

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await server?.close();
    await database.close();
  });

  it('posts two images, reacts, comments and replies; the other browser follows without a reload', async () => {
    const navigations: string[] = [];
    reader.on('framenavigated', (frame) => navigations.push(frame.url()));

    // Two images with EXIF, from the phone's picker.
    const photo = (r: number) =>
      sharp({ create: { width: 640, height: 480, channels: 3, background: { r, g: 120, b: 60 } } })
        .jpeg()
        .withExif({ IFD0: { Make: 'PhoneMaker', Model: 'Secret 1' } })
        .toBuffer();
    await author.getByRole('textbox', { name: '¿Qué está pasando?' }).fill('¡Miren estas fotos de la gala!');
    await author
      .locator('input[type=file]')
      .first()
      .setInputFiles([
        { name: 'gala-1.jpg', mimeType: 'image/jpeg', buffer: await photo(200) },
        { name: 'gala-2.jpg', mimeType: 'image/jpeg', buffer: await photo(30) },
      ]);
    await author.getByRole('textbox', { name: 'Texto alternativo (opcional) de la imagen 1' }).fill('El escenario iluminado');
    await author.getByRole('button', { name: 'Publicar' }).click();
    const mine = author.getByRole('article', { name: 'Publicación de Autora Activa' });
    await mine.getByText('¡Miren estas fotos de la gala!').waitFor();
    await expect.poll(() => mine.getByRole('button', { name: /Ver imagen \d de 2/ }).count()).toBe(2);

    // The reader is told, and the feed does not jump under their eyes.
    const notice = reader.getByRole('button', { name: '1 publicación nueva' });
    await notice.waitFor();
    expect(await reader.getByText('¡Miren estas fotos de la gala!').count()).toBe(0);
    await notice.click();
    const post = reader.getByRole('article', { name: 'Publicación de Autora Activa' });
    await post.getByText('¡Miren estas fotos de la gala!').waitFor();
    await post.locator('img[alt="El escenario iluminado"]').waitFor();

    // The author reacts, comments and replies to their own comment.
    await mine.getByRole('button', { name: 'Reaccionar' }).click();
    await author.getByRole('button', { name: 'Me asombra' }).click();
    await mine.getByRole('button', { name: /Tu reacción: Me asombra/ }).waitFor();
    await mine.getByRole('button', { name: /comentarios?/ }).click();
    await mine.getByRole('textbox', { name: 'Escribe un comentario' }).fill('Primer comentario en vivo');
    await mine.getByRole('button', { name: 'Enviar' }).click();
    const comment = mine.getByRole('article', { name: 'Comentario de Autora Activa' }).filter({ hasText: 'Primer comentario en vivo' });
    await comment.waitFor();
    await comment.getByRole('button', { name: 'Responder' }).click();
    await mine.getByRole('textbox', { name: 'Escribe una respuesta' }).fill('Y una respuesta');
    await mine.getByRole('form', { name: 'Responder' }).getByRole('button', { name: 'Enviar' }).click();
    await mine.getByRole('list', { name: 'Respuestas a Autora Activa' }).getByText('Y una respuesta').waitFor();

    // The reader sees the reaction count and the comments, live.
    await post.getByRole('list', { name: 'Reacciones' }).getByText('Me asombra:').waitFor();
    await post.getByRole('button', { name: '2 comentarios' }).waitFor();
    await post.getByRole('button', { name: '2 comentarios' }).click();
    await post.getByText('Primer comentario en vivo').waitFor();
    await post.getByText('Y una respuesta').waitFor();
    expect(navigations).toEqual([]);

    // What was stored: two WebP images without EXIF, one reaction, two comments.
    const media = await database.sql<{ key: string; width: number }[]>`SELECT key, width FROM media ORDER BY width`;
    expect(media).toHaveLength(2);
    for (const { key } of media) {
      const meta = await sharp(`${server.app.config.mediaDir}/${key}`).metadata();
      expect(meta.format).toBe('webp');
      expect(meta.exif).toBeUndefined();
    }
    const [counts] = await database.sql<{ reactions: number; comments: number }[]>`
      SELECT (SELECT count(*)::int FROM post_reactions) AS reactions, (SELECT count(*)::int FROM comments) AS comments`;
    expect(counts).toEqual({ reactions: 1, comments: 2 });
  });
});
