import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest, FastifySchemaValidationError } from 'fastify';
import { ADMIN_USER_ROUTES } from '@tribuna/contracts/api/admin/users';
import { USER_ADMIN_MESSAGES } from '@tribuna/contracts/adminRules';
import { badRequest } from '../../http/errors.ts';
import { serve } from '../../http/serve.ts';
import { requireUser } from '../../identity/plugin.ts';
import * as groups from '../../groups/service.ts';
import * as users from './service.ts';

/**
 * The points form's own message (spec §5) when the amount is missing or not a whole number,
 * instead of the schema's sentence (zero is refused by the service with the same message).
 */
const POINTS_FORM = {
  attachValidation: true,
  preHandler: async (request: FastifyRequest) => {
    const error = request.validationError as (Error & { validation?: FastifySchemaValidationError[]; validationContext?: string }) | undefined;
    if (!error) return;
    if (error.validationContext === 'body') {
      for (const issue of error.validation ?? []) {
        const field = issue.keyword === 'required' ? String(issue.params.missingProperty) : issue.instancePath.split('/')[1];
        if (field === 'points' && ['required', 'type', 'multipleOf'].includes(issue.keyword)) throw badRequest(USER_ADMIN_MESSAGES.pointsRequired);
      }
    }
    throw error;
  },
};

/** /api/admin/users/*: the admin guard runs in the parent context (admin/routes.ts). */
const adminUserRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx: users.UsersContext = { db: app.database.db, publicUrl: app.config.publicUrl, sessionCache: app.sessionCache };

  serve(app, ADMIN_USER_ROUTES.adminUsers, async (request) => users.listUsers(ctx.db, request.query));

  serve(app, ADMIN_USER_ROUTES.updateAdminUser, async (request) => users.updateUser(ctx, requireUser(request), request.params.userId, request.body));

  serve(
    app,
    ADMIN_USER_ROUTES.adjustUserPoints,
    async (request) => users.adjustPoints(ctx.db, requireUser(request), request.params.userId, request.body),
    POINTS_FORM,
  );

  serve(app, ADMIN_USER_ROUTES.adminUserStats, async (request) => users.userStats(ctx.db, request.params.userId));

  serve(app, ADMIN_USER_ROUTES.suspendUser, async (request) => users.suspendUser(ctx, requireUser(request), request.params.userId));

  serve(app, ADMIN_USER_ROUTES.unsuspendUser, async (request) => users.unsuspendUser(ctx.db, requireUser(request), request.params.userId));

  serve(app, ADMIN_USER_ROUTES.adminUserGroups, async (request) => users.userGroups(ctx.db, request.params.userId));

  serve(app, ADMIN_USER_ROUTES.adminDeleteGroup, async (request, reply) => {
    // The admin guard passed: a site admin's powers, audited in the deletion's transaction (admin/plugin.ts).
    await groups.deleteGroup(app.groups, { id: requireUser(request).id, isAdmin: true }, request.params.groupId, { backOffice: true });
    return reply.code(204).send(null);
  });
};

export default adminUserRoutes;
