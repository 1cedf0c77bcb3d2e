import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ShareInput, ShareResponse } from '@tribuna/contracts/api/shares';
import { errorResponses } from '../http/errors.ts';
import { requireWriter } from '../identity/plugin.ts';
import { PollParams } from '@tribuna/contracts/api/polls';
import * as shares from './service.ts';

const shareRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx: shares.SharesContext = {
    db: app.database.db,
    enqueue: app.enqueue,
    timeZone: app.config.showTimezone,
    log: app.log,
  };

  app.post(
    '/api/polls/:pollId/shares',
    {
      schema: {
        tags: ['votes'],
        summary: 'Record a share of a poll (once per poll per day) and earn its sharing bonus',
        params: PollParams,
        body: ShareInput,
        response: { 201: ShareResponse, ...errorResponses(400, 401, 403, 404, 409, 429) },
      },
      config: { rateLimit: 'shares.create', audience: 'writer' },
    },
    async (request, reply) => {
      const user = requireWriter(request);
      const result = await shares.sharePoll(ctx, user.id, request.params.pollId, request.body.platform);
      return reply.code(201).send(result);
    },
  );
};

export default shareRoutes;
