import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Profile } from '@tribuna/contracts/api/me';
import { errorResponses } from '../http/errors.ts';
import { requireUser } from '../plugins/auth.ts';

/** Placeholder until the accounts issue: without sessions every caller is a visitor. */
const authRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/api/me',
    {
      schema: {
        tags: ['auth'],
        summary: 'The signed-in profile',
        response: { 200: Profile, ...errorResponses(401) },
      },
    },
    async (request) => {
      requireUser(request);
      // Unreachable until sessions exist: requireUser throws 401 for every request today.
      throw new Error('profile lookup not implemented');
    },
  );
};

export default authRoutes;
