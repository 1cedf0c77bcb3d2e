import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../support/server/sessions.ts';
import { launchChromium } from '../support/browser.ts';
import { testDatabase, truncateAll } from '../support/db.ts';
import { buildPoll, buildPost, buildUser } from '../support/factories.ts';
import { startServer, type RunningServer } from '../support/liveServer.ts';

/**
 * The site with the keyboard alone (Tab, Shift+Tab, Enter, Space, Escape, arrow keys; no click):
 * a fan votes on the home poll, posts on the wall, reacts to a post and comments on it; an admin
 * creates a reality in its form dialog and adjusts a user's points in the points dialog. Each
 * action is checked in PostgreSQL, and every element reached shows a visible focus indicator.
 */
describe('keyboard only', () => {
  const database = testDatabase();
  let server: RunningServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  let fanId = '';
  let adminId = '';
  let pollId = '';
  let optionIds: string[] = [];
  let postId = '';
  let targetId = '';

  async function signedIn(userId: string, viewport = { width: 390, height: 844 }): Promise<Page> {
    const { token } = await signIn(server.app as never, { id: userId });
    const context = await browser.newContext({ viewport });
    await context.addCookies([{ name: 'tribuna_session', value: token, url: server.url }]);
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    return page;
  }

  /**
   * The focused element (or, for a visually hidden input such as a card's radio, the label around
   * it) draws a focus indicator: an outline, or a ring (box-shadow), while it matches :focus-visible.
   */
  async function expectFocusIndicator(page: Page): Promise<void> {
    const focus = await page.evaluate(() => {
      const active = document.activeElement as HTMLElement | null;
      if (!active || active === document.body) return { focusVisible: false, indicator: 'nothing focused' };
      const candidates = [active, active.closest('label')].filter((el): el is HTMLElement => el !== null);
      for (const el of candidates) {
        const style = getComputedStyle(el);
        if (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0)
          return { focusVisible: active.matches(':focus-visible'), indicator: 'outline' };
        if (style.boxShadow !== 'none') return { focusVisible: active.matches(':focus-visible'), indicator: 'box-shadow' };
      }
      return {
        focusVisible: active.matches(':focus-visible'),
        indicator: `none on <${active.tagName.toLowerCase()}> ${active.getAttribute('aria-label') ?? active.textContent?.slice(0, 40)}`,
      };
    });
    expect(focus.focusVisible).toBe(true);
    expect(['outline', 'box-shadow']).toContain(focus.indicator);
  }

  const isFocused = (target: Locator) => target.evaluate((el) => el === document.activeElement);

  /** Presses Tab (or Shift+Tab) until `target` has the focus, then checks its focus indicator. */
  async function tabTo(page: Page, target: Locator, { backwards = false, max = 80 } = {}): Promise<void> {
    await target.waitFor();
    for (let presses = 0; presses < max; presses++) {
      if (await isFocused(target)) {
        await expectFocusIndicator(page);
        return;
      }
      await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
    }
    throw new Error(`${max} presses of ${backwards ? 'Shift+Tab' : 'Tab'} never reached ${target.toString()}`);
  }

  beforeAll(async () => {
    await truncateAll(database);
    const fan = await buildUser(database.db, { displayName: 'Fan Teclado' });
    fanId = fan.id;
    const admin = await buildUser(database.db, { displayName: 'Admin Teclado', role: 'admin' });
    adminId = admin.id;
    const target = await buildUser(database.db, { displayName: 'Usuaria Premiada' });
    targetId = target.id;
    const { poll, options } = await buildPoll(database.db, { options: 3, isFeatured: true, title: 'Encuesta con teclado' });
    pollId = poll.id;
    optionIds = options.map((o) => o.id);
    const post = await buildPost(database.db, target.id, { content: 'Una publicación para reaccionar' });
    postId = post.id;
    server = await startServer();
    browser = await launchChromium();
  });

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await server?.close();
    await database.close();
  });

  it('a fan votes on the home poll with Tab, the arrow keys and Enter', { timeout: 120_000 }, async () => {
    const page = await signedIn(fanId);
    await page.goto(server.url);
    await page.getByRole('heading', { level: 1, name: 'Encuesta con teclado' }).waitFor();
    const radios = page.getByRole('radio');
    await tabTo(page, radios.first());
    // Arrow keys move within the radio group and choose; Space chooses the focused one.
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Space');
    expect(await isFocused(radios.nth(1))).toBe(true);
    expect(await radios.nth(1).isChecked()).toBe(true);
    await expectFocusIndicator(page);
    await tabTo(page, page.getByRole('button', { name: 'Votar' }));
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Cambiar voto' }).waitFor();
    await expect
      .poll(async () => database.sql<{ option_id: string }[]>`SELECT option_id FROM votes WHERE user_id = ${fanId} AND poll_id = ${pollId}`)
      .toEqual([{ option_id: optionIds[1] }]);

    // The indicator check can fail: with the focus styles removed, it does.
    await tabTo(page, page.getByRole('button', { name: 'Cambiar voto' }), { backwards: true });
    await page.evaluate(() => {
      const active = document.activeElement as HTMLElement;
      for (const el of [active, active.closest('label')]) {
        el?.style.setProperty('outline', 'none', 'important');
        el?.style.setProperty('box-shadow', 'none', 'important');
      }
    });
    await expect(expectFocusIndicator(page)).rejects.toThrow();
  });

  it('a fan posts on the wall, reacts to a post and comments on it, with the keyboard alone', { timeout: 180_000 }, async () => {
    const page = await signedIn(fanId);
    await page.goto(`${server.url}/wall`);
    await page.getByRole('heading', { name: 'Muro' }).waitFor();

    // A post.
    await tabTo(page, page.getByRole('textbox', { name: '¿Qué está pasando?' }));
    await page.keyboard.type('Escrito sin mouse');
    await tabTo(page, page.getByRole('button', { name: 'Publicar' }));
    await page.keyboard.press('Enter');
    await page.getByRole('article', { name: 'Publicación de Fan Teclado' }).getByText('Escrito sin mouse').waitFor();
    await expect.poll(async () => database.sql`SELECT 1 FROM posts WHERE user_id = ${fanId} AND content = 'Escrito sin mouse'`.then((r) => r.length)).toBe(1);

    // A reaction: the picker opens with the focus inside it; Escape closes it and gives the focus back.
    const other = page.getByRole('article', { name: 'Publicación de Usuaria Premiada' });
    const react = other.getByRole('button', { name: 'Reaccionar' });
    await tabTo(page, react);
    await page.keyboard.press('Enter');
    const picker = page.getByRole('group', { name: 'Elige una reacción' });
    await picker.waitFor();
    await page.keyboard.press('Escape');
    await picker.waitFor({ state: 'detached' });
    expect(await isFocused(react)).toBe(true);
    await page.keyboard.press('Space');
    await picker.waitFor();
    await tabTo(page, picker.getByRole('button', { name: 'Me asombra' }));
    await page.keyboard.press('Enter');
    await other.getByRole('button', { name: /Tu reacción: Me asombra/ }).waitFor();
    await expect
      .poll(async () => database.sql<{ reaction_type: string }[]>`SELECT reaction_type FROM post_reactions WHERE user_id = ${fanId} AND post_id = ${postId}`)
      .toEqual([{ reaction_type: 'wow' }]);

    // A comment: open the comments, type, send.
    await tabTo(page, other.getByRole('button', { name: /comentarios?$/ }));
    await page.keyboard.press('Enter');
    await tabTo(page, other.getByRole('textbox', { name: 'Escribe un comentario' }));
    await page.keyboard.type('Comentario con teclado');
    await tabTo(page, other.getByRole('button', { name: 'Enviar' }));
    await page.keyboard.press('Enter');
    await other.getByRole('article', { name: 'Comentario de Fan Teclado' }).waitFor();
    await expect
      .poll(async () =>
        database.sql`SELECT 1 FROM comments WHERE user_id = ${fanId} AND post_id = ${postId} AND content = 'Comentario con teclado'`.then((r) => r.length),
      )
      .toBe(1);
  });

  it('an admin creates a reality and adjusts points in their dialogs, with the keyboard alone', { timeout: 180_000 }, async () => {
    const page = await signedIn(adminId, { width: 1280, height: 800 });
    await page.goto(`${server.url}/admin/realitys`);
    await page.getByRole('heading', { level: 2, name: 'Realities' }).waitFor();

    // The form dialog: the first field has the focus; Shift+Tab from the submit button goes back.
    await tabTo(page, page.getByRole('button', { name: 'Nuevo reality' }));
    await page.keyboard.press('Enter');
    let dialog = page.getByRole('dialog', { name: 'Nuevo reality' });
    await dialog.waitFor();
    const name = dialog.getByRole('textbox', { name: 'Nombre' });
    await expect.poll(() => isFocused(name)).toBe(true);
    await page.keyboard.type('Reality del Teclado');
    await tabTo(page, dialog.getByRole('button', { name: 'Crear reality' }));
    await tabTo(page, dialog.getByRole('checkbox', { name: 'Activo' }), { backwards: true });
    await page.keyboard.press('Space');
    expect(await dialog.getByRole('checkbox', { name: 'Activo' }).isChecked()).toBe(false);
    await tabTo(page, dialog.getByRole('button', { name: 'Crear reality' }));
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    await expect
      .poll(async () => database.sql<{ active: boolean }[]>`SELECT active FROM realities WHERE name = 'Reality del Teclado'`)
      .toEqual([{ active: false }]);

    // The points dialog: Escape closes it and gives the focus back to its button; then a real adjustment.
    await page.goto(`${server.url}/admin/usuarios`);
    await page.getByRole('heading', { level: 2, name: 'Usuarios' }).waitFor();
    const points = page.getByRole('button', { name: 'Puntos de Usuaria Premiada' }).filter({ visible: true });
    await tabTo(page, points);
    await page.keyboard.press('Enter');
    dialog = page.getByRole('dialog', { name: 'Ajustar puntos de Usuaria Premiada' });
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await isFocused(points)).toBe(true);
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await tabTo(page, dialog.getByRole('textbox', { name: 'Puntos' }));
    await page.keyboard.type('25');
    await tabTo(page, dialog.getByRole('textbox', { name: 'Descripción' }));
    await page.keyboard.type('Premio del teclado');
    await tabTo(page, dialog.getByRole('button', { name: 'Ajustar puntos' }));
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    await expect
      .poll(async () => database.sql<{ total_points: number }[]>`SELECT total_points FROM profiles WHERE id = ${targetId}`)
      .toEqual([{ total_points: 25 }]);
  });
});
