import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { POLL_ROUTES } from '@tribuna/contracts/api/polls';
import type { FastifyRequest } from 'fastify';
import { serve } from '../http/serve.ts';
import type { ResultsReader } from './rules.ts';
import * as polls from './service.ts';

/** Who reads results: the signed-in user (who may see voters lists), or null for a visitor. */
const readerOf = (request: FastifyRequest): ResultsReader => (request.user ? { id: request.user.id } : null);

const pollRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.database.db;

  serve(app, POLL_ROUTES.homePoll, async (request) => polls.getHomePoll(db, readerOf(request), new Date(), request.query.encuesta));

  serve(app, POLL_ROUTES.listPolls, async () => polls.listPolls(db));

  serve(app, POLL_ROUTES.getPoll, async (request) => polls.getPoll(db, request.params.pollId));

  serve(app, POLL_ROUTES.pollResults, async (request) =>
    polls.getPollResults(db, request.params.pollId, readerOf(request), (pollId) => app.pollsLive.currentSeq(pollId)),
  );
};

export default pollRoutes;
