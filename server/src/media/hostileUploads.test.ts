// Hostile files through every upload route: an HTML page, an SVG with a script, and JPEG/HTML
// polyglots. Each is refused with the route's message, or re-encoded to WebP with nothing of the
// HTML left; whatever is under /media/ is served as an image that no browser sniffs or runs.
import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { PROFILE_MESSAGES } from '@tribuna/contracts/profileRules';
import { WALL_MESSAGES } from '@tribuna/contracts/wallRules';
import type { Database } from '@tribuna/drizzle/client';
import { buildPost, buildUser } from '../../../test/support/factories.ts';
import type { App } from '../app.ts';
import { useTestApp } from '../../../test/support/server/harness.ts';
import { multipart, type MultipartPart } from '../../../test/support/server/multipart.ts';
import { asUser, signIn } from '../../../test/support/server/sessions.ts';

let app: App;
let database: Database;
useTestApp({}, (ready) => ({ app, database } = ready));

const HTML = '<!doctype html><html><body><script>alert(document.domain)</script><img src=x onerror=alert(1)></body></html>';
const SVG =
  '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(document.domain)</script><rect width="10" height="10"/></svg>';
/** The first bytes of a JFIF JPEG (SOI, APP0) and then a web page: a sniffer's "image", a browser's page. */
const JPEG_HEADER = Buffer.from('ffd8ffe000104a46494600010100000100010000', 'hex');

const realJpeg = (red = 40) =>
  sharp({ create: { width: 64, height: 64, channels: 3, background: { r: red, g: 128, b: 185 } } })
    .jpeg()
    .toBuffer();

interface HostileFile {
  name: string;
  filename: string;
  type: string;
  data: () => Promise<Buffer>;
  /** A decodable image with HTML after its end: may be accepted, but only re-encoded. */
  decodable?: boolean;
}

const FILES: HostileFile[] = [
  { name: 'an HTML page', filename: 'pagina.html', type: 'text/html', data: async () => Buffer.from(HTML) },
  { name: 'an HTML page named and declared as a JPEG', filename: 'foto.jpg', type: 'image/jpeg', data: async () => Buffer.from(HTML) },
  { name: 'an SVG with a script', filename: 'logo.svg', type: 'image/svg+xml', data: async () => Buffer.from(SVG) },
  { name: 'an SVG with a script declared as a PNG', filename: 'logo.png', type: 'image/png', data: async () => Buffer.from(SVG) },
  { name: 'a JPEG header followed by HTML', filename: 'poliglota.jpg', type: 'image/jpeg', data: async () => Buffer.concat([JPEG_HEADER, Buffer.from(HTML)]) },
  {
    name: 'a whole JPEG followed by HTML',
    filename: 'poliglota2.jpg',
    type: 'image/jpeg',
    data: async () => Buffer.concat([await realJpeg(), Buffer.from(HTML)]),
    decodable: true,
  },
];

interface UploadRoute {
  name: string;
  /** Sends `file` as the route expects it, as a new user allowed to use the route. */
  send(file: MultipartPart & { filename: string }): Promise<{ statusCode: number; json(): any }>;
  /** Where the stored image's URLs are in a 2xx answer. */
  urls(body: any): string[];
  refusals: string[];
}

async function post(role: 'user' | 'admin', url: (userId: string) => Promise<string>, parts: MultipartPart[]) {
  const user = await buildUser(database.db, { role });
  const body = multipart(parts);
  return app.inject({ method: 'POST', url: await url(user.id), headers: { ...asUser(await signIn(app, user)), ...body.headers }, payload: body.payload });
}

const imageRefusals = [WALL_MESSAGES.imagesOnly, WALL_MESSAGES.typeMismatch, WALL_MESSAGES.imageUnreadable];

