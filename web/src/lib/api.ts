import type { ErrorBody } from '@tribuna/contracts/api/common';
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

function isErrorBody(value: unknown): value is ErrorBody {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as ErrorBody).message === 'string' &&
    typeof (value as ErrorBody).statusCode === 'number'
  );
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
