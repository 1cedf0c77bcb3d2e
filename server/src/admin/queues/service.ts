import type { Job, Queue } from 'bullmq';
import type { FailedJob, QueueHealth, QueueHealthList, RetriedJob } from '@tribuna/contracts/api/admin/queues';
import { QUEUE_NAMES, type QueueName } from '@tribuna/contracts/jobs';
import type { Db } from '@tribuna/drizzle/client';
import { conflict, HttpError, notFound } from '../../http/errors.ts';
import { withTimeout } from '../../http/timeout.ts';
import type { AuthUser } from '../../identity/sessions/service.ts';
import { recordAudit } from '../audit.ts';

// The Colas screen: the worker's BullMQ queues (counts, connected workers, latest failures) and
// the retry of a failed job. Read from Redis through the server's own Queue objects.

export const QUEUE_NOT_FOUND = 'Cola no encontrada';
export const JOB_NOT_FOUND = 'Trabajo no encontrado';
export const JOB_NOT_FAILED = 'Solo se puede reintentar un trabajo fallido';
/** Redis out of reach (or too slow): the queues cannot be read right now. */
export const QUEUES_UNAVAILABLE = 'Las colas no están disponibles en este momento';

export const RECENT_FAILURES = 20;
/** Each Redis read gives up after this long: BullMQ's connection waits forever for Redis otherwise. */
const REDIS_TIMEOUT_MS = 3000;

export interface QueuesContext {
  db: Db;
  queues: Record<QueueName, Queue>;
  queuesReady(): boolean;
}

function unavailable(): HttpError {
  return new HttpError(503, QUEUES_UNAVAILABLE);
}

async function fromRedis<T>(ctx: QueuesContext, read: () => Promise<T>, what: string): Promise<T> {
  if (!ctx.queuesReady()) throw unavailable();
  try {
    return await withTimeout(read(), REDIS_TIMEOUT_MS, what);
  } catch (err) {
    if (err instanceof HttpError) throw err;
    if (err instanceof Error && err.name === 'TimeoutError') throw unavailable();
    throw err;
  }
}

function presentFailure(job: Job): FailedJob {
  return {
    id: String(job.id),
    name: job.name,
    failedReason: job.failedReason ?? '',
    attemptsMade: job.attemptsMade ?? 0,
    failedAt: job.finishedOn ? new Date(job.finishedOn).toISOString() : null,
  };
}

async function queueHealth(name: QueueName, queue: Queue): Promise<QueueHealth> {
  const [counts, workers, failed] = await Promise.all([
    queue.getJobCounts('waiting', 'prioritized', 'waiting-children', 'active', 'failed', 'delayed', 'completed'),
    queue.getWorkersCount(),
    queue.getFailed(0, RECENT_FAILURES - 1),
  ]);
  const count = (key: string) => Number(counts[key] ?? 0);
  return {
    name,
    counts: {
      // Waiting to run: plain, prioritized, and parents waiting for their children.
      waiting: count('waiting') + count('prioritized') + count('waiting-children'),
      active: count('active'),
      failed: count('failed'),
      delayed: count('delayed'),
      completed: count('completed'),
    },
    workers,
    // A failed job may be removed between the list and its read: undefined entries are skipped.
    failures: failed.filter((job): job is Job => job !== undefined && job !== null).map(presentFailure),
  };
}

export async function listQueues(ctx: QueuesContext, now = new Date()): Promise<QueueHealthList> {
  const names = Object.values(QUEUE_NAMES);
  const queues = await fromRedis(ctx, () => Promise.all(names.map((name) => queueHealth(name, ctx.queues[name]))), 'queue health');
  return { queues, checkedAt: now.toISOString() };
}

const isQueueName = (name: string): name is QueueName => (Object.values(QUEUE_NAMES) as string[]).includes(name);

/**
 * Moves a failed job back to waiting (the worker runs it again with its attempts left), audited
 * as 'queue.retry'. The audit row commits only if the retry happened.
 */
export async function retryJob(ctx: QueuesContext, admin: AuthUser, queueName: string, jobId: string): Promise<RetriedJob> {
  if (!isQueueName(queueName)) throw notFound(QUEUE_NOT_FOUND);
  const queue = ctx.queues[queueName];
  const job = await fromRedis(ctx, () => queue.getJob(jobId), 'job read');
  if (!job) throw notFound(JOB_NOT_FOUND);
  const state = await fromRedis(ctx, () => job.getState(), 'job state');
  if (state !== 'failed') throw conflict(JOB_NOT_FAILED);
  await ctx.db.transaction(async (tx) => {
    await recordAudit(tx, admin.id, {
      action: 'queue.retry',
      entityType: 'job',
      entityId: `${queueName}:${jobId}`,
      before: { state: 'failed', name: job.name, failedReason: job.failedReason ?? null, attemptsMade: job.attemptsMade },
      after: { state: 'waiting' },
    });
    try {
      await fromRedis(ctx, () => job.retry('failed'), 'job retry');
    } catch (err) {
      if (err instanceof HttpError) throw err;
      // Retried or removed meanwhile (another admin, the worker's clean-up): no longer failed.
      throw conflict(JOB_NOT_FAILED);
    }
  });
  return { id: String(job.id), queue: queueName };
}
