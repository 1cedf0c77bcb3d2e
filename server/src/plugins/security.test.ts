import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyPluginAsync, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@tribuna/drizzle/client';
import { buildPoll } from '../../../test/support/factories.ts';
import { testConfig } from '../../../test/support/env.ts';
import { buildApp, type App } from '../app.ts';
import { useTestApp } from '../../../test/support/server/harness.ts';
import { SWAGGER_LOGO_STYLE } from './docs.ts';

const HTML = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };
const INDEX =
  '<!doctype html><html lang="es"><head><title>Tribuna SPA</title><script src="/theme-init.js"></script></head><body><div id="root"></div></body></html>';

/** The Content-Security-Policy of a response as directive name → sources. */
function csp(res: LightMyRequestResponse): Map<string, string[]> {
  const header = res.headers['content-security-policy'];
  expect(typeof header, 'content-security-policy header').toBe('string');
  const directives = new Map<string, string[]>();
  for (const part of (header as string).split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) directives.set(name, sources);
  }
  return directives;
}

/** The headers every response carries, whatever answered it. */
function expectSecurityHeaders(res: LightMyRequestResponse, styles: string[] = ["'self'"]): void {
  const policy = csp(res);
  expect(policy.get('default-src')).toEqual(["'self'"]);
  expect(policy.get('script-src')).toEqual(["'self'"]);
  expect(policy.get('script-src-attr')).toEqual(["'none'"]);
  expect(policy.get('style-src')).toEqual(styles);
  expect(policy.get('object-src')).toEqual(["'none'"]);
  expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
  expect(policy.get('base-uri')).toEqual(["'self'"]);
  expect(policy.get('form-action')).toEqual(["'self'"]);
  expect(policy.get('img-src')).toEqual(["'self'", 'data:', 'blob:', 'https:']);
  // Video posts, and the composer's preview of a picked clip.
  expect(policy.get('media-src')).toEqual(["'self'", 'blob:']);
  for (const sources of policy.values()) {
    expect(sources).not.toContain("'unsafe-inline'");
    expect(sources).not.toContain("'unsafe-eval'");
  }
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  expect(res.headers['x-frame-options']).toBe('DENY');
  expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
  expect(res.headers['cross-origin-embedder-policy']).toBeUndefined();
  const permissions = res.headers['permissions-policy'];
  for (const feature of ['camera', 'microphone', 'geolocation', 'payment', 'usb', 'autoplay']) {
    expect(permissions).toContain(`${feature}=()`);
  }
  // A video post's full-screen view, for the page itself only.
  expect(permissions).toContain('fullscreen=(self)');
  // Copy link and the share sheet keep working.
  expect(permissions).not.toMatch(/clipboard-write|web-share/);
}

/** The headers of a JSON API answer: nothing may load from it or frame it, and the rest as on pages. */
function expectApiSecurityHeaders(res: LightMyRequestResponse): void {
  expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  expect(res.headers['x-frame-options']).toBe('DENY');
  expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
  expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
  const permissions = res.headers['permissions-policy'];
  for (const feature of ['camera', 'microphone', 'geolocation', 'payment', 'usb', 'fullscreen']) {
    expect(permissions).toContain(`${feature}=()`);
  }
}

/** A route that fails the way a bug does, behind the real hooks. */
const failingRoute: FastifyPluginAsync = async (app) => {
  // Not rate limited: a test route.
  app.get('/api/test/boom', { schema: { hide: true }, config: { rateLimit: false } }, async () => {
    throw new Error('boom');
  });
};

