import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@fastify/type-provider-typebox';
import { AuthSession, Challenge, FactorEnrolment, FactorList, UnenrolFactorInput, VerifyFactorInput } from '@tribuna/contracts/api/auth';
import { errorResponses } from '../../http/errors.ts';
import { requireSession, requireUser } from '../plugin.ts';
import { setSessionCookie } from '../sessions/cookies.ts';
import { defineAttemptCommands } from './attempts.ts';
import { FactorParams } from './schemas.ts';
import { SecretBox } from './secretBox.ts';
import * as factors from './service.ts';

/** Second factor (TOTP): enrol, challenge, verify, unenrol. */
const factorRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.database.db;
  defineAttemptCommands(app.redis);
  const context: factors.FactorContext = { db, redis: app.redis, key: app.redisKey, secrets: SecretBox.fromConfig(app.config) };

  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  app.get(
    '/api/auth/factors',
    {
      schema: {
        tags: ['auth'],
        summary: 'The second factors of the signed-in user',
        response: { 200: FactorList, ...errorResponses(401, 429) },
      },
      config: { rateLimit: 'factors.list', audience: 'user' },
    },
    async (request) => factors.listFactors(db, requireUser(request)),
  );

  app.post(
    '/api/auth/factors',
    {
      schema: {
        tags: ['auth'],
        summary: 'Enrol a TOTP factor (unverified until its first code); replaces an earlier unverified one',
        response: { 200: FactorEnrolment, ...errorResponses(400, 401, 403, 429) },
      },
      config: { rateLimit: 'factors.enrol', audience: 'user' },
    },
    async (request) => factors.enrolFactor(context, requireUser(request)),
  );

  app.post(
    '/api/auth/factors/:id/challenge',
    {
      schema: {
        tags: ['auth'],
        summary: 'Open a challenge for a factor (valid 5 minutes); also during a sign-in owing its second factor',
        params: FactorParams,
        response: { 200: Challenge, ...errorResponses(400, 401, 403, 404, 429, 503) },
      },
      config: { rateLimit: 'factors.challenge', audience: 'session' },
    },
    async (request) => factors.challengeFactor(context, requireSession(request), request.params.id),
  );

  app.post(
    '/api/auth/factors/:id/verify',
    {
      schema: {
        tags: ['auth'],
        summary: 'Answer a challenge with a code: confirms the factor, raises the session to aal2, completes a pending sign-in',
        params: FactorParams,
        body: VerifyFactorInput,
        response: { 200: AuthSession, ...errorResponses(400, 401, 403, 404, 429, 503) },
      },
      config: { rateLimit: 'factors.verify', audience: 'session' },
    },
    async (request, reply) => {
      const { authSession, issued } = await factors.verifyFactor(context, requireSession(request), request.params.id, request.body, {
        userAgent: request.headers['user-agent'],
        ip: request.ip,
      });
      setSessionCookie(reply, app.config.publicUrl, issued.token, issued.expiresAt);
      return authSession;
    },
  );

  app.delete(
    '/api/auth/factors/:id',
    {
      schema: {
        tags: ['auth'],
        summary: 'Remove a factor; a verified one needs a current code',
        params: FactorParams,
        body: UnenrolFactorInput,
        response: { 204: Type.Null(), ...errorResponses(400, 401, 403, 404, 429, 503) },
      },
      config: { rateLimit: 'factors.unenrol', audience: 'user' },
    },
    async (request, reply) => {
      await factors.unenrolFactor(context, requireUser(request), request.params.id, request.body.code);
      return reply.code(204).send(null);
    },
  );
};

export default factorRoutes;
