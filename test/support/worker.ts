import { afterAll, beforeAll, beforeEach } from 'vitest';
import { Queue, QueueEvents, type Job } from 'bullmq';
import pino from 'pino';
import type { Database } from '@tribuna/drizzle/client';
import { testDatabase, truncateAll } from './db.ts';
import { testConfig } from './env.ts';
import type { Config } from '@tribuna/contracts/config';
import type { QueueName } from '@tribuna/contracts/jobs';
import { startWorker, type WorkerApp } from '../../worker/src/app.ts';
import type { JobContext } from '../../worker/src/context.ts';
import type { JobHandlers } from '../../worker/src/registry.ts';

/**
 * A job handler's context on this run's test database (emptied before each test, closed after the
 * file), for calling handlers directly: silent logger, nothing published.
 */
export function useJobTestContext(): { database: Database; ctx: JobContext } {
  const database = testDatabase();
  beforeEach(async () => {
    await truncateAll(database);
  });
  afterAll(async () => {
    await database.close();
  });
  return { database, ctx: { db: database.db, config: testConfig(), logger: pino({ level: 'silent' }), publishEvent: async () => 0 } };
}

/**
 * A real worker (no schedules) for a test file whose jobs go through BullMQ: started before the
 * file's tests on this run's test database (emptied before each test), its queue obliterated and
 * everything closed after them. `run` waits for a job's end: its return value, or its failure.
 * `handlers` replaces the registry's (a test's hooks around a real handler).
 */
export function useQueueWorker(config: Config, database: Database, queue: QueueName, timeoutMs = 20_000, handlers?: Partial<JobHandlers>): QueueWorkerHarness {
  let app: WorkerApp | undefined;
  let events: QueueEvents | undefined;
  beforeAll(async () => {
    app = await startWorker({ config, db: database.db, logger: pino({ level: 'silent' }), schedules: false, ...(handlers ? { handlers } : {}) });
    events = new QueueEvents(queue, { connection: { url: config.redisUrl }, prefix: config.redisPrefix });
    await events.waitUntilReady();
  });
  beforeEach(async () => {
    await truncateAll(database);
  });
  afterAll(async () => {
    await app?.close();
    await events?.close();
    const leftover = new Queue(queue, { connection: { url: config.redisUrl }, prefix: config.redisPrefix });
    await leftover.obliterate({ force: true });
    await leftover.close();
    await database.close();
  });
  return {
    get app() {
      if (!app) throw new Error('the worker starts in beforeAll');
      return app;
    },
    get events() {
      if (!events) throw new Error('the queue events start in beforeAll');
      return events;
    },
    run: async (job, timeout = timeoutMs) => (await job).waitUntilFinished(events!, timeout),
  };
}

export interface QueueWorkerHarness {
  readonly app: WorkerApp;
  readonly events: QueueEvents;
  run(job: Promise<Job>, timeoutMs?: number): Promise<unknown>;
}
