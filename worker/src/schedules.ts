import type { JobsOptions, Queue, RepeatOptions } from 'bullmq';
import type { Logger } from 'pino';
import type { Config } from '@tribuna/contracts/config';
import { JOB_QUEUES, type JobName, type JobPayloads, type QueueName } from '@tribuna/contracts/jobs';

/** A repeatable job: a stable scheduler id (so every instance upserts the same one), a job and when. */
export type ScheduleDefinition = {
  [K in JobName]: { id: string; name: K; data: JobPayloads[K]; repeat: Omit<RepeatOptions, 'key'> };
}[JobName];

const ONE_HOUR = 60 * 60 * 1000;
const FIVE_MINUTES = 5 * 60 * 1000;
const ONE_MINUTE = 60 * 1000;
/** push.deliver: a 429's or 5xx's retry (5 s backoff, doubling) goes out at most this late. */
const PUSH_DELIVER_EVERY = 15 * 1000;

/** Completed and failed runs are kept for a while for inspection, never forever. */
export const RETENTION: Pick<JobsOptions, 'removeOnComplete' | 'removeOnFail'> = {
  removeOnComplete: { age: 24 * 3600, count: 500 },
  removeOnFail: { age: 7 * 24 * 3600, count: 1000 },
};

export function scheduleDefinitions(config: Config): ScheduleDefinition[] {
  return [
    {
      // Keeps today's figures fresh for the admin reports (one incremental run: today's rows only).
      id: 'reports.aggregate-today',
      name: 'reports.aggregate-recent-days',
      data: { days: 1 },
      repeat: { every: FIVE_MINUTES },
    },
    {
      // Just after midnight in the show's time zone: finalise yesterday (and start today).
      id: 'reports.aggregate-yesterday',
      name: 'reports.aggregate-recent-days',
      data: { days: 2 },
      repeat: { pattern: '5 0 * * *', tz: config.showTimezone },
    },
    {
      // Awards votes and shares whose award job was lost (Redis down at the time): those since the
      // last complete sweep (its watermark, minus an overlap).
      id: 'points.sweep',
      name: 'points.sweep',
      data: {},
      repeat: { every: FIVE_MINUTES },
    },
    {
      // Once a day at a quiet hour, the sweep's whole window (the last 3 days), whatever the
      // watermark: repairs an award lost behind it (e.g. an award job that failed all its attempts).
      id: 'points.sweep-full',
      name: 'points.sweep',
      data: { full: true },
      repeat: { pattern: '15 4 * * *', tz: config.showTimezone },
    },
    {
      // Available points are counted from 00:00: tell connected clients to refresh them.
      id: 'points.daily-reset',
      name: 'points.daily-reset',
      data: {},
      repeat: { pattern: '0 0 * * *', tz: config.showTimezone },
    },
    {
      // Ended sessions are kept 30 days, then deleted, at a quiet hour.
      id: 'sessions.purge',
      name: 'sessions.purge',
      data: { olderThanDays: 30 },
      repeat: { pattern: '30 4 * * *', tz: config.showTimezone },
    },
    {
      // A vote's Idempotency-Key replays its answer for 24 hours; an hourly purge keeps the table small.
      id: 'votes.purge-requests',
      name: 'votes.purge-requests',
      data: { olderThanHours: 24 },
      repeat: { every: ONE_HOUR },
    },
    {
      // Image files no media row names (a post that failed after its images were stored); an hour
      // of grace so an upload whose transaction is still open keeps its files.
      id: 'media.gc',
      name: 'media.gc',
      data: { olderThanMinutes: 60 },
      repeat: { every: ONE_HOUR },
    },
    {
      // The abuse report stays at most an hour old; an admin's refresh runs one at once.
      id: 'abuse.scan',
      name: 'abuse.scan',
      data: {},
      repeat: { every: ONE_HOUR },
    },
    {
      // Web push: retries whose time came (429, 5xx, network), messages a dead worker claimed and
      // never confirmed (after the claim timeout), broadcasts whose job was lost.
      id: 'push.deliver',
      name: 'push.deliver',
      data: {},
      repeat: { every: PUSH_DELIVER_EVERY },
    },
    {
      // 'Cierra pronto' for each active poll ending within PUSH_LIMITS.closingLeadMinutes, once.
      id: 'push.closing-soon',
      name: 'push.closing-soon',
      data: {},
      repeat: { every: ONE_MINUTE },
    },
    {
      // Fans' pushes whose push.user job was lost (Redis down when the server added it).
      id: 'push.sweep',
      name: 'push.sweep',
      data: {},
      repeat: { every: ONE_MINUTE },
    },
  ];
}

/**
 * Upserts every schedule on its queue and removes schedulers we no longer define, so a renamed
 * or dropped schedule does not keep firing from Redis. Safe to run from every worker instance.
 */
export async function registerSchedules(queues: ReadonlyMap<QueueName, Queue>, config: Config, logger: Logger): Promise<ScheduleDefinition[]> {
  const definitions = scheduleDefinitions(config);
  for (const schedule of definitions) {
    const queue = queueFor(queues, schedule.name);
    await queue.upsertJobScheduler(schedule.id, schedule.repeat, {
      name: schedule.name,
      data: schedule.data,
      opts: { attempts: 3, backoff: { type: 'exponential', delay: 10_000 }, ...RETENTION },
    });
  }
  const wanted = new Set(definitions.map((d) => d.id));
  for (const queue of queues.values()) {
    for (const existing of await queue.getJobSchedulers()) {
      if (!wanted.has(existing.key)) {
        await queue.removeJobScheduler(existing.key);
        logger.info({ scheduler: existing.key, queue: queue.name }, 'removed obsolete job scheduler');
      }
    }
  }
  logger.info({ schedules: definitions.map((d) => d.id) }, 'job schedules registered');
  return definitions;
}

export function queueFor(queues: ReadonlyMap<QueueName, Queue>, name: JobName): Queue {
  const queue = queues.get(JOB_QUEUES[name]);
  if (!queue) throw new Error(`Queue "${JOB_QUEUES[name]}" of job "${name}" is not open`);
  return queue;
}
