import Fastify, { type FastifyBaseLogger } from 'fastify';
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
import authRoutes from './auth/routes.ts';
import healthRoutes from './health/routes.ts';
import pageViewRoutes from './pageViews/routes.ts';
import pollRoutes from './polls/routes.ts';
import realtimeRoutes from './realtime/routes.ts';
import siteRoutes from './site/routes.ts';

export type { App } from './app-types.ts';

export interface BuildAppOptions {
  /** A pino logger to use instead of one built from config.logLevel. */
  logger?: FastifyBaseLogger;
  /** Where the built web app lives; defaults to web/dist of this repository. */
  webDistDir?: string;
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
  await app.register(authPlugin);

  // Domains
  await app.register(healthRoutes);
  await app.register(siteRoutes);
  await app.register(pollRoutes);
  await app.register(pageViewRoutes);
  await app.register(authRoutes);
  await app.register(realtimeRoutes);

  await app.ready();
  return app;
}
