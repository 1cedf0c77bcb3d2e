// Video posts (issue 30) in two real browsers at a phone's size (390×844), in both themes: a fan
// posts a clip generated with FFmpeg's testsrc from the composer, sees 'Procesando video…' at
// once, and once the real worker has transcoded it, the post with a playable H.264 clip takes the
// card's place; another fan, who keeps the wall open, is told of the new post live and plays it
// there (poster first, nothing of the video fetched before play). Every screen is scanned by
// axe-core: no serious or critical violation.
// VIDEO_SCREENSHOTS=<folder> saves a screenshot of each step, for a look by hand.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pino from 'pino';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WALL_MESSAGES } from '@tribuna/contracts/wallRules';
import { startWorker, type WorkerApp } from '../../worker/src/app.ts';
import { axeViolations, seriousOrCritical } from '../support/axe.ts';
import { launchChromium, themedContext } from '../support/browser.ts';
import { testDatabase, truncateAll } from '../support/db.ts';
import { testConfig } from '../support/env.ts';
import { buildPost, buildUser } from '../support/factories.ts';
import { signIn } from '../support/server/sessions.ts';
import { startServer, type RunningServer } from '../support/liveServer.ts';

const SCREENSHOTS = process.env.VIDEO_SCREENSHOTS;
const PHONE = { width: 390, height: 844 };
const THEMES = ['light', 'dark'] as const;
const run = promisify(execFile);

