import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest, FastifySchemaValidationError } from 'fastify';
import { ADMIN_POLL_ROUTES } from '@tribuna/contracts/api/admin/polls';
import { ADMIN_MESSAGES } from '@tribuna/contracts/adminRules';
import { badRequest } from '../../http/errors.ts';
import { serve } from '../../http/serve.ts';
import { requireUser } from '../../identity/plugin.ts';
import * as polls from './service.ts';

const LOCKED_FIELDS = new Set(['seasonId', 'voteMode', 'optionType']);

/**
 * The form's own message (spec §5) when the title or the season is missing or not even of the
 * right type or format (an unselected season sent as '' or null), instead of the schema's sentence;
 * an edit that names a locked field gets the lock's message.
 */
const POLL_FORM = {
  attachValidation: true,
  preHandler: async (request: FastifyRequest) => {
    const error = request.validationError as (Error & { validation?: FastifySchemaValidationError[]; validationContext?: string }) | undefined;
    if (!error) return;
    const messages: Record<string, string> = { title: ADMIN_MESSAGES.pollTitleRequired, seasonId: ADMIN_MESSAGES.pollSeasonRequired };
    if (error.validationContext === 'body') {
      for (const issue of error.validation ?? []) {
        // An edit naming the season, vote mode or option type: those are locked.
        if (issue.keyword === 'additionalProperties' && LOCKED_FIELDS.has(String(issue.params.additionalProperty))) {
          throw badRequest(ADMIN_MESSAGES.pollLocked);
        }
        if (!['required', 'type', 'format'].includes(issue.keyword)) continue;
        const field = issue.keyword === 'required' ? String(issue.params.missingProperty) : issue.instancePath.split('/')[1];
        const message = field === undefined ? undefined : messages[field];
        if (message) throw badRequest(message);
      }
    }
    throw error;
  },
};

/** /api/admin/polls/*: the back-office polls. The admin guard runs in the parent context (admin/routes.ts). */
const adminPollRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx: polls.AdminPollsContext = { db: app.database.db, events: app.events, live: app.pollsLive.store, log: app.log };

  serve(app, ADMIN_POLL_ROUTES.adminPolls, async (request) => polls.listPolls(ctx.db, request.query.seasonId));

  serve(
    app,
    ADMIN_POLL_ROUTES.createPoll,
    async (request, reply) => reply.code(201).send(await polls.createPoll(ctx, requireUser(request), request.body)),
    POLL_FORM,
  );

  serve(app, ADMIN_POLL_ROUTES.updatePoll, async (request) => polls.updatePoll(ctx, requireUser(request), request.params.pollId, request.body), POLL_FORM);

  serve(app, ADMIN_POLL_ROUTES.setPollStatus, async (request) => polls.setPollStatus(ctx, requireUser(request), request.params.pollId, request.body));

  serve(app, ADMIN_POLL_ROUTES.featurePoll, async (request) => polls.featurePoll(ctx, requireUser(request), request.params.pollId));

  serve(app, ADMIN_POLL_ROUTES.deletePoll, async (request, reply) => {
    await polls.deletePoll(ctx, requireUser(request), request.params.pollId);
    return reply.code(204).send(null);
  });
};

export default adminPollRoutes;
