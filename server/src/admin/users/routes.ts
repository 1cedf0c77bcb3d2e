import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Profile } from '@tribuna/contracts/api/me';
import { errorResponses } from '../../http/errors.ts';
import { requireUser } from '../../plugins/auth.ts';
import { UserParams } from './schemas.ts';
import * as users from './service.ts';

/** /api/admin/users/*: the admin guard runs in the parent context (admin/routes.ts). */
const adminUserRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.database.db;

  app.post(
    '/:userId/suspend',
    {
      schema: {
        tags: ['admin'],
        summary: 'Suspend a user and revoke all of their sessions',
        params: UserParams,
        response: { 200: Profile, ...errorResponses(400, 401, 403, 404, 429) },
      },
      config: { rateLimit: 'admin.write' },
    },
    async (request) => users.suspendUser(db, requireUser(request), request.params.userId),
  );

  app.post(
    '/:userId/unsuspend',
    {
      schema: {
        tags: ['admin'],
        summary: 'Lift the suspension of a user',
        params: UserParams,
        response: { 200: Profile, ...errorResponses(400, 401, 403, 404, 429) },
      },
      config: { rateLimit: 'admin.write' },
    },
    async (request) => users.unsuspendUser(db, request.params.userId),
  );
};

export default adminUserRoutes;
