import { Queue, Worker, type Job, type JobsOptions } from 'bullmq';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Config } from '@tribuna/contracts/config';
import { QUEUE_NAMES, type JobName, type JobPayloads, type QueueName } from '@tribuna/contracts/jobs';
import type { Db } from '@tribuna/drizzle/client';
import type { JobContext } from './context.ts';
import { handlers as defaultHandlers } from './handlers.ts';
import { createRegistry, type JobHandlers } from './registry.ts';
import { queueFor, registerSchedules, RETENTION } from './schedules.ts';

export interface StartWorkerOptions {
  config: Config;
  db: Db;
  logger: Logger;
  handlers?: Partial<JobHandlers>;
  /** Register the repeatable schedules and the start-up catch-up (default true). */
  schedules?: boolean;
  concurrency?: number;
}

export interface WorkerApp {
  queues: ReadonlyMap<QueueName, Queue>;
  workers: readonly Worker[];
  /** Adds a job to the queue its name belongs to (tests, start-up catch-up). */
  enqueue<K extends JobName>(name: K, data: JobPayloads[K], jobId?: string): Promise<Job>;
  /** Stops taking jobs, waits for the running ones, then closes queues and Redis. */
  close(): Promise<void>;
}

const DEFAULT_JOB_OPTIONS: JobsOptions = {
  attempts: 3,
  backoff: { type: 'exponential', delay: 5_000 },
  ...RETENTION,
};

/** Days recomputed when a worker starts, covering any time it was down. */
const CATCH_UP_DAYS = 7;

export async function startWorker(options: StartWorkerOptions): Promise<WorkerApp> {
  const { config, db, logger } = options;
  // Refuses to start when a job of the contracts has no handler.
  const registry = createRegistry(options.handlers ?? defaultHandlers);

  // BullMQ needs maxRetriesPerRequest: null; workers duplicate this connection for blocking reads.
  const connection = new Redis(config.redisUrl, { maxRetriesPerRequest: null, connectionName: 'tribuna-worker' });
  connection.on('error', (err) => logger.warn({ err: err.message }, 'redis connection error'));

  const queues = new Map<QueueName, Queue>();
  const workers: Worker[] = [];
  try {
    for (const name of Object.values(QUEUE_NAMES)) {
      queues.set(name, new Queue(name, { connection, prefix: config.redisPrefix, defaultJobOptions: DEFAULT_JOB_OPTIONS }));
      workers.push(createQueueWorker(name, options, registry.dispatch, connection));
    }
    await Promise.all(workers.map((w) => w.waitUntilReady()));

    if (options.schedules ?? true) {
      await registerSchedules(queues, config, logger);
      // Same id from every instance starting at once: BullMQ keeps a single pending copy.
      await queueFor(queues, 'reports.aggregate-recent-days').add(
        'reports.aggregate-recent-days',
        { days: CATCH_UP_DAYS },
        { jobId: 'reports.aggregate-recent-days.startup', removeOnComplete: true, removeOnFail: true },
      );
      // Awards missed while no worker ran (or Redis was down).
      await queueFor(queues, 'points.sweep').add(
        'points.sweep',
        {},
        { jobId: 'points.sweep.startup', removeOnComplete: true, removeOnFail: true },
      );
    }
  } catch (err) {
    await closeAll(workers, queues, connection);
    throw err;
  }

  return {
    queues,
    workers,
    enqueue: (name, data, jobId) => queueFor(queues, name).add(name, data, jobId ? { jobId } : {}),
    close: () => closeAll(workers, queues, connection),
  };
}

function createQueueWorker(
  queueName: QueueName,
  { config, db, logger, concurrency }: StartWorkerOptions,
  dispatch: (name: string, payload: unknown, ctx: JobContext) => Promise<unknown>,
  connection: Redis,
): Worker {
  const publish = (channel: string, message: string) => connection.publish(channel, message);
  const worker = new Worker(
    queueName,
    async (job) => {
      const jobLogger = logger.child({ queue: queueName, job: job.name, jobId: job.id, attempt: job.attemptsMade + 1 });
      const started = performance.now();
      const result = await dispatch(job.name, job.data, { db, config, logger: jobLogger, publish });
      jobLogger.debug({ ms: Math.round(performance.now() - started) }, 'job done');
      return result;
    },
    { connection, prefix: config.redisPrefix, concurrency: concurrency ?? 4 },
  );
  worker.on('failed', (job, err) => {
    logger.error({ queue: queueName, job: job?.name, jobId: job?.id, attempts: job?.attemptsMade, err }, 'job failed');
  });
  worker.on('error', (err) => logger.error({ queue: queueName, err }, 'worker error'));
  return worker;
}

async function closeAll(workers: readonly Worker[], queues: ReadonlyMap<QueueName, Queue>, connection: Redis): Promise<void> {
  // Workers first: close() lets the active jobs finish before it resolves.
  await Promise.allSettled(workers.map((w) => w.close()));
  await Promise.allSettled([...queues.values()].map((q) => q.close()));
  await connection.quit().catch(() => connection.disconnect());
}
