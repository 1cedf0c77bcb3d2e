import { vi } from 'vitest';
import { jsonResponse } from './fixtures';

export type Handler = (init: RequestInit) => Response | Promise<Response>;

/**
 * Stubs `fetch` with one handler per "METHOD /path"; anything else answers 404 like the server.
 * Returns the mock, whose calls hold every request made.
 */
export function stubApi(handlers: Record<string, Handler>) {
  const fetchMock = vi.fn(async (path: string, init: RequestInit = {}) => {
    const handler = handlers[`${init.method ?? 'GET'} ${path}`];
    if (handler) return handler(init);
    return jsonResponse(404, { statusCode: 404, error: 'Not Found', message: 'Not Found' });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** The requests made, as "METHOD /path". */
export const requestsOf = (fetchMock: ReturnType<typeof stubApi>) =>
  fetchMock.mock.calls.map(([path, init]) => `${(init as RequestInit | undefined)?.method ?? 'GET'} ${path}`);

/** The JSON body of the first request to "METHOD /path". */
export function bodyOf(fetchMock: ReturnType<typeof stubApi>, request: string): unknown {
  const call = fetchMock.mock.calls.find(([path, init]) => `${(init as RequestInit | undefined)?.method ?? 'GET'} ${path}` === request);
  const body = (call?.[1] as RequestInit | undefined)?.body;
  return typeof body === 'string' ? JSON.parse(body) : undefined;
}
