import { beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RouterProvider, createMemoryRouter } from 'react-router-dom';
import type { Role } from '@tribuna/contracts/roles';
import { useSessionStore } from '../lib/session/sessionStore';
import { useSiteStore } from '../lib/siteStore';
import { buildPublicProfile } from '../features/profile/profileFixtures';
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
    // Its year, the clock's, is Footer.test.tsx's (with a pinned clock).
    expect(footer.textContent).toMatch(/© \d{4} Tribuna/);
    expect(screen.getByRole('link', { name: 'Términos y Condiciones' }).getAttribute('href')).toBe('/terminos');
    expect(screen.getByRole('link', { name: 'Política de Privacidad' }).getAttribute('href')).toBe('/privacidad');
  });

  it('records a page view for the landing path', async () => {
    renderApp('/terminos');
    await waitFor(() => expect(requestedPaths()).toContain('/api/page-views'));
    const call = fetchMock.mock.calls.find(([path]) => path === '/api/page-views');
    expect(JSON.parse((call?.[1] as RequestInit).body as string)).toMatchObject({ path: '/terminos' });
  });

  it.each(['/wall', '/grupos', '/grupos/00000000-0000-4000-8000-000000000001', '/notificaciones', '/perfil', '/admin', '/admin/encuestas'])(
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

  it('gives a visitor who opens a shared profile link the site header: Tribuna goes home, Iniciar sesión to /login', async () => {
    const profile = buildPublicProfile({ displayName: 'Valeria Ríos' });
    const serveDefault = fetchMock.getMockImplementation() as (path: string, init?: RequestInit) => Promise<Response>;
    fetchMock.mockImplementation(async (path: string, init?: RequestInit) => {
      if (path === `/api/profiles/${profile.id}`) return jsonResponse(200, profile);
      if (path === `/api/profiles/${profile.id}/stats`) return jsonResponse(200, { votes: 1, posts: 0, comments: 0 });
      return serveDefault(path, init);
    });
    const user = userEvent.setup();
    const router = renderApp(`/perfil/${profile.id}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Valeria Ríos' })).toBeTruthy();

    const header = screen.getByRole('banner');
    expect(within(header).getByRole('link', { name: 'Iniciar sesión' }).getAttribute('href')).toBe('/login');
    expect(within(header).getByRole('button', { name: /^Cambiar a modo / })).toBeTruthy();
    await user.click(within(header).getByRole('link', { name: 'Tribuna' }));
    expect(router.state.location.pathname).toBe('/');
    expect(await screen.findByText('No hay encuestas activas')).toBeTruthy();

    await user.click(within(screen.getByRole('banner')).getByRole('link', { name: 'Iniciar sesión' }));
    expect(router.state.location.pathname).toBe('/login');
    expect(await screen.findByRole('heading', { name: 'Iniciar sesión' })).toBeTruthy();
  });

  it.each([
    ['/', 'No hay encuestas activas'],
    ['/terminos', 'Términos y Condiciones'],
    ['/privacidad', 'Política de Privacidad'],
    ['/perfil/123', 'Perfil no encontrado'],
    ['/no-existe', 'No hay encuestas activas'],
  ])('gives a visitor on %s the site header', async (path, content) => {
    renderApp(path);
    expect(await screen.findAllByText(content)).not.toHaveLength(0);
    const header = screen.getByRole('banner');
    expect(within(header).getByRole('link', { name: 'Tribuna' }).getAttribute('href')).toBe('/');
    expect(within(header).getByRole('link', { name: 'Iniciar sesión' }).getAttribute('href')).toBe('/login');
  });

  it('shows no site header on /login (it has its own way home) nor to a signed-in user on a profile', async () => {
    const router = renderApp('/login');
    expect(await screen.findByRole('heading', { name: 'Iniciar sesión' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Volver al inicio' }).getAttribute('href')).toBe('/');
    expect(screen.queryByRole('link', { name: 'Tribuna' })).toBeNull();

    act(() => signIn('user'));
    await act(() => router.navigate('/perfil/123'));
    expect(await screen.findByRole('heading', { name: 'Perfil no encontrado' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Iniciar sesión' })).toBeNull();
    expect(screen.getAllByRole('navigation', { name: 'Navegación principal' }).length).toBeGreaterThan(0);
  });

  it('shows only the brand while the session loads', async () => {
    useSessionStore.setState({ user: null, status: 'loading' });
    renderApp('/terminos');
    expect(await screen.findByRole('heading', { level: 1, name: 'Términos y Condiciones' })).toBeTruthy();
    expect(within(screen.getByRole('banner')).getByRole('link', { name: 'Tribuna' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Iniciar sesión' })).toBeNull();
  });

  it('shows the groups directory on /grupos to a signed-in user, with the navigation bar linking to it', async () => {
    signIn('user');
    renderApp('/grupos');
    expect(await screen.findByRole('heading', { level: 1, name: 'Grupos' })).toBeTruthy();
    const navigations = screen.getAllByRole('navigation', { name: 'Navegación principal' });
    for (const nav of navigations) expect(within(nav).getByRole('link', { name: 'Grupos' }).getAttribute('aria-current')).toBe('page');
    expect(screen.queryByRole('contentinfo')).toBeNull();
  });

  it('links the home page to /grupos', async () => {
    renderApp('/');
    expect((await screen.findByRole('link', { name: /Grupos de fans/ })).getAttribute('href')).toBe('/grupos');
  });

  it('shows the notifications empty state to a signed-in user', async () => {
    signIn('user');
    renderApp('/notificaciones');
    expect(await screen.findByRole('heading', { name: 'No tienes notificaciones' })).toBeTruthy();
    expect(screen.getByText(/reaccione, comente o te mencione/)).toBeTruthy();
    expect(requestedPaths()).toContain('/api/notifications');
    expect(requestedPaths()).not.toContain('/api/notifications/read');
  });

  it('sends a user away from /admin to /', () => {
    signIn('user');
    const router = renderApp('/admin/encuestas');
    expect(router.state.location.pathname).toBe('/');
  });

  it("lets a moderator into the back-office's moderation queue only", async () => {
    signIn('moderator');
    const router = renderApp('/admin/encuestas');
    expect(await screen.findByRole('heading', { name: 'Administración' })).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/moderacion'));
  });

  it('lets an admin into /admin without the navigation bar', async () => {
    signIn('admin');
    const router = renderApp('/admin/encuestas');
    expect(router.state.location.pathname).toBe('/admin/encuestas');
    expect(await screen.findByRole('heading', { name: 'Administración' })).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'Navegación principal' })).toBeNull();
  });
});
