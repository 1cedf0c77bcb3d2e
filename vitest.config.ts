import { defineConfig } from 'vitest/config';
import { SuiteWeightSequencer } from './test/sequencer.ts';
import { MAX_WORKERS } from './test/workers.ts';

// Three projects: web unit tests (jsdom), integration tests against a real PostgreSQL and
// Redis (one database per test file, cloned from a migrated template), and browser end-to-end
// tests in headless Chromium.
export default defineConfig({
  test: {
    // Without timings (a fresh clone), the heaviest files first, counting the suite each part imports.
    sequence: { sequencer: SuiteWeightSequencer },
    projects: [
      './web/vitest.config.ts',
      {
        test: {
          name: 'integration',
          environment: 'node',
          include: ['contracts/**/*.test.ts', 'drizzle/**/*.test.ts', 'server/**/*.test.ts', 'worker/**/*.test.ts', 'scripts/**/*.test.ts'],
          globalSetup: ['./test/globalSetup.ts'],
          // Each file gets its own database cloned from the run's migrated template and its own
          // Redis prefix (test/fileSetup.ts), so files run in parallel without racing.
          setupFiles: ['./test/fileSetup.ts'],
          fileParallelism: true,
          maxWorkers: MAX_WORKERS,
          // With the web unit tests (same group, same worker count: one pool): a jsdom file fills
          // a worker while another waits on PostgreSQL. End-to-end tests come after, as a group.
          sequence: { groupOrder: 0 },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['test/e2e/**/*.test.ts'],
          sequence: { groupOrder: 2 },
          globalSetup: ['./test/globalSetup.ts'],
          setupFiles: ['./test/fileSetup.ts'],
          // Each file has its own database, Redis prefix, server and browser: two at a time, as a
          // browser page mostly waits (for the network to settle, for the server) while another renders.
          fileParallelism: true,
          maxWorkers: Number(process.env.TEST_E2E_MAX_WORKERS ?? 2),
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      // Fault tests (`npm run test:faults`, which sets TRIBUNA_FAULTS=1): real server and worker
      // processes killed, stopped and restarted, each file with its own PostgreSQL and Redis
      // (test/faults/support). Not part of `npm test`; .ci/run runs both.
      ...(process.env.TRIBUNA_FAULTS === '1'
        ? [
            {
              test: {
                name: 'faults',
                environment: 'node',
                include: ['test/faults/**/*.test.ts'],
                sequence: { groupOrder: 3 },
                fileParallelism: false,
                testTimeout: 240_000,
                hookTimeout: 120_000,
              },
            },
          ]
        : []),
    ],
  },
});
