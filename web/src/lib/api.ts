import type { Static } from '@sinclair/typebox';
import type { ErrorBody } from '@tribuna/contracts/api/common';
import { ENDPOINT_ROUTES, type EndpointName, type PathParams } from '@tribuna/contracts/endpointRoutes';
import type { Endpoints } from '@tribuna/contracts/endpoints';
import { TOO_MANY_REQUESTS_MESSAGE } from '@tribuna/contracts/httpMessages';

/** A failed API call: `status` is the HTTP status (0 when the network failed), `message` is the server's. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    message: string,
    readonly body: ErrorBody | null = null,
  ) {
    super(message);
  }
}

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface RequestOptions {
  signal?: AbortSignal;
  /** Extra request headers (e.g. Idempotency-Key); they cannot replace the client's own. */
  headers?: Record<string, string>;
}

export function isErrorBody(value: unknown): value is ErrorBody {
  return typeof value === 'object' && value !== null && typeof (value as ErrorBody).message === 'string' && typeof (value as ErrorBody).statusCode === 'number';
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

async function request<T>(method: Method, path: string, body: unknown, options: RequestOptions): Promise<T> {
  const headers: Record<string, string> = { ...options.headers, Accept: 'application/json' };
  // Every mutation carries this header; the server refuses cross-site form posts without it.
  if (method !== 'GET') headers['X-Requested-With'] = 'tribuna';
  if (body !== undefined) headers['Content-Type'] = 'application/json';

  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: options.signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'No se pudo conectar con el servidor');
  }

  const payload = await readJson(response);
  if (!response.ok) {
    const errorBody = isErrorBody(payload) ? payload : null;
    throw new ApiError(response.status, errorBody?.message ?? (response.statusText || `HTTP ${response.status}`), errorBody);
  }
  return payload as T;
}

export function apiGet<T>(path: string, options: RequestOptions = {}): Promise<T> {
  return request<T>('GET', path, undefined, options);
}

export function apiPost<T>(path: string, body?: unknown, options: RequestOptions = {}): Promise<T> {
  return request<T>('POST', path, body, options);
}

export function apiPatch<T>(path: string, body?: unknown, options: RequestOptions = {}): Promise<T> {
  return request<T>('PATCH', path, body, options);
}

/** DELETE, optionally with a JSON body (e.g. the current code when removing a second factor). */
export function apiDelete<T>(path: string, body?: unknown, options: RequestOptions = {}): Promise<T> {
  return request<T>('DELETE', path, body, options);
}

type Route<N extends EndpointName> = (typeof ENDPOINT_ROUTES)[N];
/** What an endpoint answers (null for 204), from the contracts' schema. */
export type ResponseOf<N extends EndpointName> = Route<N>['status'] extends 204 ? void : Static<Endpoints[N]['response']>;
type BodyOf<N extends EndpointName> = Endpoints[N] extends { body: infer B extends import('@sinclair/typebox').TSchema } ? Static<B> : never;

/** The arguments of an endpoint: its path parameters, its body when it takes one, a query, headers, a signal. */
export type CallArgs<N extends EndpointName> = RequestOptions &
  (keyof PathParams<Route<N>['path']> extends never ? { params?: undefined } : { params: PathParams<Route<N>['path']> }) &
  ([BodyOf<N>] extends [never] ? { body?: undefined } : { body: BodyOf<N> }) & { query?: Record<string, string | undefined> };

/** The path of `name` with its parameters filled in (encoded) and its query appended. */
export function endpointPath<N extends EndpointName>(name: N, params?: Record<string, string>, query?: Record<string, string | undefined>): string {
  const path = ENDPOINT_ROUTES[name].path.replace(/:([A-Za-z]+)/g, (_, key: string) => {
    const value = params?.[key];
    if (value === undefined) throw new Error(`${name}: missing path parameter ${key}`);
    return encodeURIComponent(value);
  });
  const search = new URLSearchParams(Object.entries(query ?? {}).filter((e): e is [string, string] => e[1] !== undefined)).toString();
  return search ? `${path}?${search}` : path;
}

/**
 * Calls an endpoint of the contracts by name, typed by its schemas (contracts/src/endpoints.ts,
 * checked against the server's routes): `callApi('castVote', { params: { pollId }, body })`.
 */
export function callApi<N extends EndpointName>(
  name: N,
  ...[args]: keyof PathParams<Route<N>['path']> extends never ? ([BodyOf<N>] extends [never] ? [CallArgs<N>?] : [CallArgs<N>]) : [CallArgs<N>]
): Promise<ResponseOf<N>> {
  const { params, body, query, ...options } = (args ?? {}) as {
    params?: Record<string, string>;
    body?: unknown;
    query?: Record<string, string | undefined>;
  } & RequestOptions;
  return request<ResponseOf<N>>(ENDPOINT_ROUTES[name].method, endpointPath(name, params, query), body, options);
}

/**
 * The text to show a user for a failed call: the server's own message when it answered with an
 * error body (those are written in Spanish) or when the network failed; the rate limit's message
 * for a bare 429 (from a proxy in front of the server); otherwise `fallback`, so a bare status
 * text like "Bad Gateway" never reaches the screen.
 */
export function errorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError && (error.body !== null || error.status === 0) && error.message) return error.message;
  if (error instanceof ApiError && error.status === 429) return TOO_MANY_REQUESTS_MESSAGE;
  return fallback;
}
