import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { MODERATION_ROUTES } from '@tribuna/contracts/api/moderation';
import * as access from '../access/policy.ts';
import { forbidden } from '../http/errors.ts';
import { serve } from '../http/serve.ts';
import { ADMIN_MFA_REQUIRED } from '../identity/adminGuard.ts';
import { NOT_AUTHORIZED, SUSPENDED_MESSAGE, requireUser } from '../identity/plugin.ts';
import * as moderation from './service.ts';

/**
 * The moderation queue's guard (not /api/admin's: moderators work it too): site admins by
 * holdsAdminPowers (with REQUIRE_ADMIN_MFA, verified with the second factor) and moderators who are
 * not suspended. Visitors 401; everybody else 403, before the body is read.
 */
function requireStaff(request: FastifyRequest): moderation.Staff {
  const user = requireUser(request);
  const requireMfa = request.server.config.requireAdminMfa;
  if (access.holdsModerationPowers(user, requireMfa)) return { id: user.id, isAdmin: access.holdsAdminPowers(user, requireMfa) };
  if (user.isSuspended) throw forbidden(SUSPENDED_MESSAGE);
  if (user.role === 'admin') throw forbidden(ADMIN_MFA_REQUIRED);
  throw forbidden(NOT_AUTHORIZED);
}

const staffOnly = { onRequest: async (request: FastifyRequest) => void requireStaff(request) };

/** Reports (fans) and the moderation queue with its actions (site admins and moderators), issue 29. */
const moderationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.moderation;

  serve(app, MODERATION_ROUTES.createReport, async (request, reply) => {
    const reporter = access.viewerOf(requireUser(request), app.config.requireAdminMfa)!;
    return reply.code(201).send(await moderation.createReport(ctx, reporter, request.body));
  });

  serve(app, MODERATION_ROUTES.moderationQueue, async (request) => moderation.getQueue(ctx, requireStaff(request), request.query), staffOnly);

  serve(app, MODERATION_ROUTES.moderationCount, async () => moderation.getCount(ctx), staffOnly);

  serve(app, MODERATION_ROUTES.moderate, async (request) => moderation.moderate(ctx, requireStaff(request), request.body), staffOnly);
};

export default moderationRoutes;
