import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router-dom';
import type { Role } from '@tribuna/contracts/roles';
import { useSessionStore } from '../features/auth/sessionStore';
import { useSiteStore } from '../features/site/siteStore';
import { buildProfile, jsonResponse } from '../test/fixtures';
import { routes } from './routes';

let fetchMock: ReturnType<typeof vi.fn>;

function renderApp(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(<RouterProvider router={router} />);
  return router;
}

const requestedPaths = () => fetchMock.mock.calls.map(([path]) => path as string);
const signIn = (role: Role) => useSessionStore.setState({ user: buildProfile({ role }), status: 'ready' });

describe('app routes', () => {
  beforeEach(() => {
    useSessionStore.setState({ user: null, status: 'ready' });
    useSiteStore.setState({ config: null, status: 'idle' });
    fetchMock = vi.fn(async (path: string) => {
      if (path === '/api/page-views') return new Response(null, { status: 204 });
      if (path === '/api/polls/home') return jsonResponse(200, { poll: null, results: null });
      if (path === '/api/notifications/unread') return jsonResponse(200, { unreadCount: 0 });
      if (path === '/api/notifications') return jsonResponse(200, { items: [], nextCursor: null, unreadCount: 0 });
      return jsonResponse(404, { statusCode: 404, error: 'Not Found', message: 'Not Found' });
    });
    vi.stubGlobal('fetch', fetchMock);
    vi.spyOn(console, 'debug').mockImplementation(() => {});
  });

  it('redirects unknown paths to / and shows the footer there', async () => {
    const router = renderApp('/no-existe');
    expect(await screen.findByText('No hay encuestas activas')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/');
    const footer = screen.getByRole('contentinfo');
    expect(footer.textContent).toContain(`© ${new Date().getFullYear()} Tribuna`);
    expect(screen.getByRole('link', { name: 'Términos y Condiciones' }).getAttribute('href')).toBe('/terminos');
    expect(screen.getByRole('link', { name: 'Política de Privacidad' }).getAttribute('href')).toBe('/privacidad');
  });

  it('records a page view for the landing path', async () => {
    renderApp('/terminos');
    await waitFor(() => expect(requestedPaths()).toContain('/api/page-views'));
    const call = fetchMock.mock.calls.find(([path]) => path === '/api/page-views');
    expect(JSON.parse((call?.[1] as RequestInit).body as string)).toMatchObject({ path: '/terminos' });
  });

  it.each(['/wall', '/grupos', '/notificaciones', '/perfil', '/admin', '/admin/encuestas'])(
    'sends a visitor from %s to /login',
    async (path) => {
      const router = renderApp(path);
      expect(router.state.location.pathname).toBe('/login');
      expect(await screen.findByRole('heading', { name: 'Iniciar sesión' })).toBeTruthy();
    },
  );

  it('lets a visitor see a public profile', async () => {
    const router = renderApp('/perfil/123');
    expect(router.state.location.pathname).toBe('/perfil/123');
    // The profile page itself answers (here: the stub knows no such profile).
    expect(await screen.findByRole('heading', { name: 'Perfil no encontrado' })).toBeTruthy();
  });

  it('shows Próximamente on /grupos to a signed-in user, with the navigation bar', async () => {
    signIn('user');
    renderApp('/grupos');
    expect(await screen.findByText('Próximamente')).toBeTruthy();
    expect(screen.getAllByRole('navigation', { name: 'Navegación principal' }).length).toBeGreaterThan(0);
    expect(screen.queryByRole('contentinfo')).toBeNull();
  });

  it('shows the notifications empty state to a signed-in user', async () => {
    signIn('user');
    renderApp('/notificaciones');
    expect(await screen.findByRole('heading', { name: 'No tienes notificaciones' })).toBeTruthy();
    expect(screen.getByText(/reaccione, comente o te mencione/)).toBeTruthy();
    expect(requestedPaths()).toContain('/api/notifications');
    expect(requestedPaths()).not.toContain('/api/notifications/read');
  });

  it('sends a user or moderator away from /admin to /', () => {
    signIn('moderator');
    const router = renderApp('/admin/encuestas');
    expect(router.state.location.pathname).toBe('/');
  });

  it('lets an admin into /admin without the navigation bar', async () => {
    signIn('admin');
    const router = renderApp('/admin/encuestas');
    expect(router.state.location.pathname).toBe('/admin/encuestas');
    expect(await screen.findByRole('heading', { name: 'Administración' })).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'Navegación principal' })).toBeNull();
  });
});
