import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

const webRoot = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: webRoot,
  plugins: [react()],
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    restoreMocks: true,
    unstubGlobals: true,
    // Room for findBy*'s 5 s (src/test/setup.ts) and a busy machine; a hung test still fails.
    testTimeout: 20_000,
    // Run before the integration (parallel files, own worker count) and e2e groups (vitest.config.ts).
    sequence: { groupOrder: 0 },
  },
});
