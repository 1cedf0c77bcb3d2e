import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { VOTE_MESSAGES, VOTE_ROUTES } from '@tribuna/contracts/api/votes';
import { serve } from '../http/serve.ts';
import { requireUser, requireWriter } from '../identity/plugin.ts';
import { storedUserAgent } from './rules.ts';
import * as votes from './service.ts';

/** Casting votes and reading one's own: the writer behind them is the votes plugin's (votes/plugin.ts). */
const voteRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.votes;

  serve(
    app,
    VOTE_ROUTES.castVote,
    async (request, reply) => {
      const user = requireWriter(request);
      const result = await votes.castVote(ctx, {
        userId: user.id,
        pollId: request.params.pollId,
        input: request.body,
        userAgent: storedUserAgent(request.headers['user-agent']),
        idempotencyKey: request.headers['idempotency-key'],
      });
      return reply.code(201).send(result);
    },
    // PostgreSQL out of reach (session or poll not cached): the same 503 as a failed batch.
    { config: { unavailableMessage: VOTE_MESSAGES.voteFailed } },
  );

  serve(app, VOTE_ROUTES.myVotes, async (request) => votes.getMyVotes(ctx, requireUser(request).id, request.params.pollId));

  serve(app, VOTE_ROUTES.availablePoints, async (request) => votes.getAvailablePoints(ctx, requireUser(request).id, request.params.pollId));
};

export default voteRoutes;
