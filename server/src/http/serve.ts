import type { Static, TSchema } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  FastifyBaseLogger,
  FastifyContextConfig,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
  RouteShorthandOptions,
} from 'fastify';
import type { ErrorBody } from '@tribuna/contracts/api/common';
import { responsesOf, type ApiRoute } from '@tribuna/contracts/route';
import type { RateLimitName } from './rateLimits.ts';

type App = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider>;
type Part<R, K extends string> = R extends Record<K, infer S extends TSchema> ? S : undefined;

/** The Fastify schema a contract route stands for (what types the handler's request and reply). */
export type RouteSchema<R extends ApiRoute> = {
  params: Part<R, 'params'>;
  querystring: Part<R, 'querystring'>;
  headers: Part<R, 'headers'>;
  body: Part<R, 'body'>;
  response: { [K in R['status']]: R['response'] } & { [K in R['errors'][number]]: typeof ErrorBody } & (R extends { otherResponses: infer O } ? O : unknown);
};

export type RouteHandler<R extends ApiRoute> = RouteHandlerMethod<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteGenericInterface,
  unknown,
  RouteSchema<R>,
  TypeBoxTypeProvider,
  FastifyBaseLogger
>;

/** What only the server knows about a route: hooks and the config beyond rate limit and audience. */
export interface ServeOptions {
  config?: Omit<FastifyContextConfig, 'rateLimit' | 'audience'>;
  attachValidation?: boolean;
  preHandler?: RouteShorthandOptions['preHandler'];
  onRequest?: RouteShorthandOptions['onRequest'];
}

/** What a route answers on success, for handlers that build it apart. */
export type ResponseOf<R extends ApiRoute> = Static<R['response']>;

/**
 * Registers the handler of a route declared in the contracts (contracts/src/api/<domain>.ts):
 * method, path (relative to the plugin's prefix), schemas, answers, rate limit and audience all
 * come from the declaration, so they are written once and the web's client is typed by the same.
 */
export function serve<const R extends ApiRoute & { rateLimit: RateLimitName | false }>(
  app: App,
  route: R,
  handler: RouteHandler<R>,
  options: ServeOptions = {},
): void {
  const prefix = app.prefix;
  if (!route.path.startsWith(prefix)) throw new Error(`${route.method} ${route.path}: not under this plugin's prefix ${prefix}`);
  const { method, params, querystring, headers, body, tags, summary, description, consumes, rateLimit, audience } = route;
  const schema = Object.fromEntries(
    Object.entries({ tags, summary, description, consumes, params, querystring, headers, body }).filter(([, value]) => value !== undefined),
  );
  app.route({
    method,
    // '' (not '/') for the prefix itself: Fastify then registers no trailing-slash twin.
    url: route.path.slice(prefix.length),
    schema: { ...schema, response: responsesOf(route) },
    ...options,
    config: { ...options.config, rateLimit, ...(audience ? { audience } : {}) },
    handler: handler as RouteHandlerMethod,
  });
}
