import { mkdtemp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { WALL_LIMITS, WALL_MESSAGES } from '@tribuna/contracts/wallRules';
import type { App } from '../app.ts';
import { useListeningTestApp } from '../../../test/support/server/harness.ts';
import { UPLOAD_MESSAGES, withUploads, type UploadSpec } from './uploads.ts';

const SPEC: UploadSpec = {
  fileFields: ['images'],
  textFields: ['content', 'alt'],
  maxFiles: WALL_LIMITS.postImages,
  maxFileBytes: WALL_LIMITS.postImageBytes,
  tooManyFilesMessage: WALL_MESSAGES.tooManyFiles,
  fileTooLargeMessage: WALL_MESSAGES.postImageTooLarge,
};

/** Throwaway routes behind the real hooks: what readUploads read, and the whole pipeline. */
const uploadRoutes: FastifyPluginAsync = async (app) => {
  // Not rate limited: test routes.
  app.post('/api/test/uploads', { schema: { hide: true }, config: { rateLimit: false } }, async (request) =>
    withUploads(request, SPEC, async ({ fields, files }) => ({
      fields,
      // What is in each temporary file is what was sent.
      files: await Promise.all(files.map(async ({ path, ...file }) => ({ ...file, sameBytes: (await readFile(path)).length === file.bytes }))),
    })),
  );
  app.post('/api/test/images', { schema: { hide: true }, config: { rateLimit: false } }, async (request) =>
    withUploads(request, SPEC, async ({ files }) => {
      const stored = [];
      for (const file of files) stored.push(await app.media.ingest(file));
      return stored;
    }),
  );
};

type Part = { name: string; value: string } | { name: string; filename: string; type?: string; data: Buffer };

/** A multipart/form-data body of `parts`. */
function multipart(parts: Part[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = '----tribuna-test-boundary';
  const chunks: Buffer[] = [];
  for (const part of parts) {
    if ('value' in part) {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`));
    } else {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\nContent-Type: ${part.type ?? 'application/octet-stream'}\r\n\r\n`,
        ),
        part.data,
        Buffer.from('\r\n'),
      );
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'x-requested-with': 'fetch' } };
}

const png = (background = 'red') =>
  sharp({ create: { width: 16, height: 16, channels: 3, background } })
    .png()
    .toBuffer();

