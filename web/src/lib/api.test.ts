import { describe, expect, it, vi } from 'vitest';
import { ApiError, apiDelete, apiGet, apiPost, errorMessage } from './api';

function jsonResponse(status: number, body: unknown): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

describe('api client', () => {
  it('GETs JSON with same-origin credentials and no mutation header', async () => {
    const fetchMock = vi.fn().mockResolvedValue(jsonResponse(200, { ok: 1 }));
    vi.stubGlobal('fetch', fetchMock);

    await expect(apiGet<{ ok: number }>('/api/site')).resolves.toEqual({ ok: 1 });

    const [path, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(path).toBe('/api/site');
    expect(init.method).toBe('GET');
    expect(init.credentials).toBe('same-origin');
    expect(init.headers).not.toHaveProperty('X-Requested-With');
    expect(init.body).toBeUndefined();
  });

  it('POSTs a JSON body with the X-Requested-With header', async () => {
    const fetchMock = vi.fn().mockResolvedValue(new Response(null, { status: 204 }));
    vi.stubGlobal('fetch', fetchMock);

    await expect(apiPost('/api/page-views', { path: '/' })).resolves.toBeUndefined();

    const [, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(init.method).toBe('POST');
    expect(init.credentials).toBe('same-origin');
    expect(init.headers).toMatchObject({ 'X-Requested-With': 'tribuna', 'Content-Type': 'application/json' });
    expect(init.body).toBe('{"path":"/"}');
  });

  it('adds the extra headers a call asks for, without letting them replace its own', async () => {
    const fetchMock = vi.fn().mockResolvedValue(jsonResponse(201, {}));
    vi.stubGlobal('fetch', fetchMock);

    await apiPost('/api/polls/p/votes', {}, { headers: { 'Idempotency-Key': 'key_0123456789', 'X-Requested-With': 'other' } });

    const [, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(init.headers).toMatchObject({ 'Idempotency-Key': 'key_0123456789', 'X-Requested-With': 'tribuna' });
  });

  it("throws an ApiError carrying the status and the server's message", async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(jsonResponse(403, { statusCode: 403, error: 'Forbidden', message: 'Unauthorized' })));

    const error = await apiPost('/api/votes', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 403, message: 'Unauthorized', body: { error: 'Forbidden' } });
  });

  it('falls back to the status text when the error body is not JSON', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(new Response('oops', { status: 502, statusText: 'Bad Gateway' })));

    await expect(apiGet('/api/polls/home')).rejects.toMatchObject({ status: 502, message: 'Bad Gateway', body: null });
  });

  it('turns a network failure into an ApiError with status 0', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));

    await expect(apiGet('/api/me')).rejects.toMatchObject({ name: 'ApiError', status: 0 });
  });
});

describe('apiDelete', () => {
  it('sends an optional JSON body with the mutation header', async () => {
    const fetchMock = vi.fn().mockResolvedValue(new Response(null, { status: 204 }));
    vi.stubGlobal('fetch', fetchMock);

    await expect(apiDelete('/api/auth/factors/abc', { code: '123456' })).resolves.toBeUndefined();

    const [path, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(path).toBe('/api/auth/factors/abc');
    expect(init.method).toBe('DELETE');
    expect(init.headers).toMatchObject({ 'X-Requested-With': 'tribuna', 'Content-Type': 'application/json' });
    expect(init.body).toBe('{"code":"123456"}');
  });
});

describe('errorMessage', () => {
  it("uses the server's message when it sent an error body, or the network message", () => {
    const body = { statusCode: 400, error: 'Bad Request', message: 'Código inválido' };
    expect(errorMessage(new ApiError(400, 'Código inválido', body), 'Algo falló')).toBe('Código inválido');
    expect(errorMessage(new ApiError(0, 'No se pudo conectar con el servidor'), 'Algo falló')).toBe('No se pudo conectar con el servidor');
  });

  it('falls back for bare status texts and unknown errors', () => {
    expect(errorMessage(new ApiError(502, 'Bad Gateway'), 'Algo falló')).toBe('Algo falló');
    expect(errorMessage(new Error('boom'), 'Algo falló')).toBe('Algo falló');
  });

  it('says what a bare 429 means (a proxy in front of the server sends no error body)', () => {
    expect(errorMessage(new ApiError(429, 'Too Many Requests'), 'Algo falló')).toBe('Demasiadas solicitudes. Intenta de nuevo en unos segundos.');
  });
});
