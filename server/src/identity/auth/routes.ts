import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AUTH_ROUTES } from '@tribuna/contracts/api/auth';
import { serve } from '../../http/serve.ts';
import { clearSessionCookie } from '../sessions/cookies.ts';
import * as auth from './service.ts';

/** The sign-in state and sign-out. */
const authRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.database.db;
  const { publicUrl } = app.config;

  serve(app, AUTH_ROUTES.authSession, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return auth.describeSession(db, request.authSession);
  });

  serve(app, AUTH_ROUTES.logout, async (request, reply) => {
    await auth.signOut(db, app.sessionCache, request.authSession?.id ?? null);
    clearSessionCookie(reply, publicUrl);
    return reply.code(204).send(null);
  });
};

export default authRoutes;