describe('video posts: composer, worker, and another fan’s wall, phone size, both themes', () => {
  const database = testDatabase();
  const mediaDir = mkdtempSync(path.join(tmpdir(), 'tribuna-e2e-video-media-'));
  const clipDir = mkdtempSync(path.join(tmpdir(), 'tribuna-e2e-video-clip-'));
  const clip = path.join(clipDir, 'gala.mp4');
  let server: RunningServer;
  let browser: Browser;
  let worker: WorkerApp | undefined;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    await truncateAll(database);
    // Three seconds of FFmpeg's test pattern and a tone, MPEG-4 Part 2 (the worker makes it H.264).
    const ffmpeg = (createRequire(import.meta.url)('@ffmpeg-installer/ffmpeg') as { path: string }).path;
    await run(ffmpeg, [
      ...['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=duration=3:size=640x360:rate=25'],
      ...['-f', 'lavfi', '-i', 'sine=frequency=440:duration=3', '-c:v', 'mpeg4', '-c:a', 'aac', '-shortest', clip],
    ]);
    const veteran = await buildUser(database.db, { displayName: 'Fan Veterana' });
    await buildPost(database.db, veteran.id, { content: 'La gala de anoche estuvo intensa' });
    server = await startServer({ MEDIA_DIR: mediaDir });
    browser = await launchChromium();
  });

  afterEach(async () => {
    await worker?.close();
    worker = undefined;
  });

  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await worker?.close();
    await server?.close();
    await database.close();
    rmSync(mediaDir, { recursive: true, force: true });
    rmSync(clipDir, { recursive: true, force: true });
  });

  async function wallOf(displayName: string, theme: string): Promise<Page> {
    const user = await buildUser(database.db, { displayName });
    const { token } = await signIn(server.app as never, user);
    const context = await themedContext(browser, { viewport: PHONE, theme, session: { token, url: server.url } });
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await page.goto(`${server.url}/wall`);
    await page.getByText('La gala de anoche estuvo intensa').waitFor();
    return page;
  }

  /** axe's serious and critical violations on the page as it is now, and a screenshot when asked. */
  async function check(page: Page, step: string, theme: string): Promise<string[]> {
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(theme === 'dark');
    if (SCREENSHOTS) await page.screenshot({ path: path.join(SCREENSHOTS, `video-${step}-${theme}.png`), fullPage: true });
    return seriousOrCritical(await axeViolations(page)).map(
      (v) =>
        `${step} (${theme}): ${v.impact} ${v.id} — ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join(', ')}`,
    );
  }

  for (const theme of THEMES) {
    it(`${theme}: a clip is 'Procesando video…' for its author, then a playable post on another fan’s wall, live`, { timeout: 180_000 }, async () => {
      const failures: string[] = [];
      const authorName = theme === 'light' ? 'Autora Clara' : 'Autora Nocturna';
      const reader = await wallOf(`Lectora ${theme}`, theme);
      const author = await wallOf(authorName, theme);
      const videoRequests: string[] = [];
      reader.on('request', (request) => {
        if (request.url().endsWith('.mp4')) videoRequests.push(request.url());
      });
      const content = `¡Miren este momento de la gala! (${theme})`;

      // The author picks a clip: a muted preview, an alt text, and a progress bar while it uploads.
      await author.getByRole('textbox', { name: '¿Qué está pasando?' }).fill(content);
      await author.getByTestId('post-video').setInputFiles(clip);
      const preview = author.getByTestId('video-preview');
      await preview.waitFor();
      // The page may read its own blob: URL (CSP media-src): the preview has the clip's header.
      await expect.poll(() => preview.evaluate((v: HTMLVideoElement) => v.readyState)).toBeGreaterThanOrEqual(1);
      expect(await preview.evaluate((v: HTMLVideoElement) => ({ muted: v.muted, paused: v.paused, duration: Math.round(v.duration) }))).toEqual({
        muted: true,
        paused: true,
        duration: 3,
      });
      await author.getByRole('textbox', { name: 'Texto alternativo (opcional) del video' }).fill('Patrón de prueba en colores');
      failures.push(...(await check(author, 'composer', theme)));
      await author.getByRole('button', { name: 'Publicar' }).click();

      // No worker runs yet: the clip waits, and its author sees it being processed.
      const card = author.getByRole('article', { name: 'Tu video en proceso' });
      await card.getByRole('status').filter({ hasText: WALL_MESSAGES.videoProcessing }).waitFor();
      await card.getByText(content).waitFor();
      expect(await author.getByRole('textbox', { name: '¿Qué está pasando?' }).inputValue()).toBe('');
      failures.push(...(await check(author, 'processing', theme)));
      // A reload keeps it (GET /api/me/video-uploads); the other fan sees nothing of it.
      await author.reload();
      await author.getByRole('article', { name: 'Tu video en proceso' }).getByText(content).waitFor();
      expect(await reader.getByText(WALL_MESSAGES.videoProcessing).count()).toBe(0);

      // The real worker transcodes it; the post takes the card's place, live.
      // FFmpeg at normal priority: the test run keeps the cores busy, and an idle-class FFmpeg would wait for a free one.
      worker = await startWorker({
        config: testConfig({ MEDIA_DIR: mediaDir, TRANSCODE_NICENESS: '0' }),
        db: database.db,
        logger: pino({ level: 'silent' }),
        schedules: false,
      });
      const mine = author.getByRole('article', { name: `Publicación de ${authorName}` });
      await mine.getByText(content).waitFor({ timeout: 90_000 });
      await mine.locator('video').waitFor();
      expect(await author.getByRole('article', { name: 'Tu video en proceso' }).count()).toBe(0);

      // The other fan is told, and the post comes in when they ask for it.
      const notice = reader.getByRole('button', { name: '1 publicación nueva' });
      await notice.waitFor({ timeout: 30_000 });
      await notice.click();
      const post = reader.getByRole('article', { name: `Publicación de ${authorName}` });
      await post.getByText(content).waitFor();
      const video = post.getByLabel('Patrón de prueba en colores');
      await video.waitFor();
      const attributes = await video.evaluate((v: HTMLVideoElement) => ({
        tag: v.tagName,
        preload: v.getAttribute('preload'),
        autoplay: v.autoplay,
        muted: v.muted,
        controls: v.controls,
        src: v.getAttribute('src'),
        poster: v.getAttribute('poster'),
      }));
      expect(attributes).toMatchObject({ tag: 'VIDEO', preload: 'none', autoplay: false, muted: false, controls: true });
      expect(attributes.src).toMatch(/^\/media\/.+\.mp4$/);
      expect(attributes.poster).toMatch(/^\/media\/.+\.webp$/);
      await post.getByText('0:03').waitFor();
      const poster = await reader.request.get(`${server.url}${attributes.poster}`);
      expect(poster.status()).toBe(200);
      expect(poster.headers()['content-type']).toBe('image/webp');
      // Until it is played, the feed has fetched nothing of the clip itself.
      await reader.waitForLoadState('networkidle');
      expect(videoRequests).toEqual([]);
      failures.push(...(await check(reader, 'wall', theme)));

      // Full screen on the video itself, and back.
      await post.getByRole('button', { name: 'Ver video en pantalla completa' }).click();
      await expect.poll(() => reader.evaluate(() => document.fullscreenElement?.tagName ?? null)).toBe('VIDEO');
      await reader.evaluate(() => document.exitFullscreen());
      await expect.poll(() => reader.evaluate(() => document.fullscreenElement)).toBeNull();

      // It plays: H.264/AAC the browser decodes, three seconds long.
      await video.evaluate((v: HTMLVideoElement) => {
        v.muted = true; // headless Chromium lets a script start only a muted video
        return v.play();
      });
      await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 15_000 }).toBeGreaterThan(0);
      expect(await video.evaluate((v: HTMLVideoElement) => Math.round(v.duration))).toBe(3);
      expect(await video.evaluate((v: HTMLVideoElement) => [v.videoWidth, v.videoHeight])).toEqual([640, 360]);
      expect(videoRequests.length).toBeGreaterThan(0);

      // What was stored: no clip waiting, one video post with its media.
      const [rows] = await database.sql<{ waiting: number; videos: number }[]>`
        SELECT (SELECT count(*)::int FROM video_uploads) AS waiting,
               (SELECT count(*)::int FROM post_media pm JOIN posts p ON p.id = pm.post_id WHERE pm.media_type = 'video' AND p.content = ${content}) AS videos`;
      expect(rows).toEqual({ waiting: 0, videos: 1 });
      expect(failures).toEqual([]);
    });
  }
});
