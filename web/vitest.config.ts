import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { MAX_WORKERS } from '../test/workers.ts';

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
    // One group with the integration tests (vitest.config.ts): the same worker count, one pool.
    maxWorkers: MAX_WORKERS,
    sequence: { groupOrder: 0 },
  },
});
