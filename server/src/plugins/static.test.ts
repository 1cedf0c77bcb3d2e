import { mkdtemp, mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../../test/support/env.ts';
import { buildApp, type App } from '../app.ts';

const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

describe('web app serving with a built web/dist', () => {
  let app: App;
  let dist: string;
  let media: string;

  beforeAll(async () => {
    const root = await mkdtemp(join(tmpdir(), 'tribuna-static-'));
    dist = join(root, 'dist');
    media = join(root, 'media', 'nested');
    await mkdir(join(dist, 'assets'), { recursive: true });
    await writeFile(join(dist, 'index.html'), '<!doctype html><title>Tribuna SPA</title><div id="root"></div>');
    await writeFile(join(dist, 'sw.js'), 'self.addEventListener("fetch", () => {});');
    await writeFile(join(dist, 'manifest.webmanifest'), '{}');
    await writeFile(join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');
    // What the build writes beside an asset (web/vite.config.ts precompress).
    await writeFile(join(dist, 'assets', 'home-def456.js'), 'console.log("home")');
    await writeFile(join(dist, 'assets', 'home-def456.js.br'), brotliCompressSync('console.log("home")'));
    await writeFile(join(dist, 'assets', 'home-def456.js.gz'), gzipSync('console.log("home")'));
    await writeFile(join(dist, 'icon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    app = await buildApp(testConfig({ MEDIA_DIR: media }), { webDistDir: dist });
  });

  afterAll(async () => {
    await app.close();
    await rm(join(dist, '..'), { recursive: true, force: true });
  });

  it('serves index.html at / without caching', async () => {
    const res = await app.inject({ method: 'GET', url: '/', headers: HTML });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toContain('Tribuna SPA');
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it.each(['/terminos', '/perfil/123e4567-e89b-42d3-a456-426614174000', '/auth/callback', '/no/such/page'])(
    'answers the web route %s with index.html',
    async (url) => {
      const res = await app.inject({ method: 'GET', url, headers: HTML });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.body).toContain('Tribuna SPA');
      expect(res.headers['cache-control']).toBe('no-cache');
    },
  );

  it('sends the precompressed brotli or gzip file of an asset to a browser that accepts it, immutable', async () => {
    const br = await app.inject({ method: 'GET', url: '/assets/home-def456.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.rawPayload.equals(brotliCompressSync('console.log("home")'))).toBe(true);
    // A script is never a page: the compact security headers, not the page's kilobyte of CSP.
    expect(br.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(br.headers['x-content-type-options']).toBe('nosniff');
    const page = await app.inject({ method: 'GET', url: '/', headers: HTML });
    expect(page.headers['content-security-policy']).toMatch(/script-src 'self'/);
    const gz = await app.inject({ method: 'GET', url: '/assets/home-def456.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    const plain = await app.inject({ method: 'GET', url: '/assets/home-def456.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe('console.log("home")');
  });

  it('answers a route without an Accept header (curl, crawlers) with index.html too', async () => {
    const res = await app.inject({ method: 'GET', url: '/privacidad' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Tribuna SPA');
  });

  it('serves the service worker and manifest with no-cache, hashed assets as immutable', async () => {
    const sw = await app.inject({ method: 'GET', url: '/sw.js' });
    expect(sw.statusCode).toBe(200);
    expect(sw.headers['cache-control']).toBe('no-cache');
    expect(sw.headers['content-type']).toMatch(/javascript/);

    const manifest = await app.inject({ method: 'GET', url: '/manifest.webmanifest' });
    expect(manifest.headers['cache-control']).toBe('no-cache');

    const asset = await app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');

    const icon = await app.inject({ method: 'GET', url: '/icon.svg' });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['cache-control']).toBe('public, max-age=3600');
  });

  it('answers missing files with 404, not with the SPA', async () => {
    for (const url of ['/assets/missing-123.js', '/missing.png']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ statusCode: 404, message: 'Not found' });
    }
  });

  it('answers unknown API paths with JSON even when the client prefers HTML', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/nope', headers: HTML });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ statusCode: 404, error: 'Not Found', message: 'Not found' });
  });

  it('creates MEDIA_DIR and serves the formats the pipeline writes under /media/, immutable and with nosniff', async () => {
    expect((await stat(media)).isDirectory()).toBe(true);
    await writeFile(join(media, 'avatar.webp'), Buffer.from('RIFF\0\0\0\0WEBP'));
    const res = await app.inject({ method: 'GET', url: '/media/avatar.webp' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // Anything else that lands in the directory (an HTML or SVG file) is never served.
    for (const name of ['page.html', 'image.svg', 'avatar.png']) {
      await writeFile(join(media, name), '<svg onload=alert(1)>');
      expect((await app.inject({ method: 'GET', url: `/media/${name}` })).statusCode, name).toBe(404);
    }

    const missing = await app.inject({ method: 'GET', url: '/media/nope.png', headers: HTML });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ statusCode: 404 });

    const traversal = await app.inject({ method: 'GET', url: '/media/..%2f..%2fpackage.json' });
    expect(traversal.statusCode).toBeGreaterThanOrEqual(400);
  });
});

describe('web app serving before `npm run build`', () => {
  let app: App;
  beforeAll(async () => {
    app = await buildApp(testConfig(), { webDistDir: join(tmpdir(), 'tribuna-no-such-dist') });
  });
  afterAll(async () => {
    await app.close();
  });

  it('answers web routes with a page saying the web app is not built', async () => {
    for (const url of ['/', '/terminos']) {
      const res = await app.inject({ method: 'GET', url, headers: HTML });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.body).toContain('npm run build');
    }
  });

  it('keeps the API working', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/site' });
    expect(res.statusCode).toBe(200);
  });
});

describe('web app serving from the repository web/dist', () => {
  let app: App;
  beforeAll(async () => {
    app = await buildApp(testConfig());
  });
  afterAll(async () => {
    await app.close();
  });

  // Holds whether or not web/dist has been built on this machine.
  it('answers /terminos and an unknown path with HTML but /api/nope with JSON', async () => {
    for (const url of ['/terminos', '/una/ruta/desconocida']) {
      const res = await app.inject({ method: 'GET', url, headers: HTML });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
    }
    const api = await app.inject({ method: 'GET', url: '/api/nope', headers: HTML });
    expect(api.statusCode).toBe(404);
    expect(api.headers['content-type']).toMatch(/application\/json/);
  });
});
