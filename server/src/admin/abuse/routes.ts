import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AbuseScanView,
  AbuseVoteList,
  AbuseVotesQuery,
  LatestAbuseScan,
  RestoreVotesInput,
  VoidResult,
  VoidVotesInput,
} from '@tribuna/contracts/api/admin/abuse';
import { errorResponses } from '../../http/errors.ts';
import { requireUser } from '../../identity/plugin.ts';
import * as abuse from './service.ts';

const tags = ['admin'];

/**
 * /api/admin/abuse/*: the abuse report (the worker's scans), the votes behind a flag, and voiding
 * or restoring them. The admin guard runs in the parent context (admin/routes.ts). A scan's
 * progress, published by the worker as the `abuse-scan` LiveEvent, reaches the admins watching the
 * `admin` topic on every instance (admin/plugin.ts).
 */
const abuseRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx: abuse.AbuseContext = {
    db: app.database.db,
    enqueue: app.enqueue,
    live: app.pollsLive.store,
    timeZone: app.config.showTimezone,
    log: app.log,
  };

  app.get(
    '/abuse/scans/latest',
    {
      schema: {
        tags,
        summary: 'The latest abuse scan (queued, running, done or failed), with its report when done',
        response: { 200: LatestAbuseScan, ...errorResponses(401, 403, 429) },
      },
      config: { rateLimit: 'admin.read' },
    },
    async () => abuse.latestScan(ctx.db),
  );

  app.post(
    '/abuse/scans',
    {
      schema: {
        tags,
        summary: 'Start an abuse scan in the worker (or answer the one already queued or running)',
        response: { 202: AbuseScanView, ...errorResponses(401, 403, 429, 503) },
      },
      config: { rateLimit: 'admin.write' },
    },
    async (request, reply) => reply.code(202).send(await abuse.startScan(ctx, requireUser(request))),
  );

  app.get(
    '/abuse/votes',
    {
      schema: {
        tags,
        summary: 'Live and voided votes of one device (fingerprint) or one user (userId), newest first',
        querystring: AbuseVotesQuery,
        response: { 200: AbuseVoteList, ...errorResponses(400, 401, 403, 429) },
      },
      config: { rateLimit: 'admin.read' },
    },
    async (request) => abuse.listAbuseVotes(ctx.db, request.query),
  );

  app.post(
    '/abuse/votes/void',
    {
      schema: {
        tags,
        summary: 'Void votes after review, with a reason: out of the results and the live totals at once',
        body: VoidVotesInput,
        response: { 200: VoidResult, ...errorResponses(400, 401, 403, 429) },
      },
      config: { rateLimit: 'admin.write' },
    },
    async (request) => abuse.voidVotes(ctx, requireUser(request), request.body),
  );

  app.post(
    '/abuse/votes/restore',
    {
      schema: {
        tags,
        summary: 'Restore voided votes (skipping those the voter has replaced since)',
        body: RestoreVotesInput,
        response: { 200: VoidResult, ...errorResponses(400, 401, 403, 429) },
      },
      config: { rateLimit: 'admin.write' },
    },
    async (request) => abuse.restoreVotes(ctx, requireUser(request), request.body),
  );
};

export default abuseRoutes;
