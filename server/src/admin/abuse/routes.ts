import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ADMIN_ABUSE_ROUTES } from '@tribuna/contracts/api/admin/abuse';
import { serve } from '../../http/serve.ts';
import { requireUser } from '../../identity/plugin.ts';
import * as abuse from './service.ts';

/**
 * /api/admin/abuse/*: the abuse report (the worker's scans), the votes behind a flag, and voiding
 * or restoring them. The admin guard runs in the parent context (admin/routes.ts). A scan's
 * progress, published by the worker as the cluster event `abuse.scan-progress`, reaches the admins watching the
 * `admin` topic on every instance (admin/plugin.ts).
 */
const abuseRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx: abuse.AbuseContext = {
    db: app.database.db,
    outbox: app.outbox,
    live: app.pollsLive.store,
    timeZone: app.config.showTimezone,
    log: app.log,
  };

  serve(app, ADMIN_ABUSE_ROUTES.latestAbuseScan, async () => abuse.latestScan(ctx.db));

  serve(app, ADMIN_ABUSE_ROUTES.startAbuseScan, async (request, reply) => reply.code(202).send(await abuse.startScan(ctx, requireUser(request))));

  serve(app, ADMIN_ABUSE_ROUTES.abuseVotes, async (request) => abuse.listAbuseVotes(ctx.db, request.query));

  serve(app, ADMIN_ABUSE_ROUTES.voidVotes, async (request) => abuse.voidVotes(ctx, requireUser(request), request.body));

  serve(app, ADMIN_ABUSE_ROUTES.restoreVotes, async (request) => abuse.restoreVotes(ctx, requireUser(request), request.body));
};

export default abuseRoutes;
