import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { QueueHealthList, RetriedJob, RetryJobParams } from '@tribuna/contracts/api/admin/queues';
import { errorResponses } from '../../http/errors.ts';
import { requireUser } from '../../identity/plugin.ts';
import * as queues from './service.ts';

const tags = ['admin'];

/** /api/admin/queues*: the admin guard runs in the parent context (admin/routes.ts). */
const queueRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx: queues.QueuesContext = { db: app.database.db, queues: app.queues, queuesReady: () => app.queuesReady() };

  app.get(
    '/queues',
    {
      schema: {
        tags,
        summary: "The worker's queues: job counts, connected workers and the latest 20 failures",
        response: { 200: QueueHealthList, ...errorResponses(401, 403, 429, 503) },
      },
      config: { rateLimit: 'admin.read' },
    },
    async () => queues.listQueues(ctx),
  );

  app.post(
    '/queues/:queue/jobs/:jobId/retry',
    {
      schema: {
        tags,
        summary: 'Retry a failed job (back to waiting)',
        params: RetryJobParams,
        response: { 200: RetriedJob, ...errorResponses(400, 401, 403, 404, 409, 429, 503) },
      },
      config: { rateLimit: 'admin.write' },
    },
    async (request) => queues.retryJob(ctx, requireUser(request), request.params.queue, request.params.jobId),
  );
};

export default queueRoutes;
