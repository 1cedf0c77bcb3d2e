import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { HomePollResponse, Poll, PollListResponse, PollResults } from '@tribuna/contracts/api/polls';
import { errorResponses } from '../http/errors.ts';
import type { FastifyRequest } from 'fastify';
import { HomePollQuery, PollParams } from './schemas.ts';
import type { ResultsReader } from './rules.ts';
import * as polls from './service.ts';

/** Who reads results: the signed-in user (who may see voters lists), or null for a visitor. */
const readerOf = (request: FastifyRequest): ResultsReader => (request.user ? { id: request.user.id } : null);

const pollRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.database.db;

  app.get(
    '/api/polls/home',
    {
      schema: {
        tags: ['polls'],
        summary: 'The poll shown on the home page (or the shared one, ?encuesta=<id>) with its results',
        querystring: HomePollQuery,
        response: { 200: HomePollResponse, ...errorResponses(429) },
      },
      config: { rateLimit: 'polls.read' },
    },
    async (request) => polls.getHomePoll(db, readerOf(request), new Date(), request.query.encuesta),
  );

  app.get(
    '/api/polls',
    {
      schema: {
        tags: ['polls'],
        summary: 'Active and closed polls, featured first, then newest first',
        response: { 200: PollListResponse, ...errorResponses(429) },
      },
      config: { rateLimit: 'polls.read' },
    },
    async () => polls.listPolls(db),
  );

  app.get(
    '/api/polls/:pollId',
    {
      schema: {
        tags: ['polls'],
        summary: 'One public poll',
        params: PollParams,
        response: { 200: Poll, ...errorResponses(400, 404, 429) },
      },
      config: { rateLimit: 'polls.read' },
    },
    async (request) => polls.getPoll(db, request.params.pollId),
  );

  app.get(
    '/api/polls/:pollId/results',
    {
      schema: {
        tags: ['polls'],
        summary: 'Totals per option and, for signed-in readers, the latest voters named in each option (no points)',
        params: PollParams,
        response: { 200: PollResults, ...errorResponses(400, 403, 404, 429) },
      },
      config: { rateLimit: 'polls.results' },
    },
    async (request) => polls.getPollResults(db, request.params.pollId, readerOf(request), (pollId) => app.pollsLive.currentSeq(pollId)),
  );
};

export default pollRoutes;
