import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RouterProvider, createMemoryRouter } from 'react-router-dom';
import type { DevUserList } from '@tribuna/contracts/api/auth';
import type { SiteConfig } from '@tribuna/contracts/api/site';
import type { Role } from '@tribuna/contracts/roles';
import { bodyOf, requestsOf, stubApi } from '../../test/apiStub';
import { buildProfile, jsonResponse, mfaRequiredSession, signedInSession } from '../../test/fixtures';
import { useSiteStore } from '../../lib/siteStore';
import { LoginPage, loginErrorMessage } from './LoginPage';
import { useSessionStore } from '../../lib/session/sessionStore';

function renderLogin(path = '/login') {
  const router = createMemoryRouter(
    [
      { path: '/login', element: <LoginPage /> },
      { path: '/', element: <p>home page</p> },
      { path: '/admin', element: <p>admin page</p> },
      { path: '/auth/callback', element: <p>callback page</p> },
      { path: '/terminos', element: <p>terms page</p> },
    ],
    { initialEntries: [path] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

const siteConfig = (devLogin: boolean): SiteConfig => ({
  contactEmail: 'contacto@tribuna.mx',
  devLogin,
  social: { whatsapp: null, facebook: null, instagram: null, tiktok: null, x: null },
});

const devUsers: DevUserList = {
  users: [
    { id: '00000000-0000-4000-8000-00000000000a', displayName: 'Admin Demo', username: 'admin_demo', avatarUrl: null, role: 'admin' },
    { id: '00000000-0000-4000-8000-00000000000b', displayName: 'Mod Demo', username: 'mod_demo', avatarUrl: null, role: 'moderator' },
    { id: '00000000-0000-4000-8000-00000000000c', displayName: 'Fan Demo', username: 'fan_demo', avatarUrl: null, role: 'user' },
  ],
};

describe('LoginPage', () => {
  beforeEach(() => {
    useSessionStore.setState({ user: null, status: 'ready', mfaFactorId: null });
    useSiteStore.setState({ config: siteConfig(false), status: 'ready' });
    stubApi({});
  });

  it.each<[Role, string]>([
    ['admin', 'admin page'],
    ['moderator', 'home page'],
    ['user', 'home page'],
  ])('sends a signed-in %s to %s', (role, landing) => {
    useSessionStore.setState({ user: buildProfile({ role }), status: 'ready' });
    const router = renderLogin();
    expect(screen.getByText(landing)).toBeTruthy();
    expect(router.state.location.pathname).toBe(role === 'admin' ? '/admin' : '/');
  });

  it('waits for the session before showing the page', () => {
    useSessionStore.setState({ user: null, status: 'loading' });
    renderLogin();
    expect(screen.getByRole('status').textContent).toContain('Comprobando tu sesión');
    expect(screen.queryByRole('heading', { name: 'Iniciar sesión' })).toBeNull();
  });

  it('offers Google sign-in as a full navigation, a theme toggle and a way home', () => {
    renderLogin();
    expect(screen.getByRole('heading', { level: 1, name: 'Iniciar sesión' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Continuar con Google' }).getAttribute('href')).toBe('/auth/google');
    expect(screen.getByRole('button', { name: 'Cambiar a modo claro' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Volver al inicio' }).getAttribute('href')).toBe('/');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("shows 'Error al iniciar sesión' when the URL carries an error", () => {
    renderLogin('/login?error=1');
    expect(screen.getByRole('alert').textContent).toBe('Error al iniciar sesión');
  });

  it('says when Google sign-in is not configured', () => {
    renderLogin('/login?error=google_not_configured');
    expect(screen.getByRole('alert').textContent).toBe('El inicio de sesión con Google no está configurado');
  });

  it('maps error codes to messages', () => {
    expect(loginErrorMessage(null)).toBeNull();
    expect(loginErrorMessage('1')).toBe('Error al iniciar sesión');
    expect(loginErrorMessage('')).toBe('Error al iniciar sesión');
    expect(loginErrorMessage('google_not_configured')).toBe('El inicio de sesión con Google no está configurado');
  });

  it('opens the terms in a dialog with their 12 sections, and closes it with Escape', async () => {
    const user = userEvent.setup();
    const router = renderLogin();
    const link = screen.getByRole('link', { name: 'Términos y Condiciones' });
    expect(link.closest('p')?.textContent).toBe('Al continuar aceptas nuestros Términos y Condiciones y la Política de Privacidad.');

    await user.click(link);

    const dialog = screen.getByRole('dialog', { name: 'Términos y Condiciones' });
    const headings = within(dialog).getAllByRole('heading', { level: 3 });
    expect(headings).toHaveLength(12);
    expect(headings[0]?.textContent).toBe('1. Aceptación de los términos');
    expect(headings[11]?.textContent).toBe('12. Contacto');
    expect(router.state.location.pathname).toBe('/login');

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(link);
  });

  it('opens the privacy policy in a dialog', async () => {
    const user = userEvent.setup();
    renderLogin();
    await user.click(screen.getByRole('link', { name: 'Política de Privacidad' }));
    const dialog = screen.getByRole('dialog', { name: 'Política de Privacidad' });
    expect(within(dialog).getByText(/menores de 13 años/)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Cerrar' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('offers to finish a sign-in that waits for its code', () => {
    useSessionStore.setState({ mfaFactorId: '00000000-0000-4000-8000-0000000000ff' });
    renderLogin();
    expect(screen.getByRole('link', { name: 'Ingresar el código' }).getAttribute('href')).toBe('/auth/callback');
  });

  describe('development sign-in', () => {
    it('is absent unless the site runs with devLogin', () => {
      const fetchMock = stubApi({});
      renderLogin();
      expect(screen.queryByRole('heading', { name: 'Acceso de desarrollo' })).toBeNull();
      expect(requestsOf(fetchMock)).not.toContain('GET /api/auth/dev/users');
    });

    it('lists the demo users with their role and signs in as one, landing by role', async () => {
      const user = userEvent.setup();
      useSiteStore.setState({ config: siteConfig(true), status: 'ready' });
      const admin = buildProfile({ id: devUsers.users[0]?.id, displayName: 'Admin Demo', role: 'admin' });
      const fetchMock = stubApi({
        'GET /api/auth/dev/users': () => jsonResponse(200, devUsers),
        'POST /api/auth/dev/login': () => jsonResponse(200, signedInSession(admin)),
      });
      const router = renderLogin();

      expect(screen.getByRole('heading', { name: 'Acceso de desarrollo' })).toBeTruthy();
      const list = await screen.findByRole('list', { name: 'Usuarios de demostración' });
      const buttons = within(list).getAllByRole('button');
      // Each button is named by its visible text, after 'Entrar como' for screen readers.
      expect(buttons).toHaveLength(3);
      for (const name of ['Admin Demo', 'Mod Demo', 'Fan Demo']) {
        expect(within(list).getByRole('button', { name: new RegExp(`^Entrar como ${name}\\b.*Entrar$`) })).toBeTruthy();
      }
      expect(within(list).getByText('@mod_demo')).toBeTruthy();
      expect(within(list).getByText('Moderador')).toBeTruthy();
      expect(within(list).getByText('Usuario')).toBeTruthy();

      await user.click(screen.getByRole('button', { name: /^Entrar como Admin Demo\b/ }));

      expect(await screen.findByText('admin page')).toBeTruthy();
      expect(router.state.location.pathname).toBe('/admin');
      expect(bodyOf(fetchMock, 'POST /api/auth/dev/login')).toEqual({ userId: devUsers.users[0]?.id });
      expect(useSessionStore.getState().user).toEqual(admin);
    });

    it('creates a test user by name, and sends a sign-in that needs a code to /auth/callback', async () => {
      const user = userEvent.setup();
      useSiteStore.setState({ config: siteConfig(true), status: 'ready' });
      const fetchMock = stubApi({
        'GET /api/auth/dev/users': () => jsonResponse(200, { users: [] }),
        'POST /api/auth/dev/login': () => jsonResponse(200, mfaRequiredSession('00000000-0000-4000-8000-0000000000ff')),
      });
      renderLogin();

      expect(await screen.findByText(/No hay usuarios de demostración/)).toBeTruthy();
      const name = screen.getByRole('textbox', { name: 'Nombre' });
      expect(name.getAttribute('maxlength')).toBe('50');

      await user.click(screen.getByRole('button', { name: 'Crear y entrar' }));
      expect(screen.getByText('El nombre no puede estar vacío')).toBeTruthy();
      expect(requestsOf(fetchMock)).not.toContain('POST /api/auth/dev/login');

      await user.type(name, '  Fan Nueva ');
      await user.click(screen.getByRole('button', { name: 'Crear y entrar' }));

      expect(await screen.findByText('callback page')).toBeTruthy();
      expect(bodyOf(fetchMock, 'POST /api/auth/dev/login')).toEqual({ displayName: 'Fan Nueva' });
      expect(useSessionStore.getState()).toMatchObject({ user: null, mfaFactorId: '00000000-0000-4000-8000-0000000000ff' });
    });

    it("shows the server's message when the development sign-in fails", async () => {
      const user = userEvent.setup();
      vi.spyOn(console, 'error').mockImplementation(() => {});
      useSiteStore.setState({ config: siteConfig(true), status: 'ready' });
      stubApi({
        'GET /api/auth/dev/users': () => jsonResponse(200, devUsers),
        'POST /api/auth/dev/login': () => jsonResponse(403, { statusCode: 403, error: 'Forbidden', message: 'Cuenta suspendida' }),
      });
      renderLogin();

      await user.click(await screen.findByRole('button', { name: /^Entrar como Fan Demo\b/ }));

      expect((await screen.findByRole('alert')).textContent).toBe('Cuenta suspendida');
    });
  });
});
