import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@fastify/type-provider-typebox';
import { DeleteAccountInput, Profile } from '@tribuna/contracts/api/me';
import { errorResponses } from '../http/errors.ts';
import { requireUser } from '../plugins/auth.ts';
import { clearSessionCookie } from '../sessions/cookies.ts';
import * as account from './account.ts';

/** The signed-in user's own profile and account deletion (/api/me). */
const profileRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.database.db;
  const { publicUrl } = app.config;

  app.get(
    '/api/me',
    {
      schema: {
        tags: ['profiles'],
        summary: 'The signed-in profile (role included)',
        response: { 200: Profile, ...errorResponses(401, 429) },
      },
      config: { rateLimit: 'account.read' },
    },
    async (request, reply) => {
      const user = requireUser(request);
      reply.header('cache-control', 'no-store');
      return account.getOwnProfile(db, user);
    },
  );

  app.delete(
    '/api/me',
    {
      schema: {
        tags: ['profiles'],
        summary: 'Delete (anonymise) the own account and sign out everywhere; the body must confirm with ELIMINAR',
        body: DeleteAccountInput,
        response: { 204: Type.Null(), ...errorResponses(400, 401, 403, 429) },
      },
      config: { rateLimit: 'account.delete' },
    },
    async (request, reply) => {
      const user = requireUser(request);
      await account.deleteOwnAccount(db, user, request.body.confirm);
      clearSessionCookie(reply, publicUrl);
      return reply.code(204).send(null);
    },
  );

};

export default profileRoutes;
