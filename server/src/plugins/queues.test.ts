import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUE_NAMES } from '@tribuna/contracts/jobs';
import { testConfig } from '../../../test/support/env.ts';
import { buildApp, type App } from '../app.ts';

describe('queues plugin', () => {
  const config = testConfig();
  let app: App;
  const jobIds: string[] = [];

  beforeAll(async () => {
    app = await buildApp(config);
  });
  afterAll(async () => {
    // Leave nothing for a worker started by a later test file on the same prefix.
    await Promise.all(jobIds.map((id) => app.queues.maintenance.remove(id)));
    await app.close();
  });

  it('creates one BullMQ queue per queue name under REDIS_PREFIX', () => {
    expect(Object.keys(app.queues).sort()).toEqual(Object.values(QUEUE_NAMES).sort());
    expect(app.queues.maintenance.opts.prefix).toBe(config.redisPrefix);
  });

  it('enqueues a typed job on its queue, once per deterministic job id', async () => {
    const jobId = `test-aggregate-${Date.now()}`;
    jobIds.push(jobId);
    const first = await app.enqueue('reports.aggregate-day', { day: '2025-01-05' }, { jobId, delay: 60_000 });
    const again = await app.enqueue('reports.aggregate-day', { day: '2025-01-05' }, { jobId, delay: 60_000 });
    expect(first.id).toBe(jobId);
    expect(again.id).toBe(jobId);

    const job = await app.queues.maintenance.getJob(jobId);
    expect(job?.name).toBe('reports.aggregate-day');
    expect(job?.data).toEqual({ day: '2025-01-05' });
    expect(await app.redis.exists(`${config.redisPrefix}:maintenance:${jobId}`)).toBe(1);
    expect(await app.queues.maintenance.getDelayedCount()).toBeGreaterThanOrEqual(1);
  });

  it('builds prefixed Redis keys', () => {
    expect(app.redisKey('live', 'abc')).toBe(`${config.redisPrefix}:live:abc`);
  });
});
