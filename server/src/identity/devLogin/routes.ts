import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AuthSession, DevLoginInput, DevUserList } from '@tribuna/contracts/api/auth';
import { errorResponses, forbidden } from '../../http/errors.ts';
import { isLocalRequest } from '../../http/loopback.ts';
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

  app.get(
    '/api/auth/dev/users',
    {
      schema: {
        tags: ['auth'],
        summary: 'Demo users to act as (DEV_LOGIN only): admins first, then by name',
        response: { 200: DevUserList, ...errorResponses(403, 429) },
      },
      config: { rateLimit: 'auth.dev-users' },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return dev.listDevUsers(db);
    },
  );

  app.post(
    '/api/auth/dev/login',
    {
      schema: {
        tags: ['auth'],
        summary: 'Sign in as an existing user or a new one (DEV_LOGIN only); honours the second factor',
        body: DevLoginInput,
        response: { 200: AuthSession, ...errorResponses(400, 403, 404, 429) },
      },
      config: { rateLimit: 'auth.dev-login' },
    },
    async (request, reply) => {
      const { authSession, issued } = await dev.devLogin(db, request.body, {
        userAgent: request.headers['user-agent'],
        ip: request.ip,
        previousSessionId: request.authSession?.id ?? null,
      });
      setSessionCookie(reply, app.config.publicUrl, issued.token, issued.expiresAt);
      reply.header('cache-control', 'no-store');
      return authSession;
    },
  );
};

export default devLoginRoutes;
