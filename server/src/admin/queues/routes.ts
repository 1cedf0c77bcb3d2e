import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ADMIN_QUEUE_ROUTES } from '@tribuna/contracts/api/admin/queues';
import { serve } from '../../http/serve.ts';
import { requireUser } from '../../identity/plugin.ts';
import * as queues from './service.ts';

/** /api/admin/queues*: the admin guard runs in the parent context (admin/routes.ts). */
const queueRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx: queues.QueuesContext = { db: app.database.db, queues: app.queues, queuesReady: () => app.queuesReady() };

  serve(app, ADMIN_QUEUE_ROUTES.adminQueues, async () => queues.listQueues(ctx));

  serve(app, ADMIN_QUEUE_ROUTES.retryJob, async (request) => queues.retryJob(ctx, requireUser(request), request.params.queue, request.params.jobId));
};

export default queueRoutes;
