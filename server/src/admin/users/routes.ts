import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest, FastifySchemaValidationError } from 'fastify';
import {
  AdjustPointsInput,
  AdjustPointsResult,
  AdminUserList,
  AdminUserParams,
  AdminUserRow,
  AdminUsersQuery,
  AdminUserStats,
  UpdateAdminUserInput,
} from '@tribuna/contracts/api/admin/users';
import { USER_ADMIN_MESSAGES } from '@tribuna/contracts/adminRules';
import { badRequest, errorResponses } from '../../http/errors.ts';
import { requireUser } from '../../identity/plugin.ts';
import * as users from './service.ts';

const tags = ['admin'];

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
  const ctx: users.UsersContext = { db: app.database.db, publicUrl: app.config.publicUrl };

  // '' not '/': the list is /api/admin/users itself, without a trailing-slash twin.
  app.get(
    '',
    {
      schema: {
        tags,
        summary: 'Users newest first, searched by name, username or e-mail (partial, case ignored), by role and status; pages of 20',
        querystring: AdminUsersQuery,
        response: { 200: AdminUserList, ...errorResponses(400, 401, 403, 429) },
      },
      config: { rateLimit: 'admin.read' },
    },
    async (request) => users.listUsers(ctx.db, request.query),
  );

  app.patch(
    '/:userId',
    {
      schema: {
        tags,
        summary: "Edit a user's display name, username, bio, avatar URL or role",
        params: AdminUserParams,
        body: UpdateAdminUserInput,
        response: { 200: AdminUserRow, ...errorResponses(400, 401, 403, 404, 409, 429) },
      },
      config: { rateLimit: 'admin.write' },
    },
    async (request) => users.updateUser(ctx, requireUser(request), request.params.userId, request.body),
  );

  app.post(
    '/:userId/points',
    {
      schema: {
        tags,
        summary: "Add to or subtract from a user's points, with a history row (reason admin_adjustment)",
        params: AdminUserParams,
        body: AdjustPointsInput,
        response: { 200: AdjustPointsResult, ...errorResponses(400, 401, 403, 404, 429) },
      },
      config: { rateLimit: 'admin.write' },
      ...POINTS_FORM,
    },
    async (request) => users.adjustPoints(ctx.db, requireUser(request), request.params.userId, request.body),
  );

  app.get(
    '/:userId/stats',
    {
      schema: {
        tags,
        summary: "A user's votes, posts, comments and points by reason",
        params: AdminUserParams,
        response: { 200: AdminUserStats, ...errorResponses(400, 401, 403, 404, 429) },
      },
      config: { rateLimit: 'admin.read' },
    },
    async (request) => users.userStats(ctx.db, request.params.userId),
  );

  app.post(
    '/:userId/suspend',
    {
      schema: {
        tags,
        summary: 'Suspend a user and revoke all of their sessions',
        params: AdminUserParams,
        response: { 200: AdminUserRow, ...errorResponses(400, 401, 403, 404, 429) },
      },
      config: { rateLimit: 'admin.write' },
    },
    async (request) => users.suspendUser(ctx.db, requireUser(request), request.params.userId),
  );

  app.post(
    '/:userId/unsuspend',
    {
      schema: {
        tags,
        summary: 'Lift the suspension of a user',
        params: AdminUserParams,
        response: { 200: AdminUserRow, ...errorResponses(400, 401, 403, 404, 409, 429) },
      },
      config: { rateLimit: 'admin.write' },
    },
    async (request) => users.unsuspendUser(ctx.db, requireUser(request), request.params.userId),
  );
};

export default adminUserRoutes;
