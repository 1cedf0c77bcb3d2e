// Failed jobs for the queue health tests, without a worker process: a manual BullMQ worker takes
// the job just added (LIFO: ahead of anything else waiting) and fails it.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { Worker, type Job } from 'bullmq';
import type { QueueName } from '@tribuna/contracts/jobs';
import type { App } from '../../../server/src/app.ts';

export async function failedJob(app: App, queueName: QueueName, reason = 'boom', name = 'media.gc'): Promise<Job> {
  const connection = new Redis(app.config.redisUrl, { maxRetriesPerRequest: null });
  const worker = new Worker(queueName, null, { connection, prefix: app.config.redisPrefix, autorun: false });
  try {
    const added = await app.queues[queueName].add(name, { olderThanMinutes: 60 }, { jobId: `test-${randomUUID()}`, lifo: true, attempts: 1 });
    const token = randomUUID();
    const job = await worker.getNextJob(token, { block: false });
    if (job?.id !== added.id) throw new Error(`took ${job?.id ?? 'nothing'} instead of ${added.id}`);
    await job.moveToFailed(new Error(reason), token, false);
    return job;
  } finally {
    await worker.close();
    await connection.quit().catch(() => connection.disconnect());
  }
}
