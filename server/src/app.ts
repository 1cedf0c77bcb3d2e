import Fastify, { type FastifyBaseLogger, type FastifyPluginAsync, type RouteOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from '@tribuna/contracts/config';
import type { App } from './app-types.ts';
import type { RateLimitTable } from './http/rateLimits.ts';
import { bodyDeadline, unreadBodyDeadline, type BodyDeadlines } from './http/bodyDeadline.ts';
import { hostGuard } from './http/hosts.ts';
import { serializeRequest } from './http/logging.ts';
import { formatValidationErrors } from './http/validation.ts';
import { validatorCompiler } from './http/validator.ts';
import authPlugin from './identity/plugin.ts';
import configPlugin from './plugins/config.ts';
import dbPlugin from './plugins/db.ts';
import docsPlugin from './plugins/docs.ts';
import errorsPlugin from './plugins/errors.ts';
import mediaPlugin from './plugins/media.ts';
import queuesPlugin from './plugins/queues.ts';
import rateLimitPlugin from './plugins/rateLimit.ts';
import redisPlugin from './plugins/redis.ts';
import securityPlugin, { frameworkErrorHandler } from './plugins/security.ts';
import staticPlugin from './plugins/static.ts';
import websocketPlugin from './plugins/websocket.ts';
import eventsPlugin from './events/plugin.ts';
import outboxPlugin, { type OutboxPluginOptions } from './outbox/plugin.ts';
import livePlugin from './live/plugin.ts';
import liveRoutes from './live/routes.ts';
import pollsPlugin, { type PollsPluginOptions } from './polls/plugin.ts';
import adminPlugin from './admin/plugin.ts';
import moderationPlugin from './moderation/plugin.ts';
import moderationRoutes from './moderation/routes.ts';
import notificationsPlugin from './notifications/plugin.ts';
import votesPlugin from './votes/plugin.ts';
import groupsPlugin from './groups/plugin.ts';
import safetyPlugin from './safety/plugin.ts';
import safetyRoutes from './safety/routes.ts';
import pushPlugin, { type PushPluginOptions } from './push/plugin.ts';
import pushRoutes, { pushAdminRoutes } from './push/routes.ts';
import groupRoutes from './groups/routes.ts';
import { feedTopic, postTopicHandler } from './wall/topics.ts';
import { poolRunner } from '@tribuna/drizzle/pipelined';
import wallRoutes, { type WallRoutesOptions } from './wall/routes.ts';
import adminRoutes from './admin/routes.ts';
import authRoutes from './identity/auth/routes.ts';
import profileRoutes from './identity/profiles/routes.ts';
import followRoutes from './follows/routes.ts';
import notificationRoutes from './notifications/routes.ts';
import devLoginRoutes from './identity/devLogin/routes.ts';
import factorRoutes from './identity/factors/routes.ts';
import googleRoutes from './identity/oidc/routes.ts';
import healthRoutes from './health/routes.ts';
import pageViewRoutes from './pageViews/routes.ts';
import pollRoutes from './polls/routes.ts';
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
  /** Entries replacing those of RATE_LIMITS (tests use small numbers, or large ones when flooding on purpose). */
  rateLimits?: Partial<RateLimitTable>;
  /** Overrides of HTTP_TIMEOUTS (tests use short ones). */
  httpTimeouts?: Partial<HttpTimeouts>;
  /**
   * Called for every route as it is registered, before any plugin adds one (docs, static,
   * domains): lets a test enumerate, and instrument, every route of the real app.
   */
  onRoute?: (route: RouteOptions) => void;
  /** Options of the polls plugin (a test shortens or lengthens the poll cache). */
  polls?: PollsPluginOptions;
  /** Called with every SQL statement the server sends (tests and benchmarks count them). */
  onQuery?: (query: string) => void;
  /** Options of the wall (a test turns the cached feed total off: it empties the tables between tests). */
  wall?: WallRoutesOptions;
  /** Options of the outbox's relay (a test stops its polling to drive it by hand). */
  outbox?: OutboxPluginOptions;
  /** Options of web push (a test resolves push services' names to chosen addresses). */
  push?: PushPluginOptions;
}

/**
 * Fastify's trustProxy for TRUST_PROXY. A hop count trusts that many proxies in front of the
 * server, whatever their address (Fastify itself now refuses numbers, so it becomes a function):
 * only use it when the server cannot be reached except through them; an address list is safer.
 */
export function trustProxyOption(trust: Config['trustProxy']): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return trust;
}

export interface HttpTimeouts extends BodyDeadlines {
  /** The headers must arrive within this, and so must any body but an upload's; else 408 (slow-loris senders). */
  requestMs: number;
  /** A socket with no traffic at all for this long is closed (upgraded websockets are not affected). */
  idleMs: number;
  /** Idle keep-alive sockets are kept longer than a load balancer's usual 60 s, so it closes them first. */
  keepAliveMs: number;
}

export const HTTP_TIMEOUTS: HttpTimeouts = {
  requestMs: 30_000,
  // One image of up to 10 MB: two minutes at under 1 Mbit/s.
  uploadMs: 120_000,
  // Up to 100 MB: five minutes at ~3 Mbit/s, a phone on a fair mobile connection.
  albumUploadMs: 300_000,
  idleMs: 60_000,
  keepAliveMs: 72_000,
};

/**
 * Node's requestTimeout counts from a request's first byte to the end of its body: it must let
 * the headers (requestMs), the hooks before the body is read, and the longest body deadline pass,
 * or it would cut every upload at requestMs whatever the upload's own deadline (bodyDeadline.ts).
 * It stays as a backstop for bodies no route reads (a request refused before its body).
 */
