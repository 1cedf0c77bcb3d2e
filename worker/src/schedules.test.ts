import { afterAll, describe, expect, it } from 'vitest';
import { Queue } from 'bullmq';
import pino from 'pino';
import { QUEUE_NAMES, type QueueName } from '@tribuna/contracts/jobs';
import { testConfig } from '../../test/support/env.ts';
import { registerSchedules } from './schedules.ts';

const config = testConfig({ REDIS_PREFIX: `${testConfig().redisPrefix}_schedules` });
const queues = new Map<QueueName, Queue>(
  Object.values(QUEUE_NAMES).map((name) => [name, new Queue(name, { connection: { url: config.redisUrl }, prefix: config.redisPrefix })]),
);
const logger = pino({ level: 'silent' });

afterAll(async () => {
  for (const queue of queues.values()) {
    await queue.obliterate({ force: true });
    await queue.close();
  }
});

describe('job schedules', () => {
  it('aggregates today every 5 minutes and yesterday at 00:05 in SHOW_TIMEZONE', async () => {
    await registerSchedules(queues, config, logger);
    const schedulers = await queues.get('maintenance')!.getJobSchedulers();
    const byId = new Map(schedulers.map((s) => [s.key, s]));

    expect(byId.get('reports.aggregate-today')).toMatchObject({
      name: 'reports.aggregate-recent-days',
      every: 300_000,
      template: { data: { days: 1 } },
    });
    expect(byId.get('reports.aggregate-yesterday')).toMatchObject({
      name: 'reports.aggregate-recent-days',
      pattern: '5 0 * * *',
      tz: 'America/Mexico_City',
      template: { data: { days: 2 } },
    });
  });

  it('sweeps missed point awards every 5 minutes (the whole window daily at 04:15) and announces the daily reset at 00:00 in SHOW_TIMEZONE', async () => {
    await registerSchedules(queues, config, logger);
    const byId = new Map((await queues.get('points')!.getJobSchedulers()).map((s) => [s.key, s]));
    expect(byId.get('points.sweep')).toMatchObject({ name: 'points.sweep', every: 300_000 });
    // The whole window once a day at a quiet hour, whatever the watermark.
    expect(byId.get('points.sweep-full')).toMatchObject({
      name: 'points.sweep',
      pattern: '15 4 * * *',
      tz: 'America/Mexico_City',
      template: { data: { full: true } },
    });
    expect(byId.get('points.daily-reset')).toMatchObject({
      name: 'points.daily-reset',
      pattern: '0 0 * * *',
      tz: 'America/Mexico_City',
    });
  });

  it('purges ended sessions nightly at 04:30 in SHOW_TIMEZONE, keeping 30 days', async () => {
    await registerSchedules(queues, config, logger);
    const byId = new Map((await queues.get('maintenance')!.getJobSchedulers()).map((s) => [s.key, s]));
    expect(byId.get('sessions.purge')).toMatchObject({
      name: 'sessions.purge',
      pattern: '30 4 * * *',
      tz: 'America/Mexico_City',
      template: { data: { olderThanDays: 30 } },
    });
  });

  it('purges vote idempotency keys older than 24 hours every hour', async () => {
    await registerSchedules(queues, config, logger);
    const byId = new Map((await queues.get('maintenance')!.getJobSchedulers()).map((s) => [s.key, s]));
    expect(byId.get('votes.purge-requests')).toMatchObject({
      name: 'votes.purge-requests',
      every: 3_600_000,
      template: { data: { olderThanHours: 24 } },
    });
  });

  it('collects unreferenced media files every hour, sparing those of the last hour', async () => {
    await registerSchedules(queues, config, logger);
    const byId = new Map((await queues.get('maintenance')!.getJobSchedulers()).map((s) => [s.key, s]));
    expect(byId.get('media.gc')).toMatchObject({ name: 'media.gc', every: 3_600_000, template: { data: { olderThanMinutes: 60 } } });
  });

  it('scans for abuse every hour', async () => {
    await registerSchedules(queues, config, logger);
    const byId = new Map((await queues.get('maintenance')!.getJobSchedulers()).map((s) => [s.key, s]));
    expect(byId.get('abuse.scan')).toMatchObject({ name: 'abuse.scan', every: 3_600_000 });
  });

  it('sends due pushes every 15 seconds, and looks for closing polls and lost fan pushes every minute', async () => {
    await registerSchedules(queues, config, logger);
    const byId = new Map((await queues.get('push')!.getJobSchedulers()).map((s) => [s.key, s]));
    expect(byId.get('push.deliver')).toMatchObject({ name: 'push.deliver', every: 15_000 });
    expect(byId.get('push.closing-soon')).toMatchObject({ name: 'push.closing-soon', every: 60_000 });
    expect(byId.get('push.sweep')).toMatchObject({ name: 'push.sweep', every: 60_000 });
  });

  it('is idempotent and drops schedulers that are no longer defined', async () => {
    const queue = queues.get('maintenance')!;
    await queue.upsertJobScheduler('reports.retired', { every: 60_000 }, { name: 'reports.aggregate-recent-days', data: { days: 1 } });
    await registerSchedules(queues, config, logger);
    await registerSchedules(queues, config, logger);
    const keys = (await queue.getJobSchedulers()).map((s) => s.key).sort();
    expect(keys).toEqual(['abuse.scan', 'media.gc', 'reports.aggregate-today', 'reports.aggregate-yesterday', 'sessions.purge', 'votes.purge-requests']);
  });
});
