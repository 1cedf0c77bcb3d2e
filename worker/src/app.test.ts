import { afterAll, describe, expect, it } from 'vitest';
import { Queue } from 'bullmq';
import { QUEUE_NAMES } from '@tribuna/contracts/jobs';
import pino from 'pino';
import { testConfig } from '../../test/support/env.ts';
import { testDatabase } from '../../test/support/db.ts';
import { startWorker } from './app.ts';
import { handlers } from './handlers.ts';

const config = testConfig({ REDIS_PREFIX: `${testConfig().redisPrefix}_app` });
const database = testDatabase();

afterAll(async () => {
  const queue = new Queue('maintenance', { connection: { url: config.redisUrl }, prefix: config.redisPrefix });
  await queue.obliterate({ force: true });
  await queue.close();
  await database.close();
});

describe('startWorker', () => {
  it('refuses to start when a job has no handler', async () => {
    const { ['reports.aggregate-recent-days']: _missing, ...incomplete } = handlers;
    await expect(startWorker({ config, db: database.db, logger: pino({ level: 'silent' }), handlers: incomplete, schedules: false })).rejects.toThrow(
      /no handler for "reports\.aggregate-recent-days"/,
    );
  });

  it('consumes every queue of the contracts, the media queue (transcodes) one job at a time, the push queue’s requests bounded by its sender instead', async () => {
    const app = await startWorker({ config, db: database.db, logger: pino({ level: 'silent' }), schedules: false, concurrency: 4 });
    try {
      expect([...app.queues.keys()].sort()).toEqual(Object.values(QUEUE_NAMES).sort());
      expect(Object.fromEntries(app.workers.map((w) => [w.name, w.concurrency]))).toEqual({ maintenance: 4, points: 4, media: 1, push: 4 });
    } finally {
      await app.close();
    }
  });

  it('lets the running job finish before close() resolves', async () => {
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    let finished = false;
    const app = await startWorker({
      config,
      db: database.db,
      logger: pino({ level: 'silent' }),
      schedules: false,
      handlers: {
        ...handlers,
        'reports.aggregate-day': async () => {
          started();
          await new Promise((resolve) => setTimeout(resolve, 400));
          finished = true;
          return 'done';
        },
      },
    });
    const job = await app.enqueue('reports.aggregate-day', { day: '2025-01-15' });
    await running;
    await app.close();
    expect(finished).toBe(true);

    const queue = new Queue('maintenance', { connection: { url: config.redisUrl }, prefix: config.redisPrefix });
    try {
      const stored = await queue.getJob(job.id!);
      expect(await stored?.getState()).toBe('completed');
      expect(stored?.returnvalue).toBe('done');
    } finally {
      await queue.close();
    }
  });
});
