import fp from 'fastify-plugin';
import type { FastifyError } from 'fastify';
import { errorBody, HttpError } from '../http/errors.ts';
import { isSpaNavigation } from './static.ts';

export const INTERNAL_ERROR_MESSAGE = 'Error interno del servidor';

/**
 * The single error handler and not-found handler. Every error leaves as ErrorBody:
 * validation errors as 400 with a readable message, client errors (statusCode < 500) with their
 * own message, anything else as a generic 500 whose cause is only logged. Never a stack trace.
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
      request.log.error({ err: error }, 'unhandled error');
      return reply.code(500).send(errorBody(500, INTERNAL_ERROR_MESSAGE));
    });

    app.setNotFoundHandler((request, reply) => {
      if (isSpaNavigation(request)) return reply.sendSpaIndex();
      return reply.code(404).send(errorBody(404, 'Not found'));
    });
  },
  { name: 'errors', dependencies: ['static'] },
);
