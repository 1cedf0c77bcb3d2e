import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@fastify/type-provider-typebox';
import { AuthSession } from '@tribuna/contracts/api/auth';
import { DeleteAccountInput, Profile } from '@tribuna/contracts/api/me';
import { errorResponses } from '../http/errors.ts';
import { requireUser } from '../plugins/auth.ts';
import { clearSessionCookie } from '../sessions/cookies.ts';
import * as auth from './service.ts';

/** The current user, the sign-in state, sign-out and account deletion. */
const authRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.database.db;
  const { publicUrl } = app.config;

  app.get(
    '/api/me',
    {
      schema: {
        tags: ['auth'],
        summary: 'The signed-in profile (role included)',
        response: { 200: Profile, ...errorResponses(401, 429) },
      },
      config: { rateLimit: 'account.read' },
    },
    async (request, reply) => {
      const user = requireUser(request);
      reply.header('cache-control', 'no-store');
      return auth.getOwnProfile(db, user);
    },
  );

  app.delete(
    '/api/me',
    {
      schema: {
        tags: ['auth'],
        summary: 'Delete (anonymise) the own account and sign out everywhere; the body must confirm with ELIMINAR',
        body: DeleteAccountInput,
        response: { 204: Type.Null(), ...errorResponses(400, 401, 403, 429) },
      },
      config: { rateLimit: 'account.delete' },
    },
    async (request, reply) => {
      const user = requireUser(request);
      await auth.deleteOwnAccount(db, user, request.body.confirm);
      clearSessionCookie(reply, publicUrl);
      return reply.code(204).send(null);
    },
  );

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
