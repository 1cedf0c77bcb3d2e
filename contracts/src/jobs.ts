// BullMQ queue and job names with their payloads. The worker refuses to start if a job
// name listed here has no handler, so adding a job here forces a handler to exist.

export const QUEUE_NAMES = { maintenance: 'maintenance' } as const;
export type QueueName = (typeof QUEUE_NAMES)[keyof typeof QUEUE_NAMES];

export interface JobPayloads {
  /** Recompute the daily usage aggregates for one calendar day in SHOW_TIMEZONE (YYYY-MM-DD). */
  'reports.aggregate-day': { day: string };
  /**
   * Recompute the last `days` calendar days ending today in SHOW_TIMEZONE (1 = today only).
   * The days are computed when the job runs, so repeatable schedules can carry a fixed payload.
   */
  'reports.aggregate-recent-days': { days: number };
}
export type JobName = keyof JobPayloads;

/** Which queue each job runs on. */
export const JOB_QUEUES: { [K in JobName]: QueueName } = {
  'reports.aggregate-day': QUEUE_NAMES.maintenance,
  'reports.aggregate-recent-days': QUEUE_NAMES.maintenance,
};

export const JOB_NAMES = Object.keys(JOB_QUEUES) as JobName[];
