// Stored XSS in Chromium: the tests are test/e2e/xss*.test.ts, the pages split in two parts that run
// in parallel (each file with its own database, server, worker and browser, and the same rows).
import pino from 'pino';
import sharp from 'sharp';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_MESSAGES } from '@tribuna/contracts/adminRules';
import { PROFILE_MESSAGES } from '@tribuna/contracts/profileRules';
import { signIn } from '../../support/server/sessions.ts';
import { multipart, type MultipartPart } from '../../support/server/multipart.ts';
import { startWorker, type WorkerApp } from '../../../worker/src/app.ts';
import { launchChromium } from '../../support/browser.ts';
import { testDatabase, truncateAll } from '../../support/db.ts';
import { testConfig } from '../../support/env.ts';
import { buildPost, buildUser } from '../../support/factories.ts';
import { startServer, type RunningServer } from '../../support/liveServer.ts';

/**
 * Stored XSS, proven in a real browser. Classic payloads go into every text a fan or an admin
 * controls (through the real API; the username format refuses them); then every page that shows
 * those texts is rendered in Chromium. Nothing may run: window.__xss stays unset, no dialog opens,
 * the Content-Security-Policy reports nothing (a blocked inline handler would be a payload that
 * reached the DOM as markup), no hostile element exists, and every payload is on the page as
 * literal text (it was rendered, escaped). Then injection payloads in every search and filter
 * parameter: 200 or 400, never 500, and nothing changes.
 */

