import { Queue, Worker, type Job, type JobsOptions } from 'bullmq';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Config } from '@tribuna/contracts/config';
import { QUEUE_NAMES, type JobName, type JobPayloads, type QueueName } from '@tribuna/contracts/jobs';
import { BUS_ORIGINS, busChannel, encodeBusMessage } from '@tribuna/contracts/events';
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

/**
 * After a Redis outage the award sweep waits this long: the servers' queue connections come back
 * within a couple of seconds of the worker's (their retry delay is capped at 2 s), and the votes they
 * commit until then skip their award jobs too.
 */
const RECONNECT_SWEEP_DELAY_MS = 10_000;

/**
 * Queues whose jobs run one at a time per worker process whatever `concurrency` says: a transcode
 * uses the CPU for seconds to minutes (FFmpeg at a low priority), two at once would only share it.
 */
const QUEUE_CONCURRENCY: Partial<Record<QueueName, number>> = { media: 1 };

/** Days recomputed when a worker starts, covering any time it was down. */
const CATCH_UP_DAYS = 7;

export async function startWorker(options: StartWorkerOptions): Promise<WorkerApp> {
  const { config, logger } = options;
  // Refuses to start when a job of the contracts has no handler.
  const registry = createRegistry(options.handlers ?? defaultHandlers);

  // BullMQ needs maxRetriesPerRequest: null; workers duplicate this connection for blocking reads.
  const connection = new Redis(config.redisUrl, { maxRetriesPerRequest: null, connectionName: 'tribuna-worker' });
  connection.on('error', (err) => logger.warn({ err: err.message }, 'redis connection error'));

  const queues = new Map<QueueName, Queue>();
  const workers: Worker[] = [];
  let closing = false;
  try {
    for (const name of Object.values(QUEUE_NAMES)) {
      queues.set(name, new Queue(name, { connection, prefix: config.redisPrefix, defaultJobOptions: DEFAULT_JOB_OPTIONS }));
      workers.push(createQueueWorker(name, options, registry.dispatch, connection));
    }
    await Promise.all(workers.map((w) => w.waitUntilReady()));

    if (options.schedules ?? true) {
      await scheduleAndCatchUp(queues, config, logger);
      // Redis may come back from an outage empty (no schedulers, no queued jobs), and the award
      // jobs the server skipped meanwhile wait for a sweep: once reconnected, the worker does what
      // it does at start (idempotent upserts, catch-up jobs with fixed ids).
      let lost = false;
      connection.on('close', () => {
        lost = true;
      });
      connection.on('ready', () => {
        if (!lost || closing) return;
        lost = false;
        logger.info('redis reconnected: registering the schedules and catching up again');
        scheduleAndCatchUp(queues, config, logger, RECONNECT_SWEEP_DELAY_MS).catch((err: unknown) =>
          logger.warn({ err }, 'schedules and catch-up after a Redis reconnection failed; the next reconnection or start retries'),
        );
      });
    }
  } catch (err) {
    await closeAll(workers, queues, connection);
    throw err;
  }

  return {
    queues,
    workers,
    enqueue: (name, data, jobId) => queueFor(queues, name).add(name, data, jobId ? { jobId } : {}),
    close: () => {
      closing = true;
      return closeAll(workers, queues, connection);
    },
  };
}

/** The repeatable schedules, and one catch-up run each of the report aggregation and the award sweep. */
async function scheduleAndCatchUp(queues: ReadonlyMap<QueueName, Queue>, config: Config, logger: Logger, sweepDelayMs = 0): Promise<void> {
  await registerSchedules(queues, config, logger);
  // Same id from every instance starting at once: BullMQ keeps a single pending copy.
  await queueFor(queues, 'reports.aggregate-recent-days').add(
    'reports.aggregate-recent-days',
    { days: CATCH_UP_DAYS },
    { jobId: 'reports.aggregate-recent-days.startup', removeOnComplete: true, removeOnFail: true },
  );
  // Awards missed while no worker ran (or Redis was down): incremental, from the last complete
  // sweep's start (before the worker went down), so the whole gap is covered.
  await queueFor(queues, 'points.sweep').add(
    'points.sweep',
    {},
    { jobId: 'points.sweep.startup', delay: sweepDelayMs, removeOnComplete: true, removeOnFail: true },
  );
}

function createQueueWorker(
  queueName: QueueName,
  { config, db, logger, concurrency }: StartWorkerOptions,
  dispatch: (name: string, payload: unknown, ctx: JobContext) => Promise<unknown>,
  connection: Redis,
): Worker {
  const channel = busChannel(config.redisPrefix);
  const publishEvent: JobContext['publishEvent'] = (name, payload) => connection.publish(channel, encodeBusMessage(name, payload, BUS_ORIGINS.worker));
  const worker = new Worker(
    queueName,
    async (job) => {
      const attempt = { number: job.attemptsMade + 1, max: job.opts.attempts ?? 1 };
      const jobLogger = logger.child({ queue: queueName, job: job.name, jobId: job.id, attempt: attempt.number });
      const started = performance.now();
      const result = await dispatch(job.name, job.data, { db, config, logger: jobLogger, publishEvent, attempt });
      jobLogger.debug({ ms: Math.round(performance.now() - started) }, 'job done');
      return result;
    },
    { connection, prefix: config.redisPrefix, concurrency: QUEUE_CONCURRENCY[queueName] ?? concurrency ?? 4 },
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
