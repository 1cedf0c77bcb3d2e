import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { VitePWA } from 'vite-plugin-pwa';

const webRoot = fileURLToPath(new URL('.', import.meta.url));
const apiTarget = process.env.TRIBUNA_API_URL ?? 'http://localhost:3000';

/** Paths the server owns: proxied in development, never answered by the service worker. */
const SERVER_PATHS = ['/api', '/auth', '/ws', '/media'] as const;
/** Routes of the web app inside those paths. */
const SPA_PATHS = /^\/auth\/callback(?:[?#]|$)/;

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
        navigateFallback: '/index.html',
        navigateFallbackDenylist: SERVER_PATHS.map((path) => new RegExp(`^${path}(?:/|$)`)),
      },
    }),
  ],
});