// Each at most 50 characters (the shortest limit: display names).
const PAYLOADS = [
  '<script>window.__xss=1</script>',
  '<img src=x onerror="window.__xss=1">',
  '"><svg onload=window.__xss=1>',
  'javascript:window.__xss=1',
  "{{constructor.constructor('window.__xss=1')()}}",
  '</textarea><script>alert(1)</script>',
  '\u202Egnp.<svg onload=alert(1)>.exe\u202C',
  "'; DROP TABLE votes; --",
  '[clic](javascript:alert(1)) **negrita**',
  '&lt;b&gt;doble&lt;/b&gt; ${alert(1)}',
  "<iframe src='javascript:alert(1)'></iframe>",
  '<a href="javascript:alert(1)">enlace</a>',
] as const;
const N = PAYLOADS.length;
const DEVICE = 'xss-dispositivo-compartido-0123456789';
const VICTIM_USERNAME = 'victima_xss';
/** The policy's report (or console line) about an <img> whose source is a javascript: URL. */
const BLOCKED_PICTURE = /^img-src blocked javascript \(|^(Refused to load|Loading) the image 'javascript:/;

/** Whatever the browser says about the payloads on a page. */
interface Watch {
  dialogs: string[];
  violations: string[];
  console: string[];
  errors: string[];
}

interface Caller {
  id: string;
  cookie: string;
  token: string;
}

/**
 * The pages each part renders: `fan` the home page, the share previews, the wall, other users'
 * profiles and the notifications, plus the probe that the checks can fail and the search and filter
 * parameters; `own` one's own profile and every admin screen.
 */
export type XssPart = 'fan' | 'own';

export function describeXss(part: XssPart): void {
  describe(`stored XSS: every payload in every text, rendered in Chromium (${part === 'fan' ? 'public pages and searches' : 'own profile and admin screens'})`, () => {
    const database = testDatabase();
    let server: RunningServer;
    let worker: WorkerApp;
    let browser: Browser;
    const contexts: BrowserContext[] = [];

    let admin: Caller;
    let adminOps: Caller;
    let victim: Caller;
    const fans: Caller[] = [];
    const contestantPolls: string[] = [];
    let textPollId = '';
    let victimPostId = '';
    let pagesChecked = 0;
    let blockedPictures = 0;

    async function caller(overrides: Parameters<typeof buildUser>[1] = {}): Promise<Caller> {
      const user = await buildUser(database.db, overrides);
      const { cookie, token } = await signIn(server.app as never, user);
      return { id: user.id, cookie, token };
    }

    function call(who: Caller, method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, payload?: object): Promise<LightMyRequestResponse> {
      return server.app.inject({
        method,
        url,
        headers: { cookie: who.cookie, 'x-requested-with': 'tribuna', origin: server.url },
        ...(payload === undefined ? {} : { payload }),
      });
    }

    function upload(who: Caller, url: string, parts: MultipartPart[]): Promise<LightMyRequestResponse> {
      const body = multipart(parts);
      return server.app.inject({
        method: 'POST',
        url,
        headers: { cookie: who.cookie, 'x-requested-with': 'tribuna', origin: server.url, ...body.headers },
        payload: body.payload,
      });
    }

    async function ok(res: LightMyRequestResponse | Promise<LightMyRequestResponse>, status = [200, 201]): Promise<any> {
      const done = await res;
      expect(status, `${done.statusCode} ${done.body}`).toContain(done.statusCode);
      return done.body ? done.json() : null;
    }

    const photo = (n: number) =>
      sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 20 * n, g: 90, b: 140 } } })
        .jpeg()
        .toBuffer();

    beforeAll(async () => {
      await truncateAll(database);
      server = await startServer();
      worker = await startWorker({ config: testConfig(), db: database.db, logger: pino({ level: 'silent' }), schedules: false });
      browser = await launchChromium();

      admin = await caller({ role: 'admin', displayName: 'Admin Catálogo' });
      adminOps = await caller({ role: 'admin', displayName: 'Admin Operaciones' });
      victim = await caller({ displayName: 'Víctima Fiel', username: VICTIM_USERNAME });
      victimPostId = (await buildPost(database.db, victim.id, { content: 'La gala de esta noche' })).id;

      // Fans: display name and bio through PATCH /api/me; the username format refuses every payload.
      for (let i = 0; i < N; i++) {
        const fan = await caller();
        await ok(call(fan, 'PATCH', '/api/me', { displayName: PAYLOADS[i]!, bio: `Bio ${PAYLOADS[i]!}` }));
        const refused = await call(fan, 'PATCH', '/api/me', { username: PAYLOADS[i]! });
        expect(refused.statusCode, refused.body).toBe(400);
        expect(refused.json().message).toBe(PROFILE_MESSAGES.usernameInvalid);
        fans.push(fan);
      }
      // URLs: only https (or this site's /media/) for pictures; javascript: and data: are refused.
      for (const url of ['javascript:window.__xss=1', 'data:text/html,<script>window.__xss=1</script>', 'JaVaScRiPt:alert(1)']) {
        const avatar = await call(fans[0]!, 'PATCH', '/api/me', { avatarUrl: url });
        expect([avatar.statusCode, avatar.json().message]).toEqual([400, PROFILE_MESSAGES.avatarHttps]);
        const banner = await call(fans[0]!, 'PATCH', '/api/me', { bannerUrl: url });
        expect([banner.statusCode, banner.json().message]).toEqual([400, PROFILE_MESSAGES.bannerHttps]);
      }
      // Sign-in e-mails come from the identity provider: stored as it sent them, shown on the users screen.
      for (let i = 0; i < N; i++) {
        await database.sql`INSERT INTO accounts (user_id, email, oidc_issuer, oidc_subject)
          VALUES (${fans[i]!.id}, ${`fan${i}+${PAYLOADS[i]!}@ejemplo.mx`}, 'https://idp.example', ${`sub-${i}`})`;
      }

      // The catalogue and the polls through the admin API: reality, season, contestants, a poll each.
      const contestantIds: string[] = [];
      let firstSeasonId = '';
      for (let i = 0; i < N; i++) {
        // Six writes per payload: more than an admin may make in a minute, all told.
        await server.app.resetRateLimits();
        const reality = await ok(call(admin, 'POST', '/api/admin/realities', { name: PAYLOADS[i]! }));
        const season = await ok(call(admin, 'POST', '/api/admin/seasons', { realityId: reality.id, year: 2025, active: true }));
        firstSeasonId ||= season.id;
        const refused = await call(admin, 'POST', '/api/admin/contestants', {
          seasonId: season.id,
          fullName: PAYLOADS[i]!,
          photoUrl: 'javascript:window.__xss=1',
        });
        expect([refused.statusCode, refused.json().message]).toEqual([400, ADMIN_MESSAGES.photoUrlInvalid]);
        const star = await ok(call(admin, 'POST', '/api/admin/contestants', { seasonId: season.id, fullName: PAYLOADS[i]! }));
        const rival = await ok(call(admin, 'POST', '/api/admin/contestants', { seasonId: season.id, fullName: `Rival ${i}` }));
        contestantIds.push(star.id);
        const poll = await ok(
          call(admin, 'POST', '/api/admin/polls', {
            seasonId: season.id,
            title: PAYLOADS[i]!,
            description: `Descripción ${PAYLOADS[i]!}`,
            voteMode: 'single',
            optionType: 'contestants',
            status: 'active',
            options: [{ contestantId: star.id }, { contestantId: rival.id }],
          }),
        );
        contestantPolls.push(poll.id);
      }
      await server.app.resetRateLimits();
      const textPoll = await ok(
        call(adminOps, 'POST', '/api/admin/polls', {
          seasonId: firstSeasonId,
          title: 'Opciones de texto',
          description: null,
          voteMode: 'single',
          optionType: 'custom',
          status: 'active',
          options: PAYLOADS.map((text) => ({ text })),
        }),
      );
      textPollId = textPoll.id;
      const voidPoll = await ok(
        call(adminOps, 'POST', '/api/admin/polls', {
          seasonId: firstSeasonId,
          title: 'Encuesta para anular',
          voteMode: 'single',
          optionType: 'custom',
          status: 'active',
          options: [{ text: 'Sí' }, { text: 'No' }],
        }),
      );

      // Rows written before the URL rules (or by hand): a javascript: picture must never reach the page (initials instead).
      await database.sql`UPDATE profiles SET avatar_url = 'javascript:window.__xss=1', banner_url = 'javascript:alert(1)' WHERE id = ${fans[1]!.id}`;
      await database.sql`UPDATE contestants SET photo_url = 'javascript:window.__xss=1' WHERE id = ${contestantIds[2]!}`;

      // Every fan votes (their name is in the voters dialog) from one shared device (the abuse report).
      for (let i = 0; i < N; i++) {
        const fan = fans[i]!;
        const poll = await ok(call(fan, 'GET', `/api/polls/${contestantPolls[i]}`));
        const star = poll.options.find((o: { text: string }) => o.text === PAYLOADS[i]!) ?? poll.options[0];
        await ok(call(fan, 'POST', `/api/polls/${contestantPolls[i]}/votes`, { optionId: star.id, deviceFingerprint: DEVICE }));
        await ok(call(fan, 'POST', `/api/polls/${textPollId}/votes`, { optionId: textPoll.options[i].id, deviceFingerprint: DEVICE }));
        await ok(call(fan, 'POST', `/api/polls/${voidPoll.id}/votes`, { optionId: voidPoll.options[0].id, deviceFingerprint: DEVICE }));
      }
      // The admin voids each fan's vote on the third poll with a payload as the reason, and adjusts their points with one.
      const voidable = await database.sql<{ id: string; user_id: string }[]>`SELECT id::text, user_id FROM votes WHERE poll_id = ${voidPoll.id}`;
      for (let i = 0; i < N; i++) {
        const vote = voidable.find((v) => v.user_id === fans[i]!.id)!;
        await ok(call(adminOps, 'POST', '/api/admin/abuse/votes/void', { voteIds: [vote.id], reason: PAYLOADS[i]! }));
        await ok(call(adminOps, 'POST', `/api/admin/users/${fans[i]!.id}/points`, { points: 5, description: PAYLOADS[i]! }));
      }

      // Posts (with an image whose alt text is a payload) and comments on the victim's post, each mentioning the victim.
      for (let i = 0; i < N; i++) {
        const fan = fans[i]!;
        await ok(
          upload(fan, '/api/posts', [
            { name: 'content', value: `${PAYLOADS[i]!} @${VICTIM_USERNAME}` },
            { name: 'images', filename: `foto-${i}.jpg`, type: 'image/jpeg', data: await photo(i) },
            { name: 'alt', value: PAYLOADS[i]! },
          ]),
        );
        await ok(upload(fan, `/api/posts/${victimPostId}/comments`, [{ name: 'content', value: `${PAYLOADS[i]!} @${VICTIM_USERNAME}` }]));
        await ok(call(fan, 'POST', `/api/posts/${victimPostId}/reactions`, { type: 'like' }));
      }

      // The abuse report, scanned by the worker, flags the shared device.
      await ok(call(adminOps, 'POST', '/api/admin/abuse/scans'), [200, 201, 202]);
      for (let attempt = 0; ; attempt++) {
        const status = (await call(adminOps, 'GET', '/api/admin/abuse/scans/latest')).json().scan?.status;
        if (status === 'done') break;
        if (attempt > 120) throw new Error(`abuse scan not done: ${status}`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }, 180_000);

    afterAll(async () => {
      for (const context of contexts) await context.close();
      await browser?.close();
      await worker?.close();
      await server?.close();
      await database.close();
    });

    async function openPage(who: Caller | null): Promise<{ page: Page; watch: Watch }> {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      contexts.push(context);
      const watch: Watch = { dialogs: [], violations: [], console: [], errors: [] };
      if (who) await context.addCookies([{ name: 'tribuna_session', value: who.token, url: server.url }]);
      await context.exposeFunction('__reportViolation', (report: string) => watch.violations.push(report));
      await context.addInitScript(() => {
        const w = window as unknown as { __cspViolations: string[]; __reportViolation(report: string): void };
        w.__cspViolations = [];
        document.addEventListener('securitypolicyviolation', (event) => {
          const report = `${event.violatedDirective} blocked ${event.blockedURI || 'inline'} (${event.sample})`;
          w.__cspViolations.push(report);
          w.__reportViolation(report);
        });
      });
      const page = await context.newPage();
      page.on('dialog', (dialog) => {
        watch.dialogs.push(`${dialog.type()}: ${dialog.message()}`);
        void dialog.dismiss();
      });
      page.on('console', (message) => {
        if (/content[ -]security[ -]policy/i.test(message.text())) watch.console.push(message.text());
      });
      page.on('pageerror', (error) => watch.errors.push(error.message));
      return { page, watch };
    }

    /** Waits for every text in `shown` to be on the page as text, then asserts that nothing ran. */
    async function expectSafe(page: Page, watch: Watch, label: string, shown: readonly string[]): Promise<void> {
      for (const text of shown) {
        try {
          await page.waitForFunction((t) => document.body.textContent?.includes(t), text, { timeout: 15_000 });
        } catch {
          const body = await page.evaluate(() => document.body.innerText);
          throw new Error(`${label}: ${JSON.stringify(text)} is not on the page as text; it shows:\n${body.slice(0, 4000)}`);
        }
      }
      await page.waitForLoadState('networkidle');
      const state = await page.evaluate(() => {
        const w = window as unknown as { __xss?: unknown; __cspViolations: string[] };
        return {
          xss: w.__xss ?? null,
          violations: w.__cspViolations,
          // Markup a payload would have brought: inline scripts, event handlers, frames, javascript: links.
          hostile: [
            ...document.querySelectorAll(
              'script:not([src]), iframe, [onload], [onerror], a[href^="javascript" i], [src^="javascript" i], [src^="data:text" i]',
            ),
          ].map((e) => e.outerHTML.slice(0, 120)),
        };
      });
      // A javascript: picture the page did render would be blocked by the policy (counted, and refused below
      // the home test); the ones written by hand (beforeAll) are dropped before they reach the page.
      const others = (reports: string[]) => reports.filter((report) => !BLOCKED_PICTURE.test(report));
      blockedPictures += state.violations.length - others(state.violations).length;
      expect({ ...state, violations: others(state.violations) }, label).toEqual({ xss: null, violations: [], hostile: [] });
      expect({ ...watch, violations: others(watch.violations), console: others(watch.console) }, label).toEqual({
        dialogs: [],
        violations: [],
        console: [],
        errors: [],
      });
      watch.violations.length = 0;
      watch.console.length = 0;
      pagesChecked++;
    }

    /** Clicks `name` (a next-page button) until it is gone. */
    async function loadAll(page: Page, name: string | RegExp): Promise<void> {
      const more = page.getByRole('button', { name, exact: true });
      for (let pages = 0; pages < 20; pages++) {
        await page.waitForLoadState('networkidle');
        if ((await more.count()) === 0) return;
        // The wall also loads the next page by itself when the button scrolls into view (and replaces it).
        await more
          .first()
          .click({ timeout: 5_000 })
          .catch(() => undefined);
      }
    }

    if (part === 'fan')
      it('sees a payload that does reach the DOM (the checks below can fail)', async () => {
        const { page, watch } = await openPage(null);
        await page.goto(`${server.url}/terminos`, { waitUntil: 'networkidle' });
        await page.evaluate(() => {
          const div = document.createElement('div');
          div.innerHTML = '<img src=x onerror="window.__xss=1">';
          document.body.append(div);
        });
        await expect.poll(() => watch.violations.length).toBeGreaterThan(0);
        expect(watch.violations[0]).toMatch(/^script-src/);
        expect(await page.evaluate(() => document.querySelectorAll('[onerror]').length)).toBe(1);
      });

    if (part === 'fan')
      it('home: each poll (title, description, contestant names), its voters dialog, and the text options', async () => {
        const { page, watch } = await openPage(victim);
        for (let i = 0; i < N; i++) {
          await page.goto(`${server.url}/?encuesta=${contestantPolls[i]}`);
          await page.getByRole('heading', { level: 1 }).waitFor();
          await expectSafe(page, watch, `home poll ${i}`, [PAYLOADS[i]!, `Descripción ${PAYLOADS[i]!}`, `Rival ${i}`]);
          await page
            .getByRole('button', { name: /^Ver votantes/ })
            .first()
            .click();
          const dialog = page.getByRole('dialog');
          await dialog.waitFor();
          await expectSafe(page, watch, `voters of poll ${i}`, [`Votantes de ${PAYLOADS[i]!}`]);
          expect(await dialog.textContent()).toContain(PAYLOADS[i]!);
          await page.keyboard.press('Escape');
        }
        // Poll 2's contestant photo and fan 1's avatar (a voter of poll 1) are javascript: URLs written past
        // the API: they never reach the page (presentableImageUrl), so the policy has no picture to block.
        expect(blockedPictures).toBe(0);
        await page.goto(`${server.url}/?encuesta=${textPollId}`);
        await expectSafe(page, watch, 'home text poll', PAYLOADS);
        // As a visitor, too (no session: the ballot's signed-out state).
        const visitor = await openPage(null);
        await visitor.page.goto(`${server.url}/?encuesta=${contestantPolls[0]}`);
        await expectSafe(visitor.page, visitor.watch, 'home as a visitor', [PAYLOADS[0]!]);
      }, 300_000);

    if (part === 'fan')
      it('serves the share preview of every poll with its title escaped in the head', async () => {
        for (let i = 0; i < N; i++) {
          const res = await fetch(`${server.url}/?encuesta=${contestantPolls[i]}`, { headers: { accept: 'text/html' } });
          expect(res.status).toBe(200);
          const html = await res.text();
          const head = html.slice(0, html.search(/<\/head>/i));
          const escaped = PAYLOADS[i]!.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
          expect(head).toContain(`<meta property="og:title" content="${escaped}" />`);
          expect(head).toContain(`<title>${escaped} · Tribuna</title>`);
          if (/[<>"']/.test(PAYLOADS[i]!)) expect(head).not.toContain(PAYLOADS[i]!);
          expect(head.match(/<script\b/gi)?.length ?? 0).toBe((html.match(/<script\b[^>]*\bsrc=/gi) ?? []).length);
        }
      });

    if (part === 'fan')
      it('wall: posts, authors, image alt texts and the comments', async () => {
        const { page, watch } = await openPage(victim);
        await page.goto(`${server.url}/wall`);
        await page.getByRole('heading', { name: 'Muro' }).waitFor();
        await page.getByRole('article').first().waitFor();
        await loadAll(page, 'Cargar más publicaciones');
        await expectSafe(
          page,
          watch,
          'wall',
          PAYLOADS.map((p) => `${p} @${VICTIM_USERNAME}`),
        );
        const alts = await page.evaluate(() => [...document.querySelectorAll('article img[alt]')].map((img) => img.getAttribute('alt')));
        for (const payload of PAYLOADS) expect(alts).toContain(payload);
        for (const payload of PAYLOADS) expect(await page.getByRole('article', { name: `Publicación de ${payload}` }).count(), payload).toBe(1);

        const post = page.getByRole('article', { name: 'Publicación de Víctima Fiel' });
        await post.getByRole('button', { name: /comentarios?/ }).click();
        await post.getByRole('button', { name: /^Ver más comentarios/ }).click();
        await expectSafe(
          page,
          watch,
          'wall comments',
          PAYLOADS.map((p) => `${p} @${VICTIM_USERNAME}`),
        );
        for (const payload of PAYLOADS) expect(await post.getByRole('article', { name: `Comentario de ${payload}` }).count(), payload).toBeGreaterThan(0);
      }, 300_000);

    if (part === 'fan')
      it('profiles: other users’ (every tab)', async () => {
        const { page, watch } = await openPage(victim);
        for (let i = 0; i < N; i++) {
          await page.goto(`${server.url}/perfil/${fans[i]!.id}`);
          await expectSafe(page, watch, `profile ${i}`, [PAYLOADS[i]!, `Bio ${PAYLOADS[i]!}`]);
          await page.getByRole('tab', { name: 'Posts' }).click();
          await expectSafe(page, watch, `profile ${i} posts`, [`${PAYLOADS[i]!} @${VICTIM_USERNAME}`]);
          await page.getByRole('tab', { name: 'Comentarios' }).click();
          await expectSafe(page, watch, `profile ${i} comments`, [`${PAYLOADS[i]!} @${VICTIM_USERNAME}`]);
          await page.getByRole('tab', { name: 'Grupos' }).click();
          await expectSafe(page, watch, `profile ${i} groups`, [PAYLOADS[i]!]);
        }
      }, 300_000);

    if (part === 'own')
      it('profiles: one’s own (every tab, and the edit dialog)', async () => {
        for (let i = 0; i < N; i++) {
          const own = await openPage(fans[i]!);
          await own.page.goto(`${server.url}/perfil`);
          await expectSafe(own.page, own.watch, `own profile ${i}`, [PAYLOADS[i]!, `Bio ${PAYLOADS[i]!}`]);
          // The voting history: the poll titles and the contestant voted for.
          await own.page.getByRole('tab', { name: 'Votaciones' }).click();
          await expectSafe(own.page, own.watch, `own votes ${i}`, [PAYLOADS[i]!, 'Opciones de texto']);
          await own.page.getByRole('tab', { name: 'Posts' }).click();
          await expectSafe(own.page, own.watch, `own posts ${i}`, [`${PAYLOADS[i]!} @${VICTIM_USERNAME}`]);
          await own.page.getByRole('tab', { name: 'Comentarios' }).click();
          await expectSafe(own.page, own.watch, `own comments ${i}`, [`${PAYLOADS[i]!} @${VICTIM_USERNAME}`, 'La gala de esta noche']);
          await own.page.getByRole('button', { name: 'Editar Perfil' }).click();
          const dialog = own.page.getByRole('dialog');
          await dialog.waitFor();
          expect(await dialog.getByRole('textbox').first().inputValue()).toBe(PAYLOADS[i]!);
          expect(await dialog.locator('textarea').first().inputValue()).toBe(`Bio ${PAYLOADS[i]!}`);
          await expectSafe(own.page, own.watch, `own profile edit dialog ${i}`, [PAYLOADS[i]!]);
          if (i === 0) {
            // The form refuses a payload as a username, with the spec's message.
            await dialog.getByLabel('Usuario').fill(PAYLOADS[i]!);
            await dialog.getByRole('button', { name: 'Guardar Cambios' }).click();
            await dialog.getByText(PROFILE_MESSAGES.usernameChars).waitFor();
            await expectSafe(own.page, own.watch, 'username refused in the edit dialog', [PAYLOADS[i]!]);
          }
          await own.page.context().close();
        }
      }, 300_000);

    if (part === 'fan')
      it('notifications: the mentions, comments and reactions of fans named with payloads', async () => {
        const { page, watch } = await openPage(victim);
        await page.goto(`${server.url}/notificaciones`);
        // 12 comments and 12 mentions (one entry each) and the reactions (one entry): two pages of 20.
        await page.getByRole('button', { name: 'Cargar más', exact: true }).waitFor();
        await loadAll(page, 'Cargar más');
        await expectSafe(page, watch, 'notifications', PAYLOADS);
        // Then the wall, with the notifications read (the badge and the navigation bar).
        await page.goto(`${server.url}/wall`);
        await expectSafe(page, watch, 'wall after notifications', [PAYLOADS[N - 1]!]);
      }, 300_000);

    if (part === 'own')
      it('every admin screen, with its dialogs', async () => {
        await server.app.resetRateLimits();
        const { page, watch } = await openPage(admin);
        const screen = async (path: string, heading: string, shown: readonly string[]) => {
          await page.goto(`${server.url}${path}`);
          await page.getByRole('heading', { level: 2, name: heading, exact: true }).waitFor();
          await expectSafe(page, watch, path, shown);
        };
        const lastFive = PAYLOADS.slice(-5);
        await screen('/admin', 'Dashboard', ['Encuesta para anular', 'Opciones de texto', PAYLOADS[N - 1]!]);
        await screen('/admin/realitys', 'Realities', PAYLOADS);
        await screen('/admin/temporadas', 'Temporadas', PAYLOADS);
        await screen('/admin/concursantes', 'Concursantes', PAYLOADS);
        await screen('/admin/encuestas', 'Encuestas', PAYLOADS);
        // The edit form of a poll holds the payloads as values, never as markup.
        await page
          .getByRole('button', { name: `Editar: ${PAYLOADS[1]!}` })
          .first()
          .click();
        await page.getByRole('dialog').waitFor();
        const values = await page
          .getByRole('dialog')
          .locator('input, textarea')
          .evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));
        expect(values).toContain(PAYLOADS[1]!);
        expect(values).toContain(`Descripción ${PAYLOADS[1]!}`);
        await expectSafe(page, watch, 'poll edit dialog', []);
        await page.keyboard.press('Escape');
        await screen('/admin/informes', 'Informes', []);
        await screen('/admin/usuarios', 'Usuarios', lastFive);
        for (const payload of PAYLOADS) {
          await page.getByRole('searchbox').first().fill(payload.slice(0, 12));
          await expectSafe(page, watch, `users search ${payload}`, [payload]);
        }
        await screen('/admin/abuse-report', 'Detección de abuso', []);
        await page
          .getByRole('button', { name: /Ver votos del dispositivo/ })
          .first()
          .click();
        await page.getByRole('dialog').waitFor();
        await expectSafe(page, watch, 'abuse votes dialog', PAYLOADS);
        await page.keyboard.press('Escape');
        await screen('/admin/auditoria', 'Auditoría', []);
        // Each entry's before/after, opened.
        const closed = page.getByRole('button', { name: 'Ver cambios', exact: true });
        const opened = page.getByRole('button', { name: 'Ocultar cambios', exact: true });
        await closed.first().waitFor();
        for (let clicks = 0; clicks < 200 && (await closed.count()) > 0; clicks++) {
          const before = await opened.count();
          await closed.first().click();
          await expect.poll(() => opened.count()).toBeGreaterThan(before);
        }
        expect(await closed.count()).toBe(0);
        await expectSafe(page, watch, 'audit log', lastFive);
        await screen('/admin/colas', 'Colas', []);
      }, 300_000);

    if (part === 'fan')
      it('keeps every search and filter parameter out of the SQL: 200 or 400, never 500, and nothing changes', async () => {
        await server.app.resetRateLimits();
        const injections = [
          "'; DROP TABLE votes; --",
          "' OR '1'='1",
          "1' OR 1=1 --",
          "admin'--",
          '%',
          '_',
          '\\',
          "' UNION SELECT email, NULL FROM accounts --",
          '1; SELECT pg_sleep(5)',
          '$1',
          '"',
          "%' AND 1=(SELECT count(*) FROM pg_tables) --",
          '<script>alert(1)</script>',
          '\u0000',
          "2026-01-01' OR '1'='1",
          '../../etc/passwd',
        ];
        const snapshot = () =>
          database.sql<{ tables: number; votes: number; profiles: number; posts: number; audit: number }[]>`
          SELECT (SELECT count(*)::int FROM pg_tables WHERE schemaname = 'public') AS tables,
                 (SELECT count(*)::int FROM votes) AS votes, (SELECT count(*)::int FROM profiles) AS profiles,
                 (SELECT count(*)::int FROM posts) AS posts, (SELECT count(*)::int FROM admin_audit_log) AS audit`;
        const [before] = await snapshot();
        const q = (value: string) => encodeURIComponent(value);
        const urls = (searcher: Caller, reader: Caller, value: string): [Caller, string][] => [
          [searcher, `/api/admin/users?q=${q(value)}`],
          [searcher, `/api/admin/users?q=${q(value)}&role=${q(value)}&status=${q(value)}&page=${q(value)}`],
          [searcher, `/api/admin/audit?action=${q(value)}`],
          [searcher, `/api/admin/audit?adminId=${q(value)}&from=${q(value)}&to=${q(value)}&cursor=${q(value)}`],
          [searcher, `/api/admin/reports?period=custom&from=${q(value)}&to=${q(value)}`],
          [searcher, `/api/admin/reports?period=${q(value)}`],
          [searcher, `/api/admin/abuse/votes?fingerprint=${q(value)}`],
          [searcher, `/api/admin/contestants?seasonId=${q(value)}`],
          [searcher, `/api/admin/polls?seasonId=${q(value)}`],
          [searcher, `/api/admin/seasons?realityId=${q(value)}`],
          [reader, `/api/posts?sort=${q(value)}`],
          [reader, `/api/posts?cursor=${q(value)}&userId=${q(value)}&groupId=${q(value)}&visibility=${q(value)}`],
          [reader, `/api/notifications?cursor=${q(value)}`],
          [reader, `/api/profiles/${fans[0]!.id}/comments?cursor=${q(value)}`],
          [reader, `/api/polls/home?encuesta=${q(value)}`],
          [reader, `/?encuesta=${q(value)}`],
        ];
        const statuses = new Map<number, number>();
        let requests = 0;
        for (const [n, value] of injections.entries()) {
          const searcher = await caller({ role: 'admin', displayName: `Admin Buscador ${n}` });
          const reader = await caller({ displayName: `Lectora de filtros ${n}` });
          for (const [who, url] of urls(searcher, reader, value)) {
            const res = await call(who, 'GET', url);
            requests++;
            statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
            expect([200, 400], `${url} → ${res.statusCode} ${res.body.slice(0, 200)}`).toContain(res.statusCode);
            if (res.statusCode === 200 && url.startsWith('/api/admin/users?q=') && !url.includes('&')) {
              // A search finds the users whose name, username or e-mail contains the text as typed, no more.
              const [expected] = await database.sql<{ n: number }[]>`
              SELECT count(*)::int AS n FROM profiles p LEFT JOIN accounts a ON a.user_id = p.id
              WHERE strpos(lower(concat_ws(E'\n', p.display_name, p.username, a.email)), lower(${value.trim()})) > 0`;
              expect(res.json().total, url).toBe(expected!.n);
            }
          }
        }
        expect(requests).toBe(injections.length * urls(admin, victim, '').length);
        expect((await snapshot())[0]).toEqual({ ...before, profiles: before!.profiles + 2 * injections.length });
      }, 120_000);

    afterAll(() => {
      console.info(`xss (${part}): ${N} payloads; ${pagesChecked} page states checked in Chromium`);
    });
  });
}