const ROUTES: UploadRoute[] = [
  {
    name: 'a wall post',
    send: (file) =>
      post('user', async () => '/api/posts', [
        { name: 'content', value: 'Mi foto' },
        { ...file, name: 'images' },
      ]),
    urls: (body) => body.media.flatMap((m: { url: string; thumbnailUrl: string | null }) => [m.url, m.thumbnailUrl].filter(Boolean)),
    refusals: imageRefusals,
  },
  {
    name: 'a comment',
    send: (file) =>
      post('user', async (userId) => `/api/posts/${(await buildPost(database.db, userId)).id}/comments`, [
        { name: 'content', value: 'Mi foto' },
        { ...file, name: 'image' },
      ]),
    urls: (body) => [body.comment.media?.url, body.comment.media?.thumbnailUrl].filter(Boolean),
    refusals: imageRefusals,
  },
  ...(['avatar', 'banner'] as const).map((kind): UploadRoute => ({
    name: `a profile ${kind}`,
    send: (file) => post('user', async () => `/api/me/${kind}`, [{ ...file, name: 'image' }]),
    urls: (body) => [body.url, body.thumbnailUrl],
    refusals: [PROFILE_MESSAGES.imageTypeApi, WALL_MESSAGES.imageUnreadable],
  })),
  {
    name: 'a contestant photo',
    send: (file) => post('admin', async () => '/api/admin/contestant-photos', [{ ...file, name: 'image' }]),
    urls: (body) => [body.url, body.thumbnailUrl],
    refusals: imageRefusals,
  },
];

/** Fetches a /media/ URL and checks it is served as a WebP image no browser would treat as a page. */
async function expectServedAsImage(url: string): Promise<void> {
  expect(url).toMatch(/^\/media\/.+\.webp$/);
  const res = await app.inject({ method: 'GET', url });
  expect(res.statusCode, url).toBe(200);
  expect(res.headers['content-type']).toBe('image/webp');
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(String(res.headers['content-security-policy'])).toMatch(/sandbox/);
  expect((await sharp(res.rawPayload).metadata()).format).toBe('webp');
  const bytes = res.rawPayload.toString('latin1').toLowerCase();
  for (const marker of ['<script', '<html', 'onerror', 'alert(']) expect(bytes, `${url} carries ${marker}`).not.toContain(marker);
}

describe('hostile files through every upload route', () => {
  for (const route of ROUTES) {
    it.each(FILES)(`${route.name}: $name is refused or re-encoded`, async (file) => {
      const res = await route.send({ name: 'image', filename: file.filename, type: file.type, data: await file.data() });
      if (file.decodable && res.statusCode < 300) {
        // Only the image was decoded; what is stored and served is a fresh WebP.
        const urls = route.urls(res.json());
        expect(urls.length).toBeGreaterThan(0);
        for (const url of urls) await expectServedAsImage(url);
        return;
      }
      expect(res.statusCode, JSON.stringify(res.json())).toBe(400);
      expect(route.refusals).toContain(res.json().message);
      expect(await database.sql`SELECT key FROM media`).toEqual([]);
    });
  }

  it('serves nothing under /media/ but WebP/AVIF images, each with nosniff and a sandbox', async () => {
    const urls = new Set<string>();
    for (const [n, route] of ROUTES.entries()) {
      const res = await route.send({ name: 'image', filename: 'real.jpg', type: 'image/jpeg', data: await realJpeg(40 * n) });
      expect(res.statusCode, route.name).toBeLessThan(300);
      for (const url of route.urls(res.json())) urls.add(url);
    }
    for (const { key } of await database.sql<{ key: string }[]>`SELECT key FROM media`) urls.add(`/media/${key}`);
    expect(urls.size).toBeGreaterThanOrEqual(ROUTES.length);
    for (const url of urls) await expectServedAsImage(url);
    const keys = [...urls].map((url) => ({ key: url.slice('/media/'.length) }));
    // What is not an image the pipeline wrote is not there for clients, whatever its name.
    for (const url of ['/media/x.html', '/media/x.svg', '/media/x.jpg', `/media/${keys[0]!.key.replace(/\.webp$/, '.html')}`]) {
      expect((await app.inject({ method: 'GET', url })).statusCode, url).toBe(404);
    }
  });
});
