import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { VitePWA } from 'vite-plugin-pwa';

const webRoot = fileURLToPath(new URL('.', import.meta.url));
const apiTarget = process.env.TRIBUNA_API_URL ?? 'http://localhost:3000';

/** Paths the server owns: proxied in development, never answered by the service worker. */
const SERVER_PATHS = ['/api', '/auth', '/ws', '/media'] as const;
/** Routes of the web app inside those paths. */
const SPA_PATHS = /^\/auth\/callback(?:[?#]|$)/;

/**
 * The push handlers the generated service worker imports (web/public/push-sw.js), with a version of
 * their content: the browser checks imported scripts through its HTTP cache, so a new version gets a
 * new URL, and sw.js changes with it (the browser installs the new worker).
 */
const PUSH_SW_URL = `/push-sw.js?v=${createHash('sha256')
  .update(readFileSync(join(webRoot, 'public', 'push-sw.js')))
  .digest('hex')
  .slice(0, 12)}`;

/** Text files worth precompressing: the server sends the .br or .gz beside them (@fastify/static preCompressed). */
const COMPRESSIBLE = /\.(?:js|css|html|svg|json|webmanifest|txt)$/;

/** Writes `file.br` (brotli 11) and `file.gz` (gzip 9) beside every compressible file of the build, when smaller. */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'tribuna-precompress',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      outDir = join(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      handler() {
        const walk = (dir: string): string[] =>
          readdirSync(dir).flatMap((name) => {
            const path = join(dir, name);
            return statSync(path).isDirectory() ? walk(path) : [path];
          });
        for (const path of walk(outDir).filter((p) => COMPRESSIBLE.test(p))) {
          const body = readFileSync(path);
          if (body.length < 512) continue;
          const br = brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } });
          const gz = gzipSync(body, { level: 9 });
          if (br.length < body.length) writeFileSync(`${path}.br`, br);
          if (gz.length < body.length) writeFileSync(`${path}.gz`, gz);
        }
      },
    },
  };
}

export default defineConfig({
  root: webRoot,
  build: { outDir: 'dist', emptyOutDir: true },
  server: {
    proxy: Object.fromEntries(
      SERVER_PATHS.map((path) => [
        path,
        {
          target: apiTarget,
          changeOrigin: false,
          ws: path === '/ws',
          // /auth/callback is a web route (Google sign-in comes back to it): the dev server answers it.
          bypass: (req: { url?: string }) => (SPA_PATHS.test(req.url ?? '') ? '/index.html' : undefined),
        },
      ]),
    ),
  },
  plugins: [
    react(),
    tailwindcss(),
    VitePWA({
      registerType: 'autoUpdate',
      injectRegister: false, // registered from main.tsx through virtual:pwa-register
      includeAssets: ['icon.svg', 'apple-touch-icon.png'],
      manifest: {
        name: 'Tribuna',
        short_name: 'Tribuna',
        description: 'Votaciones en vivo y comunidad de fans del reality.',
        lang: 'es',
        dir: 'ltr',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        theme_color: '#0f0a1e',
        background_color: '#0f0a1e',
        icons: [
          { src: '/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: '/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
          { src: '/icon.svg', sizes: 'any', type: 'image/svg+xml' },
        ],
      },
      workbox: {
        importScripts: [PUSH_SW_URL],
        globIgnores: ['**/*.br', '**/*.gz'],
        navigateFallback: '/index.html',
        navigateFallbackDenylist: SERVER_PATHS.map((path) => new RegExp(`^${path}(?:/|$)`)),
      },
    }),
    precompress(),
  ],
});
