import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@fastify/type-provider-typebox';
import { AuthSession } from '@tribuna/contracts/api/auth';
import { errorResponses } from '../../http/errors.ts';
import { clearSessionCookie } from '../sessions/cookies.ts';
import * as auth from './service.ts';

/** The sign-in state and sign-out. */
const authRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.database.db;
  const { publicUrl } = app.config;

  app.get(
    '/api/auth/session',
    {
      schema: {
        tags: ['auth'],
        summary: 'Where this browser stands in the sign-in flow (never 401)',
        response: { 200: AuthSession, ...errorResponses(429) },
      },
      config: { rateLimit: 'auth.session' },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return auth.describeSession(db, request.authSession);
    },
  );

  app.post(
    '/auth/logout',
    {
      schema: {
        tags: ['auth'],
        summary: 'Sign out: revokes the session and clears its cookie (also fine without a session)',
        response: { 204: Type.Null(), ...errorResponses(403, 429) },
      },
      config: { rateLimit: 'auth.logout' },
    },
    async (request, reply) => {
      await auth.signOut(db, request.authSession?.id ?? null);
      clearSessionCookie(reply, publicUrl);
      return reply.code(204).send(null);
    },
  );
};

export default authRoutes;
