import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AUTH_ROUTES } from '@tribuna/contracts/api/auth';
import { serve } from '../../http/serve.ts';
import { requireSession, requireUser } from '../plugin.ts';
import { setSessionCookie } from '../sessions/cookies.ts';
import { defineAttemptCommands } from './attempts.ts';
import { SecretBox } from './secretBox.ts';
import * as factors from './service.ts';

/** Second factor (TOTP): enrol, challenge, verify, unenrol. */
const factorRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.database.db;
  defineAttemptCommands(app.redis);
  const context: factors.FactorContext = {
    db,
    redis: app.redis,
    key: app.redisKey,
    secrets: SecretBox.fromConfig(app.config),
    sessionCache: app.sessionCache,
  };

  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  serve(app, AUTH_ROUTES.listFactors, async (request) => factors.listFactors(db, requireUser(request)));

  serve(app, AUTH_ROUTES.enrolFactor, async (request) => factors.enrolFactor(context, requireUser(request)));

  serve(app, AUTH_ROUTES.factorChallenge, async (request) => factors.challengeFactor(context, requireSession(request), request.params.id));

  serve(app, AUTH_ROUTES.verifyFactor, async (request, reply) => {
    const { authSession, issued } = await factors.verifyFactor(context, requireSession(request), request.params.id, request.body, {
      userAgent: request.headers['user-agent'],
      ip: request.ip,
    });
    setSessionCookie(reply, app.config.publicUrl, issued.token, issued.expiresAt);
    return authSession;
  });

  serve(app, AUTH_ROUTES.deleteFactor, async (request, reply) => {
    await factors.unenrolFactor(context, requireUser(request), request.params.id, request.body.code);
    return reply.code(204).send(null);
  });
};

export default factorRoutes;
