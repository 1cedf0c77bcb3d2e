import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AvailablePoints, CastVoteHeaders, CastVoteInput, MyVotesResponse, VOTE_MESSAGES } from '@tribuna/contracts/api/votes';
import { errorResponses } from '../http/errors.ts';
import { requireUser, requireWriter } from '../identity/plugin.ts';
import { storedUserAgent } from './rules.ts';
import { PollParams } from '@tribuna/contracts/api/polls';
import * as votes from './service.ts';

/** Casting votes and reading one's own: the writer behind them is the votes plugin's (votes/plugin.ts). */
const voteRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.votes;

  app.post(
    '/api/polls/:pollId/votes',
    {
      schema: {
        tags: ['votes'],
        summary: 'Vote: one option (single choice, replaces the earlier vote) or points across options',
        params: PollParams,
        headers: CastVoteHeaders,
        body: CastVoteInput,
        response: { 201: MyVotesResponse, ...errorResponses(400, 401, 403, 404, 409, 422, 429, 503) },
      },
      // PostgreSQL out of reach (session or poll not cached): the same 503 as a failed batch.
      config: { rateLimit: 'votes.cast', audience: 'writer', unavailableMessage: VOTE_MESSAGES.voteFailed },
    },
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
  );

  app.get(
    '/api/polls/:pollId/my-votes',
    {
      schema: {
        tags: ['votes'],
        summary: "The signed-in user's votes on a poll and the points still available",
        params: PollParams,
        response: { 200: MyVotesResponse, ...errorResponses(400, 401, 404, 429) },
      },
      config: { rateLimit: 'votes.mine', audience: 'user' },
    },
    async (request) => votes.getMyVotes(ctx, requireUser(request).id, request.params.pollId),
  );

  app.get(
    '/api/polls/:pollId/available-points',
    {
      schema: {
        tags: ['votes'],
        summary: 'Points the signed-in user may still assign on a poll, and when they reset',
        params: PollParams,
        response: { 200: AvailablePoints, ...errorResponses(400, 401, 404, 429) },
      },
      config: { rateLimit: 'votes.mine', audience: 'user' },
    },
    async (request) => votes.getAvailablePoints(ctx, requireUser(request).id, request.params.pollId),
  );
};

export default voteRoutes;
