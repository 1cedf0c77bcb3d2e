import Fastify, { type FastifyBaseLogger, type FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from '@tribuna/contracts/config';
import type { App } from './app-types.ts';
import { formatValidationErrors } from './http/validation.ts';
import { validatorCompiler } from './http/validator.ts';
import authPlugin from './plugins/auth.ts';
import configPlugin from './plugins/config.ts';
import dbPlugin from './plugins/db.ts';
import docsPlugin from './plugins/docs.ts';
import errorsPlugin from './plugins/errors.ts';
import mediaPlugin from './plugins/media.ts';
import queuesPlugin from './plugins/queues.ts';
import redisPlugin from './plugins/redis.ts';
import staticPlugin from './plugins/static.ts';
import websocketPlugin from './plugins/websocket.ts';
import livePlugin from './live/plugin.ts';
import adminRoutes from './admin/routes.ts';
import authRoutes from './auth/routes.ts';
import devLoginRoutes from './devLogin/routes.ts';
import factorRoutes from './factors/routes.ts';
import googleRoutes from './oidc/routes.ts';
import healthRoutes from './health/routes.ts';
import pageViewRoutes from './pageViews/routes.ts';
import pollRoutes from './polls/routes.ts';
import realtimeRoutes from './realtime/routes.ts';
import siteRoutes from './site/routes.ts';
import voteRoutes from './votes/routes.ts';
import shareRoutes from './shares/routes.ts';
import openGraphRoutes from './og/routes.ts';

export type { App } from './app-types.ts';

export interface BuildAppOptions {
  /** A pino logger to use instead of one built from config.logLevel. */
  logger?: FastifyBaseLogger;
  /** Where the built web app lives; defaults to web/dist of this repository. */
  webDistDir?: string;
  /**
   * Registered after every domain, before the app is ready: lets a test mount a throwaway route
   * behind the real hooks (CSRF, sessions), e.g. to exercise a guard no shipped route uses yet.
   */
  extraRoutes?: FastifyPluginAsync;
}

/** Builds the whole server (infrastructure, then domains) and waits until it is ready to listen. */
export async function buildApp(config: Config, options: BuildAppOptions = {}): Promise<App> {
  const app = Fastify({
    ...(options.logger
      ? { loggerInstance: options.logger }
      : {
          logger: {
            level: config.logLevel,
            redact: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'],
          },
        }),
    schemaErrorFormatter: formatValidationErrors,
    bodyLimit: 1024 * 1024,
  }).withTypeProvider<TypeBoxTypeProvider>();
  // Bodies are validated without type coercion and unknown properties are refused (see validator.ts).
  app.setValidatorCompiler(validatorCompiler);

  // Infrastructure
  await app.register(configPlugin, { config });
  await app.register(docsPlugin);
  await app.register(dbPlugin);
  await app.register(redisPlugin);
  await app.register(queuesPlugin);
  await app.register(staticPlugin, options.webDistDir ? { root: options.webDistDir } : {});
  await app.register(errorsPlugin);
  await app.register(mediaPlugin);
  await app.register(websocketPlugin);
  // Cookies, cross-site request refusal and session resolution (request.user) for every request.
  await app.register(authPlugin);
  // Live totals in Redis and this instance's websocket fan-out (app.live).
  await app.register(livePlugin);

  // Domains
  await app.register(healthRoutes);
  await app.register(siteRoutes);
  await app.register(pollRoutes);
  await app.register(voteRoutes);
  await app.register(shareRoutes);
  await app.register(openGraphRoutes);
  await app.register(pageViewRoutes);
  await app.register(authRoutes);
  await app.register(googleRoutes);
  await app.register(factorRoutes);
  await app.register(devLoginRoutes);
  await app.register(adminRoutes, { prefix: '/api/admin' });
  await app.register(realtimeRoutes);
  if (options.extraRoutes) await app.register(options.extraRoutes);

  await app.ready();
  return app;
}