export function nodeRequestTimeoutMs(timeouts: HttpTimeouts): number {
  return timeouts.requestMs + Math.max(timeouts.requestMs, timeouts.uploadMs, timeouts.albumUploadMs) + timeouts.requestMs;
}

/** Builds the whole server (infrastructure, then domains) and waits until it is ready to listen. */
export async function buildApp(config: Config, options: BuildAppOptions = {}): Promise<App> {
  const timeouts = { ...HTTP_TIMEOUTS, ...options.httpTimeouts };
  const app = Fastify({
    // Request logs never carry the OAuth callback's code and state (see http/logging.ts).
    ...(options.logger
      ? { loggerInstance: options.logger.child({}, { serializers: { req: serializeRequest } }) }
      : {
          logger: {
            level: config.logLevel,
            redact: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'],
            serializers: { req: serializeRequest },
          },
        }),
    // TRUST_PROXY: request.ip is the fan's address from X-Forwarded-For, only through the proxies named.
    trustProxy: trustProxyOption(config.trustProxy),
    schemaErrorFormatter: formatValidationErrors,
    // Malformed URLs are answered before any hook: this gives them the security headers too.
    frameworkErrors: frameworkErrorHandler(config.publicUrl),
    bodyLimit: 1024 * 1024,
    requestTimeout: nodeRequestTimeoutMs(timeouts),
    connectionTimeout: timeouts.idleMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    // Node checks those timeouts every 30 s by default: a late request would get up to twice its time.
    http: { headersTimeout: timeouts.requestMs, connectionsCheckingInterval: Math.min(5_000, timeouts.requestMs) },
  }).withTypeProvider<TypeBoxTypeProvider>();
  // Every body gets its own deadline, an upload's longer than the rest (see nodeRequestTimeoutMs).
  app.addHook('preParsing', bodyDeadline(timeouts));
  // And a body left unread by an early answer gets requestMs to finish arriving.
  app.addHook('onResponse', unreadBodyDeadline(timeouts.requestMs));
  // Bodies are validated without type coercion and unknown properties are refused (see validator.ts).
  app.setValidatorCompiler(validatorCompiler);
  if (options.onRoute) app.addHook('onRoute', options.onRoute);

  // Infrastructure
  await app.register(configPlugin, { config });
  // Security headers (CSP, HSTS, …) on every response, errors and 404s included.
  await app.register(securityPlugin);
  await app.register(docsPlugin);
  await app.register(dbPlugin, { onQuery: options.onQuery });
  await app.register(redisPlugin);
  await app.register(queuesPlugin);
  await app.register(staticPlugin, options.webDistDir ? { root: options.webDistDir } : {});
  await app.register(errorsPlugin);
  await app.register(mediaPlugin);
  await app.register(websocketPlugin);
  // 421 to a Host that is not PUBLIC_URL's (nor in ALLOWED_HOSTS), before any hook that does work:
  // DNS rebinding. It applies to every route, those registered above too. After the websocket
  // plugin's own onRequest hook, which marks an upgrade so that its socket is closed once refused.
  app.addHook('onRequest', hostGuard(config));
  // Cookies, cross-site request refusal and session resolution (request.user) for every request.
  await app.register(authPlugin);
  // Rate limits (http/rateLimits.ts): checked once request.user is known; every later /api, /auth
  // and /ws route must declare its own.
  await app.register(rateLimitPlugin, { overrides: options.rateLimits });
  // The after-commit domain event bus (app.events), across instances through Redis.
  await app.register(eventsPlugin);
  // Work outside PostgreSQL recorded in a change's transaction and carried out at least once (app.outbox).
  await app.register(outboxPlugin, options.outbox ?? {});
  // This instance's websocket hub (app.live), fed by the event bus; domains register their topics.
  await app.register(livePlugin);
  // The poll cache and the polls' live totals (the `poll:{id}` topic).
  await app.register(pollsPlugin, options.polls ?? {});
  // Topics of the wall.
  for (const topic of [feedTopic, postTopicHandler(poolRunner(app.database.sql), config.requireAdminMfa)]) app.live.registerTopic(topic);
  // Domain plugins: what a domain runs besides its routes (writers, subscriptions, live topics).
  await app.register(votesPlugin);
  await app.register(notificationsPlugin);
  await app.register(groupsPlugin);
  await app.register(safetyPlugin);
  await app.register(adminPlugin);
  // Reports and the moderation queue (issue 29): its `moderation` topic and context.
  await app.register(moderationPlugin);
  // Web push (issue 31): VAPID keys, the endpoint policy, the worker's wake-ups for a fan's own pushes.
  await app.register(pushPlugin, options.push ?? {});

  // Domains
  await app.register(healthRoutes);
  await app.register(siteRoutes);
  await app.register(pollRoutes);
  await app.register(voteRoutes);
  await app.register(shareRoutes);
  await app.register(openGraphRoutes);
  await app.register(pageViewRoutes);
  await app.register(authRoutes);
  await app.register(profileRoutes);
  await app.register(followRoutes);
  await app.register(safetyRoutes);
  await app.register(wallRoutes, options.wall ?? {});
  await app.register(groupRoutes);
  await app.register(notificationRoutes);
  await app.register(pushRoutes);
  await app.register(moderationRoutes);
  await app.register(googleRoutes);
  await app.register(factorRoutes);
  await app.register(devLoginRoutes);
  await app.register(adminRoutes, { prefix: '/api/admin' });
  // The back-office's web push routes ('Notificar a los fans', the broadcasts): a context of their own
  // under /api/admin behind the same guard (registered from admin/routes.ts, admin and push would
  // import each other: push writes the admin audit log).
  await app.register(pushAdminRoutes, { prefix: '/api/admin' });
  await app.register(liveRoutes);
  if (options.extraRoutes) await app.register(options.extraRoutes);

  await app.ready();
  return app;
}
