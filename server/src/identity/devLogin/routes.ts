import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AUTH_ROUTES } from '@tribuna/contracts/api/auth';
import { forbidden } from '../../http/errors.ts';
import { isLocalRequest } from '../../http/loopback.ts';
import { serve } from '../../http/serve.ts';
import { setSessionCookie } from '../sessions/cookies.ts';
import * as dev from './service.ts';

export const DEV_LOGIN_LOCAL_ONLY_MESSAGE = 'El acceso de desarrollo solo está disponible desde el mismo equipo del servidor.';

/**
 * Development sign-in (DEV_LOGIN, refused in production by the configuration): the routes do not
 * exist at all when it is off, so they answer 404. When on, they answer only this machine (a
 * loopback peer, and a loopback client behind TRUST_PROXY), whatever address the server listens on.
 */
const devLoginRoutes: FastifyPluginAsyncTypebox = async (app) => {
  if (!app.config.devLogin) return;
  const db = app.database.db;
  const trustProxy = app.config.trustProxy !== false;

  // Only these routes: the plugin is encapsulated.
  app.addHook('onRequest', async (request) => {
    if (!isLocalRequest(request, trustProxy)) throw forbidden(DEV_LOGIN_LOCAL_ONLY_MESSAGE);
  });

  serve(app, AUTH_ROUTES.devUsers, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return dev.listDevUsers(db);
  });

  serve(app, AUTH_ROUTES.devLogin, async (request, reply) => {
    const { authSession, issued } = await dev.devLogin(db, app.sessionCache, request.body, {
      userAgent: request.headers['user-agent'],
      ip: request.ip,
      previousSessionId: request.authSession?.id ?? null,
    });
    setSessionCookie(reply, app.config.publicUrl, issued.token, issued.expiresAt);
    reply.header('cache-control', 'no-store');
    return authSession;
  });
};

export default devLoginRoutes;
