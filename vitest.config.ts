import { defineConfig } from 'vitest/config';

// Three projects: web unit tests (jsdom), integration tests against a real PostgreSQL and
// Redis (one fresh database per run), and browser end-to-end tests in headless Chromium.
export default defineConfig({
  test: {
    projects: [
      './web/vitest.config.ts',
      {
        test: {
          name: 'integration',
          environment: 'node',
          include: [
            'contracts/**/*.test.ts',
            'drizzle/**/*.test.ts',
            'server/**/*.test.ts',
            'worker/**/*.test.ts',
            'scripts/**/*.test.ts',
          ],
          globalSetup: ['./test/globalSetup.ts'],
          // Files share one database; running them one after another keeps global rows
          // (the single featured poll, for instance) from racing between files.
          fileParallelism: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['./test/globalSetup.ts'],
          fileParallelism: false,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
