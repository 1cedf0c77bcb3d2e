import fp from 'fastify-plugin';
import { Queue, type Job, type JobsOptions } from 'bullmq';
import { JOB_QUEUES, QUEUE_NAMES, type JobName, type JobPayloads, type QueueName } from '@tribuna/contracts/jobs';
import { withTimeout } from '../http/timeout.ts';
import { closeRedisClient, createRedisClient } from './redis.ts';

export type Enqueue = <N extends JobName>(name: N, payload: JobPayloads[N], opts?: JobsOptions) => Promise<Job>;

declare module 'fastify' {
  interface FastifyInstance {
    queues: Record<QueueName, Queue>;
    /**
     * Adds a job to the queue its name belongs to. Rejects at once (QueueUnavailableError) while
     * the queue's Redis connection is not ready, and within ENQUEUE_TIMEOUT_MS if Redis stops
     * answering: callers enqueue after commit and decide whether a failure matters (the worker's
     * sweeps repair missed work), so a request never hangs on Redis.
     */
    enqueue: Enqueue;
    /** Whether the queues' Redis connection is ready; adding a job is skipped when it is not. */
    queuesReady(): boolean;
  }
}

/**
 * A job skipped because the queues' Redis connection is down. BullMQ's connection retries forever
 * (maxRetriesPerRequest: null), so a job added meanwhile would wait in ioredis's offline queue,
 * in memory, for as long as the outage lasts: one per vote batch or share.
 */
export class QueueUnavailableError extends Error {
  constructor(what: string) {
    super(`${what} skipped: the queue connection to Redis is not ready`);
    this.name = 'QueueUnavailableError';
  }
}

export const ENQUEUE_TIMEOUT_MS = 2000;

const DEFAULT_JOB_OPTIONS: JobsOptions = {
  attempts: 3,
  backoff: { type: 'exponential', delay: 1000 },
  removeOnComplete: { count: 1000 },
  removeOnFail: { count: 5000 },
};

export default fp(
  async (app) => {
    // BullMQ needs its own connection that retries forever (maxRetriesPerRequest: null).
    const connection = createRedisClient(app.config.redisUrl, 'tribuna-server-queues', app.log, {
      maxRetriesPerRequest: null,
      commandTimeout: undefined,
    });

    const queues = Object.fromEntries(
      Object.values(QUEUE_NAMES).map((name) => {
        const queue = new Queue(name, {
          connection,
          prefix: app.config.redisPrefix,
          defaultJobOptions: DEFAULT_JOB_OPTIONS,
        });
        // Connection problems are already logged by the connection watcher.
        queue.on('error', (err) => app.log.debug({ err: { message: err.message } }, `queue ${name} error`));
        return [name, queue];
      }),
    ) as Record<QueueName, Queue>;

    const queuesReady = () => connection.status === 'ready';
    const enqueue: Enqueue = (name, payload, opts) => {
      if (!queuesReady()) return Promise.reject(new QueueUnavailableError(`enqueue ${name}`));
      return withTimeout(queues[JOB_QUEUES[name]].add(name, payload, opts), ENQUEUE_TIMEOUT_MS, `enqueue ${name}`);
    };

    app.decorate('queues', queues);
    app.decorate('enqueue', enqueue);
    app.decorate('queuesReady', queuesReady);

    app.addHook('onClose', async () => {
      await Promise.allSettled(Object.values(queues).map((q) => withTimeout(q.close(), 2000, 'queue close')));
      await closeRedisClient(connection);
    });
  },
  { name: 'queues', dependencies: ['config'] },
);
