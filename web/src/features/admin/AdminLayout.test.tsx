import { beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RouterProvider, createMemoryRouter } from 'react-router-dom';
import { ADMIN_EXTRA_NAV, ADMIN_NAV } from '@tribuna/contracts/adminRules';
import { routes } from '../../app/routes';
import { useSessionStore } from '../../lib/session/sessionStore';
import { stubApi, requestsOf } from '../../test/apiStub';
import { buildProfile, jsonResponse } from '../../test/fixtures';
import { spyLive } from '../../test/liveSpy';
import { buildDashboard } from './adminFixtures';

function renderAdmin(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(<RouterProvider router={router} />);
  return router;
}

const admin = buildProfile({ role: 'admin', displayName: 'Marta Admin', username: 'marta' });
const sidebar = () => screen.getByRole('complementary', { name: 'Menú de administración' });
const sections = () => within(screen.getByRole('navigation', { name: 'Secciones de administración' }));

describe('AdminLayout (the back-office shell)', () => {
  let fetchMock: ReturnType<typeof stubApi>;
  beforeEach(() => {
    useSessionStore.setState({ user: admin, email: null, status: 'ready' });
    spyLive();
    vi.spyOn(console, 'debug').mockImplementation(() => {});
    fetchMock = stubApi({
      'POST /api/page-views': () => new Response(null, { status: 204 }),
      'GET /api/admin/dashboard': () => jsonResponse(200, buildDashboard()),
      'GET /api/admin/realities': () => jsonResponse(200, { realities: [] }),
      'GET /api/admin/seasons': () => jsonResponse(200, { seasons: [] }),
      'GET /api/admin/users': () => jsonResponse(200, { items: [], total: 0, page: 1, pageSize: 20 }),
      'GET /api/admin/audit': () => jsonResponse(200, { items: [], nextCursor: null }),
      'GET /api/admin/audit/filters': () => jsonResponse(200, { admins: [], actions: [] }),
      'GET /api/admin/queues': () => jsonResponse(200, { queues: [], checkedAt: new Date().toISOString() }),
      'POST /auth/logout': () => new Response(null, { status: 204 }),
    });
  });

  it('shows the 8 entries in order, then Auditoría and Colas, with the current one highlighted, the header and the admin', async () => {
    renderAdmin('/admin/realitys');
    expect(await screen.findByRole('heading', { level: 1, name: 'Administración' })).toBeTruthy();
    // The screen (a lazy chunk) in place: no navigation still pending while the shell is checked.
    expect(await screen.findByRole('heading', { level: 2, name: 'Realities' })).toBeTruthy();
    const links = sections().getAllByRole('link');
    const entries = [...ADMIN_NAV, ...ADMIN_EXTRA_NAV];
    expect(links.map((l) => l.textContent)).toEqual(entries.map((e) => e.label));
    expect(links.map((l) => l.getAttribute('href'))).toEqual(entries.map((e) => e.path));
    expect(ADMIN_NAV).toHaveLength(8);
    expect(sections().getByRole('link', { name: 'Realities' }).getAttribute('aria-current')).toBe('page');
    // The dashboard entry is current only on /admin itself.
    expect(sections().getByRole('link', { name: 'Dashboard' }).getAttribute('aria-current')).toBeNull();
    expect(within(sidebar()).getByText('Marta Admin')).toBeTruthy();
    expect(within(sidebar()).getByText('@marta')).toBeTruthy();
    expect(within(sidebar()).getByRole('link', { name: 'Volver al inicio' }).getAttribute('href')).toBe('/');
    // The admin's e-mail (from the session answer) when there is one.
    act(() => useSessionStore.setState({ email: 'marta@tribuna.mx' }));
    expect(within(sidebar()).getByText('marta@tribuna.mx')).toBeTruthy();
    // The public site's navigation bar is not shown on /admin.
    expect(screen.queryByRole('navigation', { name: 'Navegación principal' })).toBeNull();
  });

  it('moves between screens through the sidebar', async () => {
    const user = userEvent.setup();
    const router = renderAdmin('/admin');
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeTruthy();
    await user.click(sections().getByRole('link', { name: 'Temporadas' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Temporadas' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/admin/temporadas');
    expect(sections().getByRole('link', { name: 'Temporadas' }).getAttribute('aria-current')).toBe('page');
  });

  it.each(['/admin/no-existe', '/admin/polls', '/admin/realitys/otra/cosa'])('redirects %s to /admin', async (path) => {
    const router = renderAdmin(path);
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/admin');
  });

  it.each([
    ['/admin/usuarios', 'Usuarios'],
    ['/admin/auditoria', 'Auditoría'],
    ['/admin/colas', 'Colas'],
  ])('shows its screen on %s, the entry highlighted', async (path, title) => {
    renderAdmin(path);
    expect(await screen.findByRole('heading', { level: 2, name: title })).toBeTruthy();
    expect(sections().getByRole('link', { name: title }).getAttribute('aria-current')).toBe('page');
  });

  it('keeps non-admins out', () => {
    useSessionStore.setState({ user: buildProfile({ role: 'moderator' }), status: 'ready' });
    const router = renderAdmin('/admin/realitys');
    expect(router.state.location.pathname).toBe('/');
  });

  it('signs out and goes to /login from the sidebar footer', async () => {
    const user = userEvent.setup();
    const router = renderAdmin('/admin');
    await user.click(await within(sidebar()).findByRole('button', { name: 'Cerrar sesión' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(requestsOf(fetchMock)).toContain('POST /auth/logout');
    expect(useSessionStore.getState().user).toBeNull();
  });

  it('slides the sidebar in on a phone: menu button, focus inside, Escape and the overlay close it', async () => {
    const user = userEvent.setup();
    renderAdmin('/admin');
    const menu = await screen.findByRole('button', { name: 'Abrir menú' });
    expect(menu.getAttribute('aria-expanded')).toBe('false');
    expect(sidebar().getAttribute('data-state')).toBe('closed');
    expect(sidebar().className).toContain('-translate-x-full');

    await user.click(menu);
    const panel = screen.getByRole('dialog', { name: 'Menú de administración' });
    expect(panel.getAttribute('data-state')).toBe('open');
    expect(panel.getAttribute('aria-modal')).toBe('true');
    expect(menu.getAttribute('aria-expanded')).toBe('true');
    expect(document.activeElement).toBe(within(panel).getByRole('button', { name: 'Cerrar menú' }));
    // Focus stays inside: Shift+Tab from the first control wraps to the last.
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(within(panel).getByRole('button', { name: 'Cerrar sesión' }));
    await user.tab();
    expect(document.activeElement).toBe(within(panel).getByRole('button', { name: 'Cerrar menú' }));

    await user.keyboard('{Escape}');
    expect(sidebar().getAttribute('data-state')).toBe('closed');
    expect(document.activeElement).toBe(menu);

    await user.click(menu);
    await user.click(screen.getByTestId('admin-overlay'));
    expect(sidebar().getAttribute('data-state')).toBe('closed');

    // Following a link closes it too.
    await user.click(menu);
    await user.click(sections().getByRole('link', { name: 'Realities' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Realities' })).toBeTruthy();
    expect(sidebar().getAttribute('data-state')).toBe('closed');
  });
});
