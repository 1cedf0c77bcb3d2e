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
import { buildPostItem, queuePage } from './moderation/moderationFixtures';

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
  let live: ReturnType<typeof spyLive>;
  let openCount = 0;
  beforeEach(() => {
    useSessionStore.setState({ user: admin, email: null, status: 'ready' });
    live = spyLive();
    openCount = 0;
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
      'GET /api/moderation/count': () => jsonResponse(200, { open: openCount }),
      'GET /api/moderation/queue': () => jsonResponse(200, queuePage([buildPostItem()])),
      'POST /auth/logout': () => new Response(null, { status: 204 }),
    });
  });

  it('shows the 8 entries in order, then Moderación, Auditoría and Colas, with the current one highlighted, the header and the admin', async () => {
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
    ['/admin/moderacion', 'Moderación'],
    ['/admin/auditoria', 'Auditoría'],
    ['/admin/colas', 'Colas'],
  ])('shows its screen on %s, the entry highlighted', async (path, title) => {
    renderAdmin(path);
    expect(await screen.findByRole('heading', { level: 2, name: title })).toBeTruthy();
    expect(sections().getByRole('link', { name: title }).getAttribute('aria-current')).toBe('page');
  });

  it('keeps fans out', () => {
    useSessionStore.setState({ user: buildProfile({ role: 'user' }), status: 'ready' });
    const router = renderAdmin('/admin/moderacion');
    expect(router.state.location.pathname).toBe('/');
  });

  it.each(['/admin', '/admin/realitys', '/admin/usuarios', '/admin/auditoria', '/admin/no-existe'])(
    'shows a moderator only Moderación: %s goes to /admin/moderacion',
    async (path) => {
      useSessionStore.setState({ user: buildProfile({ role: 'moderator', displayName: 'Rosa Mod', username: 'rosa' }), status: 'ready' });
      const router = renderAdmin(path);
      expect(await screen.findByRole('heading', { level: 2, name: 'Moderación' })).toBeTruthy();
      expect(router.state.location.pathname).toBe('/admin/moderacion');
      const links = sections().getAllByRole('link');
      expect(links.map((l) => l.getAttribute('href'))).toEqual(['/admin/moderacion']);
      expect(links[0]!.getAttribute('aria-current')).toBe('page');
      expect(within(sidebar()).getByText('Moderador')).toBeTruthy();
      expect(within(sidebar()).queryByText('Administrador')).toBeNull();
      // Nothing of the admin-only screens was asked for (their data, their live topic).
      expect(requestsOf(fetchMock).filter((r) => r.includes('/api/admin/'))).toEqual([]);
      expect(live.topics()).toContain('moderation');
      expect(live.topics()).not.toContain('admin');
    },
  );

  it("keeps Moderación's badge live: the open count at first, then the topic's snapshots", async () => {
    openCount = 3;
    renderAdmin('/admin/realitys');
    await screen.findByRole('heading', { level: 2, name: 'Realities' });
    const entry = await sections().findByRole('link', { name: 'Moderación 3 pendientes' });
    expect(within(entry).getByText('3').getAttribute('aria-hidden')).toBe('true');
    expect(screen.getByTestId('pending-dot')).toBeTruthy();
    expect(requestsOf(fetchMock)).toContain('GET /api/moderation/count');
    expect(live.topics()).toContain('moderation');

    live.deliver({ type: 'moderation-count', topic: 'moderation', open: 1 });
    expect(sections().getByRole('link', { name: 'Moderación 1 pendiente' })).toBeTruthy();
    live.deliver({ type: 'moderation-count', topic: 'moderation', open: 120 });
    expect(within(sections().getByRole('link', { name: 'Moderación 120 pendientes' })).getByText('120')).toBeTruthy();
    live.deliver({ type: 'moderation-count', topic: 'moderation', open: 0 });
    expect(sections().getByRole('link', { name: 'Moderación' })).toBeTruthy();
    expect(screen.queryByTestId('pending-dot')).toBeNull();

    // After a dropped connection the count is read again over HTTP.
    openCount = 2;
    await live.resync('moderation');
    expect(await sections().findByRole('link', { name: 'Moderación 2 pendientes' })).toBeTruthy();
    expect(requestsOf(fetchMock).filter((r) => r === 'GET /api/moderation/count')).toHaveLength(2);
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
