import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest, FastifySchemaValidationError } from 'fastify';
import {
  AdminPollList,
  AdminPollParams,
  AdminPollQuery,
  AdminPollView,
  CreatePollInput,
  PollStatusInput,
  UpdatePollInput,
} from '@tribuna/contracts/api/admin/polls';
import { ADMIN_MESSAGES } from '@tribuna/contracts/adminRules';
import { badRequest, errorResponses } from '../../http/errors.ts';
import { requireUser } from '../../identity/plugin.ts';
import * as polls from './service.ts';

const tags = ['admin'];
const NoContent = Type.Null();

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

  app.get(
    '/polls',
    {
      schema: {
        tags,
        summary: 'Polls, newest first (optionally of one season), with their options and vote counts',
        querystring: AdminPollQuery,
        response: { 200: AdminPollList, ...errorResponses(400, 401, 403, 429) },
      },
      config: { rateLimit: 'admin.read' },
    },
    async (request) => polls.listPolls(ctx.db, request.query.seasonId),
  );

  app.post(
    '/polls',
    {
      schema: {
        tags,
        summary: 'Create a poll (draft or active) with its options and points config',
        body: CreatePollInput,
        response: { 201: AdminPollView, ...errorResponses(400, 401, 403, 429) },
      },
      config: { rateLimit: 'admin.write' },
      ...POLL_FORM,
    },
    async (request, reply) => reply.code(201).send(await polls.createPoll(ctx, requireUser(request), request.body)),
  );

  app.put(
    '/polls/:pollId',
    {
      schema: {
        tags,
        summary: 'Edit a poll: options keep their ids and votes; one left out with votes leaves the ballot, its votes kept',
        params: AdminPollParams,
        body: UpdatePollInput,
        response: { 200: AdminPollView, ...errorResponses(400, 401, 403, 404, 429) },
      },
      config: { rateLimit: 'admin.write' },
      ...POLL_FORM,
    },
    async (request) => polls.updatePoll(ctx, requireUser(request), request.params.pollId, request.body),
  );

  app.post(
    '/polls/:pollId/status',
    {
      schema: {
        tags,
        summary: 'Cerrar (active → closed), Reabrir (closed → active) or activate a draft',
        params: AdminPollParams,
        body: PollStatusInput,
        response: { 200: AdminPollView, ...errorResponses(400, 401, 403, 404, 409, 429) },
      },
      config: { rateLimit: 'admin.write' },
    },
    async (request) => polls.setPollStatus(ctx, requireUser(request), request.params.pollId, request.body),
  );

  app.post(
    '/polls/:pollId/feature',
    {
      schema: {
        tags,
        summary: 'Fijar en Landing: make this the single featured poll (shown on home whatever its status); a draft is refused (409)',
        params: AdminPollParams,
        response: { 200: AdminPollView, ...errorResponses(400, 401, 403, 404, 409, 429) },
      },
      config: { rateLimit: 'admin.write' },
    },
    async (request) => polls.featurePoll(ctx, requireUser(request), request.params.pollId),
  );

  app.delete(
    '/polls/:pollId',
    {
      schema: {
        tags,
        summary: 'Delete a poll with its votes, options, points config and live totals',
        params: AdminPollParams,
        response: { 204: NoContent, ...errorResponses(400, 401, 403, 404, 429) },
      },
      config: { rateLimit: 'admin.write' },
    },
    async (request, reply) => {
      await polls.deletePoll(ctx, requireUser(request), request.params.pollId);
      return reply.code(204).send(null);
    },
  );
};

export default adminPollRoutes;
