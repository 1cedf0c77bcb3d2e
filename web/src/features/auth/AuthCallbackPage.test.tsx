import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RouterProvider, createMemoryRouter } from 'react-router-dom';
import { bodyOf, requestsOf, stubApi } from '../../test/apiStub';
import { buildProfile, jsonResponse, mfaRequiredSession, signedInSession, signedOutSession } from '../../test/fixtures';
import { AuthCallbackPage } from './AuthCallbackPage';
import { useSessionStore } from '../../lib/session/sessionStore';

const factorId = '00000000-0000-4000-8000-0000000000f1';
const challengeId = '00000000-0000-4000-8000-0000000000c1';
const challenge = () => jsonResponse(200, { challengeId, expiresAt: '2025-01-05T12:05:00.000Z' });
const badCode = () => jsonResponse(400, { statusCode: 400, error: 'Bad Request', message: 'Código inválido' });

function renderCallback(path = '/auth/callback') {
  const router = createMemoryRouter(
    [
      { path: '/auth/callback', element: <AuthCallbackPage /> },
      { path: '/login', element: <p>login page</p> },
      { path: '/', element: <p>home page</p> },
      { path: '/admin', element: <p>admin page</p> },
    ],
    { initialEntries: [path] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

const where = (router: ReturnType<typeof renderCallback>) => router.state.location.pathname + router.state.location.search;

describe('AuthCallbackPage', () => {
  beforeEach(() => {
    useSessionStore.setState({ user: null, status: 'loading', mfaFactorId: null });
  });

  it('shows a spinner while it completes the sign-in', () => {
    stubApi({ 'GET /api/auth/session': () => new Promise<Response>(() => {}) });
    renderCallback();
    expect(screen.getByRole('status').textContent).toContain('Iniciando sesión…');
  });

  it('sends an explicit error to /login?error=1 without asking for the session', async () => {
    const fetchMock = stubApi({});
    const router = renderCallback('/auth/callback?error=1');
    expect(await screen.findByText('login page')).toBeTruthy();
    expect(where(router)).toBe('/login?error=1');
    expect(requestsOf(fetchMock)).toEqual([]);
  });

  it('sends a signed-in admin to /admin and keeps the profile', async () => {
    const admin = buildProfile({ role: 'admin' });
    stubApi({ 'GET /api/auth/session': () => jsonResponse(200, signedInSession(admin)) });
    const router = renderCallback();
    expect(await screen.findByText('admin page')).toBeTruthy();
    expect(where(router)).toBe('/admin');
    expect(useSessionStore.getState()).toMatchObject({ user: admin, status: 'ready' });
  });

  it('sends any other signed-in user to /', async () => {
    stubApi({ 'GET /api/auth/session': () => jsonResponse(200, signedInSession(buildProfile({ role: 'moderator' }))) });
    const router = renderCallback();
    expect(await screen.findByText('home page')).toBeTruthy();
    expect(where(router)).toBe('/');
  });

  it('sends a visitor without a session to /login, without an error', async () => {
    stubApi({ 'GET /api/auth/session': () => jsonResponse(200, signedOutSession) });
    const router = renderCallback();
    expect(await screen.findByText('login page')).toBeTruthy();
    expect(where(router)).toBe('/login');
  });

  it('reports a session that cannot be read as a failed sign-in', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('offline')));
    const router = renderCallback();
    expect(await screen.findByText('login page')).toBeTruthy();
    expect(where(router)).toBe('/login?error=1');
  });

  describe('with a second factor', () => {
    it('asks for the code, keeps the form on a wrong code and lands by role on a right one', async () => {
      const user = userEvent.setup();
      const member = buildProfile({ role: 'user' });
      let verifications = 0;
      const fetchMock = stubApi({
        'GET /api/auth/session': () => jsonResponse(200, mfaRequiredSession(factorId)),
        [`POST /api/auth/factors/${factorId}/challenge`]: challenge,
        [`POST /api/auth/factors/${factorId}/verify`]: () => (++verifications === 1 ? badCode() : jsonResponse(200, signedInSession(member))),
      });
      const router = renderCallback();

      expect(await screen.findByRole('heading', { name: 'Verificación en dos pasos' })).toBeTruthy();
      expect(useSessionStore.getState().mfaFactorId).toBe(factorId);
      const input = screen.getByRole('textbox', { name: 'Código de verificación' });
      expect(input.getAttribute('inputmode')).toBe('numeric');
      expect(input.getAttribute('autocomplete')).toBe('one-time-code');
      expect(input.getAttribute('pattern')).toBe('[0-9]{6}');
      expect(document.activeElement).toBe(input);

      await user.type(input, '12a34');
      expect((input as HTMLInputElement).value).toBe('1234');
      await user.click(screen.getByRole('button', { name: 'Verificar' }));
      expect(screen.getByRole('alert').textContent).toBe('Ingresa los 6 dígitos del código');
      expect(requestsOf(fetchMock)).not.toContain(`POST /api/auth/factors/${factorId}/challenge`);

      await user.type(input, '56');
      await user.click(screen.getByRole('button', { name: 'Verificar' }));
      expect((await screen.findByRole('alert')).textContent).toBe('Código inválido');
      await waitFor(() => expect(screen.getByRole('button', { name: 'Verificar' })).toHaveProperty('disabled', false));
      expect(where(router)).toBe('/auth/callback');
      expect(bodyOf(fetchMock, `POST /api/auth/factors/${factorId}/verify`)).toEqual({ challengeId, code: '123456' });
      expect((input as HTMLInputElement).value).toBe('');

      await user.type(input, '654321');
      await user.click(screen.getByRole('button', { name: 'Verificar' }));

      expect(await screen.findByText('home page')).toBeTruthy();
      expect(useSessionStore.getState()).toMatchObject({ user: member, mfaFactorId: null });
      expect(requestsOf(fetchMock).filter((r) => r.endsWith('/challenge'))).toHaveLength(2);
    });

    it('shows the rate-limit message from the server', async () => {
      const user = userEvent.setup();
      stubApi({
        'GET /api/auth/session': () => jsonResponse(200, mfaRequiredSession(factorId)),
        [`POST /api/auth/factors/${factorId}/challenge`]: challenge,
        [`POST /api/auth/factors/${factorId}/verify`]: () =>
          jsonResponse(429, {
            statusCode: 429,
            error: 'Too Many Requests',
            message: 'Demasiados intentos. Inténtalo más tarde.',
          }),
      });
      renderCallback();

      await user.type(await screen.findByRole('textbox', { name: 'Código de verificación' }), '123456');
      await user.click(screen.getByRole('button', { name: 'Verificar' }));

      expect((await screen.findByRole('alert')).textContent).toBe('Demasiados intentos. Inténtalo más tarde.');
    });

    it('signs out and goes to /login on Cancelar', async () => {
      const user = userEvent.setup();
      const fetchMock = stubApi({
        'GET /api/auth/session': () => jsonResponse(200, mfaRequiredSession(factorId)),
        'POST /auth/logout': () => new Response(null, { status: 204 }),
      });
      const router = renderCallback();

      await user.click(await screen.findByRole('button', { name: 'Cancelar' }));

      expect(await screen.findByText('login page')).toBeTruthy();
      expect(where(router)).toBe('/login');
      expect(requestsOf(fetchMock)).toContain('POST /auth/logout');
      expect(useSessionStore.getState().mfaFactorId).toBeNull();
    });
  });
});
