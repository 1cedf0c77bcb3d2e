// GET /api/admin/queues and the retry of a failed job, on real BullMQ queues (this file's Redis prefix).
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { Worker } from 'bullmq';
import { afterEach, describe, expect, it } from 'vitest';
import type { QueueHealthList, RetriedJob } from '@tribuna/contracts/api/admin/queues';
import { QUEUE_NAMES } from '@tribuna/contracts/jobs';
import type { Database } from '@tribuna/drizzle/client';
import type { App } from '../../app.ts';
import { useTestApp } from '../../../../test/support/server/harness.ts';
import { auditRows, signInAdmin } from '../../../../test/support/server/catalog.ts';
import { failedJob } from '../../../../test/support/server/queues.ts';

describe('/api/admin/queues', () => {
  let app: App;
  let database: Database;
  useTestApp({}, (ready) => ({ app, database } = ready));

  const cleanups: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    await Promise.all(cleanups.splice(0).map((c) => c()));
    // Each test starts from empty queues.
    await Promise.all(Object.values(app.queues).map((q) => q.obliterate({ force: true })));
  });

  const health = async (admin: Awaited<ReturnType<typeof signInAdmin>>) => {
    const res = await admin.call('GET', '/api/admin/queues');
    expect(res.statusCode, res.body).toBe(200);
    return res.json<QueueHealthList>();
  };

  it('reports every queue with its counts, workers and latest failures', async () => {
    const admin = await signInAdmin(app, database);
    const empty = await health(admin);
    expect(empty.queues.map((q) => q.name)).toEqual(Object.values(QUEUE_NAMES));
    for (const q of empty.queues)
      expect(q).toEqual({ name: q.name, counts: { waiting: 0, active: 0, failed: 0, delayed: 0, completed: 0 }, workers: 0, failures: [] });

    await app.enqueue('media.gc', { olderThanMinutes: 60 });
    await app.enqueue('sessions.purge', { olderThanDays: 30 }, { delay: 60_000 });
    await app.enqueue('points.sweep', {}, { priority: 5 });
    const failures = [];
    for (let i = 0; i < 22; i++) failures.push(await failedJob(app, 'maintenance', `fallo ${i}`));
    const connection = new Redis(app.config.redisUrl, { maxRetriesPerRequest: null });
    const worker = new Worker('points', null, { connection, prefix: app.config.redisPrefix, autorun: false });
    cleanups.push(async () => {
      await worker.close();
      await connection.quit();
    });
    await worker.waitUntilReady();

    const { queues, checkedAt } = await health(admin);
    expect(Date.parse(checkedAt)).toBeGreaterThan(Date.now() - 60_000);
    const maintenance = queues.find((q) => q.name === 'maintenance')!;
    const points = queues.find((q) => q.name === 'points')!;
    expect(maintenance.counts).toEqual({ waiting: 1, active: 0, failed: 22, delayed: 1, completed: 0 });
    expect(points.counts).toEqual({ waiting: 1, active: 0, failed: 0, delayed: 0, completed: 0 });
    expect(points.workers).toBe(1);
    expect(maintenance.workers).toBe(0);
    // The latest 20, newest first.
    expect(maintenance.failures).toHaveLength(20);
    expect(maintenance.failures[0]).toEqual({
      id: failures[21]!.id,
      name: 'media.gc',
      failedReason: 'fallo 21',
      attemptsMade: 1,
      failedAt: expect.any(String),
    });
    expect(maintenance.failures.map((f) => f.failedReason)).toEqual(Array.from({ length: 20 }, (_, i) => `fallo ${21 - i}`));
  });

  it('retries a failed job: back to waiting, audited', async () => {
    const admin = await signInAdmin(app, database);
    const job = await failedJob(app, 'maintenance', 'disco lleno');
    const res = await admin.call('POST', `/api/admin/queues/maintenance/jobs/${job.id}/retry`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<RetriedJob>()).toEqual({ id: job.id, queue: 'maintenance' });
    expect(await app.queues.maintenance.getJobState(job.id!)).toBe('waiting');
    expect(await auditRows(database)).toEqual([
      {
        admin_id: admin.id,
        action: 'queue.retry',
        entity_type: 'job',
        entity_id: `maintenance:${job.id}`,
        before: { state: 'failed', name: 'media.gc', failedReason: 'disco lleno', attemptsMade: 1 },
        after: { state: 'waiting' },
      },
    ]);

    // Not failed any more: refused, nothing audited.
    const again = await admin.call('POST', `/api/admin/queues/maintenance/jobs/${job.id}/retry`);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('Solo se puede reintentar un trabajo fallido');
    expect(await auditRows(database)).toHaveLength(1);
  });

  it('runs a retried job again on a worker', async () => {
    const admin = await signInAdmin(app, database);
    const job = await failedJob(app, 'maintenance', 'temporal');
    const connection = new Redis(app.config.redisUrl, { maxRetriesPerRequest: null });
    const ran: string[] = [];
    const worker = new Worker('maintenance', async (j) => void ran.push(String(j.id)), { connection, prefix: app.config.redisPrefix });
    cleanups.push(async () => {
      await worker.close();
      await connection.quit();
    });
    const done = new Promise<void>((resolve) => worker.on('completed', (j) => j.id === job.id && resolve()));
    expect((await admin.call('POST', `/api/admin/queues/maintenance/jobs/${job.id}/retry`)).statusCode).toBe(200);
    await done;
    expect(ran).toEqual([job.id]);
    const { queues } = await health(admin);
    expect(queues.find((q) => q.name === 'maintenance')!.counts).toMatchObject({ failed: 0, completed: 1 });
  });

  it('answers 404 for an unknown queue or job, 409 for a job that did not fail', async () => {
    const admin = await signInAdmin(app, database);
    const unknownQueue = await admin.call('POST', '/api/admin/queues/emails/jobs/1/retry');
    expect(unknownQueue.statusCode).toBe(404);
    expect(unknownQueue.json().message).toBe('Cola no encontrada');
    const unknownJob = await admin.call('POST', `/api/admin/queues/maintenance/jobs/${randomUUID()}/retry`);
    expect(unknownJob.statusCode).toBe(404);
    expect(unknownJob.json().message).toBe('Trabajo no encontrado');
    const waiting = await app.enqueue('media.gc', { olderThanMinutes: 60 }, { delay: 60_000 });
    const notFailed = await admin.call('POST', `/api/admin/queues/maintenance/jobs/${waiting.id}/retry`);
    expect(notFailed.statusCode).toBe(409);
    // A job of another queue is not found on this one.
    const job = await failedJob(app, 'maintenance');
    expect((await admin.call('POST', `/api/admin/queues/points/jobs/${job.id}/retry`)).statusCode).toBe(404);
    expect((await admin.call('POST', '/api/admin/queues/Maintenance/jobs/1/retry')).statusCode).toBe(400);
    expect(await auditRows(database)).toEqual([]);
  });
});