describe('readUploads and the media routes', () => {
  let app: App;
  let baseUrl: string;
  let root: string;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'tribuna-uploads-'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });
  useListeningTestApp(
    () => ({ MEDIA_DIR: root }),
    (ready) => ({ app, baseUrl } = ready),
    { build: () => ({ extraRoutes: uploadRoutes }) },
  );

  const post = (url: string, parts: Part[]) => app.inject({ method: 'POST', url, ...multipart(parts) });

  it('reads text fields (repeated ones in order) and files, with their declared types', async () => {
    const image = await png();
    const res = await post('/api/test/uploads', [
      { name: 'content', value: 'Hola ñandú' },
      { name: 'alt', value: 'uno' },
      { name: 'images', filename: 'a.png', type: 'image/png', data: image },
      { name: 'alt', value: 'dos' },
      { name: 'images', filename: 'b.jpg', type: 'image/jpeg', data: Buffer.from('abc') },
      // An HTML form's file input left empty.
      { name: 'images', filename: '', data: Buffer.alloc(0) },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      fields: { content: ['Hola ñandú'], alt: ['uno', 'dos'] },
      files: [
        { field: 'images', filename: 'a.png', declaredType: 'image/png', bytes: image.length, sameBytes: true },
        { field: 'images', filename: 'b.jpg', declaredType: 'image/jpeg', bytes: 3, sameBytes: true },
      ],
    });
  });

  it('accepts a file of exactly the limit and refuses 12 MB with 413 and the message', async () => {
    const exact = await post('/api/test/uploads', [{ name: 'images', filename: 'a.png', data: Buffer.alloc(WALL_LIMITS.postImageBytes) }]);
    expect(exact.statusCode, exact.body).toBe(200);
    const res = await post('/api/test/uploads', [{ name: 'images', filename: 'big.jpg', type: 'image/jpeg', data: Buffer.alloc(12 * 1024 * 1024) }]);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ statusCode: 413, error: 'Payload Too Large', message: WALL_MESSAGES.postImageTooLarge });
  });

  it('answers a real client still sending (413, or 400 before the file), and the next request is served', async () => {
    const form = new FormData();
    form.append('images', new Blob([new Uint8Array(12 * 1024 * 1024)], { type: 'image/jpeg' }), 'big.jpg');
    const res = await fetch(`${baseUrl}/api/test/uploads`, { method: 'POST', body: form, headers: { 'x-requested-with': 'fetch' } });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ message: WALL_MESSAGES.postImageTooLarge });
    // Refused on a field before the file: the rest of the body is drained, not left hanging.
    const early = new FormData();
    early.append('role', 'admin');
    early.append('images', new Blob([new Uint8Array(8 * 1024 * 1024)], { type: 'image/jpeg' }), 'big.jpg');
    const refused = await fetch(`${baseUrl}/api/test/uploads`, { method: 'POST', body: early, headers: { 'x-requested-with': 'fetch' } });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ message: UPLOAD_MESSAGES.unknownField });
    const next = await fetch(`${baseUrl}/api/health`);
    expect(next.status).toBe(200);
  });

  it('streams files to temporary files and removes them, and gives their bytes back, whether accepted or refused', async () => {
    const image = await png();
    const sent: Array<[string, Part[], number]> = [
      ['/api/test/uploads', [{ name: 'images', filename: 'a.png', type: 'image/png', data: image }], 200],
      ['/api/test/images', [{ name: 'images', filename: 'a.png', type: 'image/png', data: image }], 200],
      ['/api/test/uploads', [{ name: 'images', filename: 'big.jpg', data: Buffer.alloc(WALL_LIMITS.postImageBytes + 1) }], 413],
      // Refused after the file was written: by a field, then by the pipeline.
      [
        '/api/test/uploads',
        [
          { name: 'images', filename: 'a.png', data: image },
          { name: 'role', value: 'admin' },
        ],
        400,
      ],
      ['/api/test/images', [{ name: 'images', filename: 'a.gif', type: 'image/gif', data: image }], 400],
    ];
    for (const [url, parts, status] of sent) {
      const res = await post(url, parts);
      expect(res.statusCode, res.body).toBe(status);
      expect(await readdir(app.uploads.dir)).toEqual([]);
      expect(app.uploads.budget.inFlight).toBe(0);
    }
  });

  it('refuses an eleventh file with 400 and the message', async () => {
    const image = await png();
    const parts = Array.from({ length: 11 }, (_, i) => ({ name: 'images', filename: `${i}.png`, type: 'image/png', data: image }));
    const res = await post('/api/test/uploads', parts);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: WALL_MESSAGES.tooManyFiles });
    expect((await post('/api/test/uploads', parts.slice(0, 10))).statusCode).toBe(200);
  });

  it.each([
    ['a file in another field', [{ name: 'avatar', filename: 'a.png', data: Buffer.from('x') }], UPLOAD_MESSAGES.unknownFileField],
    ['an unknown text field', [{ name: 'role', value: 'admin' }], UPLOAD_MESSAGES.unknownField],
    ['a text field over 8 KB', [{ name: 'content', value: 'a'.repeat(8 * 1024 + 1) }], UPLOAD_MESSAGES.fieldTooLong],
    ['a file field sent as text', [{ name: 'images', value: 'not a file' }], UPLOAD_MESSAGES.unknownField],
    ['too many text fields', Array.from({ length: 40 }, () => ({ name: 'alt', value: 'x' })), UPLOAD_MESSAGES.tooManyFields],
  ] as Array<[string, Part[], string]>)('refuses %s with 400', async (_what, parts, message) => {
    const res = await post('/api/test/uploads', parts);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ statusCode: 400, message });
  });

  it('refuses a body that is not multipart, or multipart without a boundary or cut short', async () => {
    const json = await app.inject({ method: 'POST', url: '/api/test/uploads', headers: { 'x-requested-with': 'fetch' }, payload: { content: 'hola' } });
    expect(json.statusCode).toBe(415);
    expect(json.json()).toMatchObject({ message: UPLOAD_MESSAGES.notMultipart });

    const noBoundary = await app.inject({
      method: 'POST',
      url: '/api/test/uploads',
      headers: { 'x-requested-with': 'fetch', 'content-type': 'multipart/form-data' },
      payload: 'whatever',
    });
    expect(noBoundary.statusCode).toBe(400);
    expect(noBoundary.json()).toMatchObject({ message: UPLOAD_MESSAGES.malformed });

    const { payload, headers } = multipart([{ name: 'images', filename: 'a.png', data: await png() }]);
    const cut = await app.inject({ method: 'POST', url: '/api/test/uploads', headers, payload: payload.subarray(0, payload.length - 60) });
    expect(cut.statusCode).toBe(400);
  });

  it('still refuses a multipart mutation without X-Requested-With (CSRF)', async () => {
    const { payload, headers } = multipart([{ name: 'content', value: 'hola' }]);
    const res = await app.inject({ method: 'POST', url: '/api/test/uploads', headers: { 'content-type': headers['content-type']! }, payload });
    expect(res.statusCode).toBe(403);
  });

  it('stores uploads through the pipeline and serves them as immutable, sandboxed, inline images', async () => {
    const res = await post('/api/test/images', [{ name: 'images', filename: 'a.png', type: 'image/png', data: await png('blue') }]);
    expect(res.statusCode, res.body).toBe(200);
    const [stored] = res.json<Array<{ url: string; thumbnailUrl: string }>>();
    for (const url of [stored!.url, stored!.thumbnailUrl]) {
      const image = await app.inject({ method: 'GET', url });
      expect(image.statusCode).toBe(200);
      expect(image.headers).toMatchObject({
        'content-type': 'image/webp',
        'cache-control': 'public, max-age=31536000, immutable',
        'x-content-type-options': 'nosniff',
        'content-security-policy': "default-src 'none'; sandbox",
        'content-disposition': 'inline',
        'cross-origin-resource-policy': 'cross-origin',
      });
      expect((await sharp(image.rawPayload).metadata()).format).toBe('webp');
    }
  });

  it('refuses a PNG declared as a GIF, and an executable named .jpg, through the pipeline', async () => {
    const lie = await post('/api/test/images', [{ name: 'images', filename: 'a.gif', type: 'image/gif', data: await png() }]);
    expect(lie.statusCode).toBe(400);
    expect(lie.json()).toMatchObject({ message: WALL_MESSAGES.typeMismatch });
    const exe = await post('/api/test/images', [
      { name: 'images', filename: 'a.jpg', type: 'image/jpeg', data: Buffer.concat([Buffer.from('MZ'), Buffer.alloc(100)]) },
    ]);
    expect(exe.statusCode).toBe(400);
    expect(exe.json()).toMatchObject({ message: WALL_MESSAGES.imagesOnly });
  });

  it('serves only WebP and AVIF from the media directory', async () => {
    await mkdir(join(root, 'ab', 'cd'), { recursive: true });
    await writeFile(join(root, 'page.html'), '<script>alert(1)</script>');
    await writeFile(join(root, 'ab', 'cd', 'x.svg'), '<svg/>');
    await writeFile(join(root, 'ab', 'cd', 'x.webp.0123456789abcdef.tmp'), 'half');
    await writeFile(join(root, 'photo.avif'), 'avif');
    for (const url of ['/media/page.html', '/media/ab/cd/x.svg', '/media/ab/cd/x.webp.0123456789abcdef.tmp', '/media/..%2f..%2fpackage.json']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
    }
    const avif = await app.inject({ method: 'GET', url: '/media/photo.avif' });
    expect(avif.statusCode).toBe(200);
    expect(avif.headers['content-type']).toBe('image/avif');
  });
});
