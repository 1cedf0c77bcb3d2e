import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { basename, join, sep } from 'node:path';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { WEB_DIST_DIR } from '../paths.ts';

declare module 'fastify' {
  interface FastifyReply {
    /**
     * Answers with the SPA's index.html (or a "not built" page when web/dist is missing).
     * `headTags` (already escaped HTML) go at the end of <head>; a <title> among them replaces the page's.
     */
    sendSpaIndex(headTags?: string): FastifyReply;
  }
}

export interface StaticPluginOptions {
  /** Defaults to web/dist of this repository. */
  root?: string;
}

/** Prefixes the server answers itself; the SPA never handles them. `/auth/callback` is a web route. */
const SERVER_PREFIXES = /^\/(?:api|auth|ws|media|assets)(?:\/|$)/;
const SPA_AUTH_ROUTES = new Set(['/auth/callback']);

/** A browser navigation the SPA router should answer (GET/HEAD, not a server path, wants HTML). */
export function isSpaNavigation(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const path = request.url.split('?')[0] ?? '/';
  if (SERVER_PREFIXES.test(path) && !SPA_AUTH_ROUTES.has(path)) return false;
  const accept = request.headers.accept ?? '';
  if (accept.includes('text/html')) return true;
  // Without an explicit wish for HTML, a missing file (/foo.png) is a plain 404, a route (/terminos) is the SPA.
  const looksLikeFile = /\.[A-Za-z0-9]+$/.test(basename(path));
  return !looksLikeFile && (accept === '' || accept.includes('*/*'));
}

/** sw.js, index.html and the manifest must be revalidated; Vite's hashed assets never change. */
function cacheControlFor(filePath: string, root: string): string {
  const relative = filePath.slice(root.length).split(sep).join('/');
  const name = basename(filePath);
  if (relative.startsWith('/assets/') || relative.startsWith('assets/')) return 'public, max-age=31536000, immutable';
  if (name === 'index.html' || name === 'sw.js' || name === 'registerSW.js' || name.endsWith('.webmanifest')) {
    return 'no-cache';
  }
  if (/^workbox-.*\.js$/.test(name)) return 'no-cache';
  return 'public, max-age=3600';
}

/** Unstyled on purpose: the Content-Security-Policy refuses inline styles (see plugins/security.ts). */
const NOT_BUILT_PAGE = `<!doctype html>
<html lang="es">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Tribuna</title></head>
<body>
<h1>Tribuna</h1>
<p>La aplicación web no está compilada. Ejecuta <code>npm run build</code> y recarga esta página.</p>
<p>The web app is not built. Run <code>npm run build</code>, then reload this page. The API is available under <a href="/api/docs">/api/docs</a>.</p>
</body>
</html>
`;

/** index.html with `headTags` at the end of <head>; a <title> among them replaces the page's own. */
export function withHeadTags(html: string, headTags: string): string {
  let page = html;
  if (/<title[\s>]/i.test(headTags)) page = page.replace(/<title>[\s\S]*?<\/title>/i, '');
  const close = page.search(/<\/head>/i);
  return close === -1 ? `${headTags}${page}` : `${page.slice(0, close)}${headTags}\n${page.slice(close)}`;
}

/** Serves the built web app with the right cache headers; unknown navigations get index.html. */
export default fp<StaticPluginOptions>(
  async (app, options) => {
    const root = options.root ?? WEB_DIST_DIR;
    const indexPath = join(root, 'index.html');

    await app.register(fastifyStatic, {
      root,
      prefix: '/',
      wildcard: true,
      cacheControl: false,
      suppressWarning: true,
      // The build writes .br and .gz next to each asset (web/vite.config.ts): a phone gets brotli
      // without the server compressing anything per request.
      preCompressed: true,
      setHeaders: (reply, filePath) => {
        reply.header('cache-control', cacheControlFor(filePath, root));
      },
    });

    let cached: { mtimeMs: number; html: string } | null = null;
    const readIndex = async (): Promise<string> => {
      const { mtimeMs } = await stat(indexPath);
      if (cached?.mtimeMs !== mtimeMs) cached = { mtimeMs, html: await readFile(indexPath, 'utf8') };
      return cached.html;
    };

    app.decorateReply('sendSpaIndex', function (this: FastifyReply, headTags?: string) {
      // Checked per request so a build finishing after start is picked up without a restart.
      if (!existsSync(indexPath)) {
        return this.code(200).header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(NOT_BUILT_PAGE);
      }
      if (headTags === undefined) {
        // A file streamed from a route that awaits its reply gathers 11 'close' listeners on the
        // response (the stream's pipe and end-of-stream watchers, one pair per reply.then), all
        // removed as it ends: above Node's leak warning threshold of 10, though nothing leaks.
        this.raw.setMaxListeners(20);
        return this.code(200).sendFile('index.html');
      }
      readIndex().then(
        (html) => this.code(200).header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(withHeadTags(html, headTags)),
        (err: unknown) => this.send(err),
      );
      return this;
    });
  },
  { name: 'static' },
);