describe('security headers over http (development, tests)', () => {
  let app: App;
  let database: Database;
  let root: string;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'tribuna-security-'));
    await mkdir(join(root, 'dist'), { recursive: true });
    await mkdir(join(root, 'media', 'contestants'), { recursive: true });
    await writeFile(join(root, 'dist', 'index.html'), INDEX);
    await writeFile(join(root, 'dist', 'theme-init.js'), '(function () {})();');
    await writeFile(join(root, 'dist', 'icon-512.png'), 'png');
    await writeFile(join(root, 'media', 'contestants', 'ximena.webp'), 'webp');
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });
  useTestApp(
    () => ({ PUBLIC_URL: 'http://127.0.0.1:3000', MEDIA_DIR: join(root, 'media') }),
    (ready) => ({ app, database } = ready),
    { build: () => ({ webDistDir: join(root, 'dist'), extraRoutes: failingRoute }) },
  );

  it.each([
    ['a static file', '/icon-512.png', 200],
    ['a missing file', '/missing.png', 404],
  ])('puts them on %s (GET %s)', async (_what, url, status) => {
    const res = await app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(status);
    expectSecurityHeaders(res);
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it.each([
    ['a script of the build (never a page)', '/theme-init.js', 200],
    ['an API route', '/api/site', 200],
    ['a 404 of the API', '/api/nope', 404],
    ['a validation error', '/api/polls/not-a-uuid', 400],
    ['a refused request', '/api/me', 401],
    ['an unexpected error', '/api/test/boom', 500],
  ])("puts the API's on %s (GET %s)", async (_what, url, status) => {
    const res = await app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(status);
    expectApiSecurityHeaders(res);
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it('answers a malformed URL, which Fastify refuses before any hook, with them and an ErrorBody', async () => {
    const api = await app.inject({ method: 'GET', url: '/api/polls/%E0%A4%A' });
    expect(api.statusCode).toBe(400);
    expect(api.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expectApiSecurityHeaders(api);
    const page = await app.inject({ method: 'GET', url: '/%E0%A4%A' });
    expect(page.statusCode).toBe(400);
    expectSecurityHeaders(page);
  });

  it.each(['/api/docs', '/api/docs/json', '/api/docs/static/swagger-ui-bundle.js'])(
    'puts them on %s, with the one inline stylesheet Swagger UI needs',
    async (url) => {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expectSecurityHeaders(res, ["'self'", SWAGGER_LOGO_STYLE]);
    },
  );

  it.each(['/', '/terminos', '/no/such/page'])('puts them on the SPA index at %s', async (url) => {
    const res = await app.inject({ method: 'GET', url, headers: HTML });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Tribuna SPA');
    expectSecurityHeaders(res);
  });

  it('puts them on the share preview of a poll', async () => {
    const { poll } = await buildPoll(database.db, { title: 'Eliminación semana 5' });
    const res = await app.inject({ method: 'GET', url: `/?encuesta=${poll.id}`, headers: HTML });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<meta property="og:title" content="Eliminación semana 5" />');
    expectSecurityHeaders(res);
  });

  it('allows the websocket of the public address (older Safari does not read it into self), without upgrading to https', async () => {
    const policy = csp(await app.inject({ method: 'GET', url: '/', headers: HTML }));
    expect(policy.get('connect-src')).toEqual(["'self'", 'ws://127.0.0.1:3000']);
    expect(policy.has('upgrade-insecure-requests')).toBe(false);
  });

  it('lets other sites embed shared images (og:image) but not the rest', async () => {
    const icon = await app.inject({ method: 'GET', url: '/icon-512.png' });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expectSecurityHeaders(icon);
    // Uploads: embeddable, never sniffed, sandboxed with nothing allowed if opened as a document.
    const image = await app.inject({ method: 'GET', url: '/media/contestants/ximena.webp' });
    expect(image.statusCode).toBe(200);
    expect(image.headers).toMatchObject({
      'cross-origin-resource-policy': 'cross-origin',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
      'content-type': 'image/webp',
    });
    for (const url of ['/', '/api/site', '/theme-init.js', '/api/nope']) {
      const res = await app.inject({ method: 'GET', url, headers: HTML });
      expect(res.headers['cross-origin-resource-policy'], url).toBe('same-origin');
    }
  });
});

describe('security headers with an https PUBLIC_URL', () => {
  let app: App;
  beforeAll(async () => {
    app = await buildApp(testConfig({ PUBLIC_URL: 'https://tribuna.example.mx' }));
  });
  afterAll(async () => {
    await app.close();
  });

  it('adds HSTS, upgrades insecure requests and allows wss to the public host', async () => {
    for (const url of ['/', '/terminos', '/missing.png']) {
      const res = await app.inject({ method: 'GET', url, headers: HTML });
      expectSecurityHeaders(res);
      expect(res.headers['strict-transport-security'], url).toBe('max-age=31536000; includeSubDomains');
      const policy = csp(res);
      expect(policy.get('connect-src')).toEqual(["'self'", 'wss://tribuna.example.mx']);
      expect(policy.has('upgrade-insecure-requests')).toBe(true);
    }
    for (const url of ['/api/site', '/api/nope', '/api/polls/not-a-uuid']) {
      const res = await app.inject({ method: 'GET', url });
      expectApiSecurityHeaders(res);
      expect(res.headers['strict-transport-security'], url).toBe('max-age=31536000; includeSubDomains');
    }
  });
});

describe('the "web app not built" page', () => {
  let app: App;
  let emptyDist: string;
  beforeAll(async () => {
    emptyDist = await mkdtemp(join(tmpdir(), 'tribuna-security-empty-'));
    app = await buildApp(testConfig(), { webDistDir: emptyDist });
  });
  afterAll(async () => {
    await app.close();
    await rm(emptyDist, { recursive: true, force: true });
  });

  it('carries the headers and needs no inline style or script', async () => {
    const res = await app.inject({ method: 'GET', url: '/', headers: HTML });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('npm run build');
    expect(res.body).not.toMatch(/style=|<style|<script/i);
    expectSecurityHeaders(res);
  });
});
