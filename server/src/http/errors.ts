import { STATUS_CODES } from 'node:http';
import { ErrorBody } from '@tribuna/contracts/api/common';

/** An error whose message is safe to show to the client (4xx). The error handler renders it as ErrorBody. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    /** Extra response headers, e.g. Retry-After on a 429. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const badRequest = (message: string) => new HttpError(400, message);

/** Seconds a client refused by an overloaded writer is asked to wait before trying again. */
export const BUSY_RETRY_AFTER_SECONDS = 2;

/** 503 with Retry-After: a writer's queue is full or stuck; nothing was written. */
export const serviceUnavailable = (message: string) => new HttpError(503, message, { 'retry-after': String(BUSY_RETRY_AFTER_SECONDS) });
export const unauthorized = (message = 'User not authenticated') => new HttpError(401, message);
export const forbidden = (message = 'Forbidden') => new HttpError(403, message);
export const notFound = (message = 'Not found') => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);
export const tooManyRequests = (message: string, retryAfterSeconds?: number) =>
  new HttpError(429, message, retryAfterSeconds === undefined ? {} : { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) });

export function errorBody(statusCode: number, message: string): ErrorBody {
  return { statusCode, error: STATUS_CODES[statusCode] ?? 'Error', message };
}

/** Response schemas for the error statuses a route can answer, e.g. `...errorResponses(400, 404)`. */
export function errorResponses<const S extends number>(...statuses: S[]): Record<S, typeof ErrorBody> {
  return Object.fromEntries(statuses.map((s) => [s, ErrorBody])) as Record<S, typeof ErrorBody>;
}
