import { Type, type Static } from '@sinclair/typebox';
import { IsoDate } from '../common.ts';
import { defineRoutes } from '../../route.ts';

export const FailedJob = Type.Object({
  id: Type.String(),
  name: Type.String(),
  failedReason: Type.String(),
  attemptsMade: Type.Integer({ minimum: 0 }),
  failedAt: Type.Union([IsoDate, Type.Null()]),
});
export type FailedJob = Static<typeof FailedJob>;

export const QueueHealth = Type.Object({
  name: Type.String(),
  counts: Type.Object({
    waiting: Type.Integer({ minimum: 0 }),
    active: Type.Integer({ minimum: 0 }),
    failed: Type.Integer({ minimum: 0 }),
    delayed: Type.Integer({ minimum: 0 }),
    completed: Type.Integer({ minimum: 0 }),
  }),
  /** Workers connected to the queue. */
  workers: Type.Integer({ minimum: 0 }),
  /** The latest failures, newest first (at most 20). */
  failures: Type.Array(FailedJob),
});
export type QueueHealth = Static<typeof QueueHealth>;

/** GET /api/admin/queues */
export const QueueHealthList = Type.Object({ queues: Type.Array(QueueHealth), checkedAt: IsoDate });
export type QueueHealthList = Static<typeof QueueHealthList>;

export const RetryJobParams = Type.Object(
  {
    queue: Type.String({ minLength: 1, maxLength: 50, pattern: '^[a-z-]+$' }),
    jobId: Type.String({ minLength: 1, maxLength: 200, pattern: '^[A-Za-z0-9._:-]+$' }),
  },
  { additionalProperties: false },
);
export type RetryJobParams = Static<typeof RetryJobParams>;

/** POST /api/admin/queues/:queue/jobs/:jobId/retry */
export const RetriedJob = Type.Object({ id: Type.String(), queue: Type.String() });
export type RetriedJob = Static<typeof RetriedJob>;

export const ADMIN_QUEUE_ROUTES = defineRoutes({
  adminQueues: {
    method: 'GET',
    path: '/api/admin/queues',
    status: 200,
    tags: ['admin'],
    summary: "The worker's queues: job counts, connected workers and the latest 20 failures",
    response: QueueHealthList,
    errors: [401, 403, 429, 503],
    rateLimit: 'admin.read',
  },
  retryJob: {
    method: 'POST',
    path: '/api/admin/queues/:queue/jobs/:jobId/retry',
    status: 200,
    tags: ['admin'],
    summary: 'Retry a failed job (back to waiting)',
    params: RetryJobParams,
    response: RetriedJob,
    errors: [400, 401, 403, 404, 409, 429, 503],
    rateLimit: 'admin.write',
  },
});
