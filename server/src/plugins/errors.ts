import fp from 'fastify-plugin';
import type { FastifyError, RouteOptions } from 'fastify';
import { isDatabaseUnavailable } from '@tribuna/drizzle/client';
import { errorBody, errorResponses, HttpError } from '../http/errors.ts';
import { isSpaNavigation } from './static.ts';

export const INTERNAL_ERROR_MESSAGE = 'Error interno del servidor';
/** 503 to any request that needed PostgreSQL while it could not be reached (nothing was written). */
export const DATABASE_UNAVAILABLE_MESSAGE = 'El servicio no está disponible en este momento, intenta de nuevo';
export const DATABASE_UNAVAILABLE_RETRY_AFTER_SECONDS = 2;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The 503 message of this route while PostgreSQL is out of reach (default DATABASE_UNAVAILABLE_MESSAGE). */
    unavailableMessage?: string;
  }
}

/** Methods whose body Fastify reads before any hook of the route sees it (fastify's bodywith set). */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'QUERY']);

/**
 * What Fastify itself may answer on a route, whatever the route does: a body it cannot take
 * (400 malformed or empty JSON, 413 beyond the body limit, 415 a media type without a parser), and
 * 404 to a plain HTTP request on a websocket route (@fastify/websocket), and 421 to a Host that is
 * not this site's (http/hosts.ts) unless the route takes any.
 */
export function frameworkStatuses(route: Pick<RouteOptions, 'method' | 'config'> & { websocket?: boolean }): number[] {
  const statuses: number[] = [];
  if ([route.method].flat().some((method) => BODY_METHODS.has(method.toUpperCase()))) statuses.push(400, 413, 415);
  if (route.websocket === true) statuses.push(404);
  if (route.config?.anyHost !== true) statuses.push(421);
  // Any route may find PostgreSQL unreachable (see the error handler).
  statuses.push(503);
  return statuses;
}

/**
 * The single error handler and not-found handler. Every error leaves as ErrorBody:
 * validation errors as 400 with a readable message, client errors (statusCode < 500) with their
 * own message, anything else as a generic 500 whose cause is only logged. Never a stack trace.
 * PostgreSQL out of reach answers 503 with a retry hint instead of a 500.
 * Routes registered after this plugin also document the errors Fastify answers for them.
 */
export default fp(
  async (app) => {
    app.setErrorHandler((error: FastifyError, request, reply) => {
      if (error.validation) {
        request.log.info({ validation: error.message }, 'request validation failed');
        return reply.code(400).send(errorBody(400, error.message));
      }
      const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
      if (status >= 400 && status < 500) {
        request.log.info({ statusCode: status, message: error.message }, 'client error');
        if (error instanceof HttpError) reply.headers(error.headers);
        return reply.code(status).send(errorBody(status, error.message));
      }
      if (error instanceof HttpError) {
        // A deliberate server-side failure with a message meant for people (e.g. 503 'Error al votar').
        request.log.warn({ statusCode: status, message: error.message }, 'server error answered');
        reply.headers(error.headers);
        return reply.code(status).send(errorBody(status, error.message));
      }
      if (isDatabaseUnavailable(error)) {
        request.log.warn({ err: error }, 'database unavailable; answered 503');
        reply.header('retry-after', String(DATABASE_UNAVAILABLE_RETRY_AFTER_SECONDS));
        const message = request.routeOptions.config?.unavailableMessage ?? DATABASE_UNAVAILABLE_MESSAGE;
        return reply.code(503).send(errorBody(503, message));
      }
      request.log.error({ err: error }, 'unhandled error');
      return reply.code(500).send(errorBody(500, INTERNAL_ERROR_MESSAGE));
    });

    // A route that documents its answers documents these too (OpenAPI, and the schema-driven fuzz
    // test that holds every answer to its route's list); undocumented ones (static files) are left alone.
    app.addHook('onRoute', (route) => {
      const response = (route.schema as { response?: Record<string, unknown> } | undefined)?.response;
      if (!response) return;
      const missing = frameworkStatuses(route).filter((status) => !(String(status) in response) && !(`${String(status)[0]}xx` in response));
      if (missing.length > 0) route.schema = { ...route.schema, response: { ...errorResponses(...missing), ...response } };
    });

    app.setNotFoundHandler((request, reply) => {
      if (isSpaNavigation(request)) return reply.sendSpaIndex();
      return reply.code(404).send(errorBody(404, 'Not found'));
    });
  },
  { name: 'errors', dependencies: ['static'] },
);
