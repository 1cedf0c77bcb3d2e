import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { SHARE_ROUTES } from '@tribuna/contracts/api/shares';
import { serve } from '../http/serve.ts';
import { requireWriter } from '../identity/plugin.ts';
import * as shares from './service.ts';

const shareRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx: shares.SharesContext = {
    db: app.database.db,
    outbox: app.outbox,
    timeZone: app.config.showTimezone,
  };

  serve(app, SHARE_ROUTES.share, async (request, reply) => {
    const user = requireWriter(request);
    const result = await shares.sharePoll(ctx, user.id, request.params.pollId, request.body.platform);
    return reply.code(201).send(result);
  });
};

export default shareRoutes;
