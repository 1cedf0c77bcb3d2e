import { beforeEach, describe, expect, it } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { useSessionStore } from '../../lib/session/sessionStore';
import { useThemeStore } from '../../lib/themeStore';
import { stubApi } from '../../test/apiStub';
import { buildProfile, jsonResponse } from '../../test/fixtures';
import { NavBar } from './NavBar';

function renderAt(path: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <NavBar />
      <Routes>
        <Route path="/login" element={<p>login page</p>} />
        <Route path="*" element={<p>outside the menu</p>} />
      </Routes>
    </MemoryRouter>,
  );
}

const signIn = () => useSessionStore.setState({ user: buildProfile({ displayName: 'Ana López' }), status: 'ready' });

/** Mobile and desktop bars are both in the DOM (CSS picks one); tests address one explicitly. */
const desktopBar = () => within(screen.getByRole('banner'));
const mobileBar = () => {
  const bars = screen.getAllByRole('navigation', { name: 'Navegación principal' });
  const mobile = bars.find((bar) => !bar.closest('header'));
  if (!mobile) throw new Error('mobile bar not rendered');
  return within(mobile);
};

describe('NavBar', () => {
  beforeEach(() => {
    useSessionStore.setState({ user: null, status: 'ready' });
    useThemeStore.setState({ theme: 'dark' });
    // The badge's count (its own tests are in UnreadBadge.test.tsx).
    stubApi({ 'GET /api/notifications/unread': () => jsonResponse(200, { unreadCount: 0 }) });
  });

  it('is hidden from visitors', () => {
    renderAt('/');
    expect(screen.queryByRole('navigation')).toBeNull();
  });

  it('is hidden on /admin paths', () => {
    signIn();
    renderAt('/admin/polls');
    expect(screen.queryByRole('navigation')).toBeNull();
  });

  it('shows the mobile tabs and the desktop bar to signed-in users', () => {
    signIn();
    renderAt('/');
    expect(desktopBar().getByRole('link', { name: 'Tribuna' })).toBeTruthy();
    expect(desktopBar().getByRole('link', { name: 'Notificaciones' }).getAttribute('href')).toBe('/notificaciones');
    expect(mobileBar().getByRole('link', { name: 'Avisos' }).getAttribute('href')).toBe('/notificaciones');
    expect(mobileBar().getByRole('link', { name: 'Muro' }).getAttribute('href')).toBe('/wall');
    expect(mobileBar().getByRole('button', { name: 'Perfil' })).toBeTruthy();
    // Dark is the default, so the toggle offers the light theme.
    expect(mobileBar().getByRole('button', { name: 'Cambiar a modo claro' }).textContent).toBe('Claro');
  });

  it('highlights the current route with aria-current="page"', () => {
    signIn();
    renderAt('/wall');
    for (const bar of [desktopBar(), mobileBar()]) {
      expect(bar.getByRole('link', { name: 'Muro' }).getAttribute('aria-current')).toBe('page');
      expect(bar.getByRole('link', { name: 'Home' }).getAttribute('aria-current')).toBeNull();
    }
  });

  it('highlights Home only on /', () => {
    signIn();
    renderAt('/');
    expect(mobileBar().getByRole('link', { name: 'Home' }).getAttribute('aria-current')).toBe('page');
    expect(mobileBar().getByRole('link', { name: 'Avisos' }).getAttribute('aria-current')).toBeNull();
  });

  it('opens the user menu and closes it on an outside click', async () => {
    const user = userEvent.setup();
    signIn();
    renderAt('/');
    const trigger = desktopBar().getByRole('button', { name: 'Menú de Ana López' });

    await user.click(trigger);
    const menu = screen.getByRole('menu', { name: 'Menú de usuario' });
    expect(trigger.getAttribute('aria-expanded')).toBe('true');
    expect(within(menu).getByRole('menuitem', { name: 'Perfil' }).getAttribute('href')).toBe('/perfil');
    expect(within(menu).getByRole('menuitem', { name: 'Modo Claro' })).toBeTruthy();
    expect(document.activeElement).toBe(within(menu).getByRole('menuitem', { name: 'Perfil' }));

    await user.click(screen.getByText('outside the menu'));
    expect(screen.queryByRole('menu')).toBeNull();
    expect(trigger.getAttribute('aria-expanded')).toBe('false');
  });

  it('closes the menu on Escape and returns focus to its button', async () => {
    const user = userEvent.setup();
    signIn();
    renderAt('/');
    const trigger = mobileBar().getByRole('button', { name: 'Perfil' });
    await user.click(trigger);
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Modo Claro' }));

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(trigger);
  });

  it('switches the theme from the menu', async () => {
    const user = userEvent.setup();
    signIn();
    renderAt('/');
    await user.click(desktopBar().getByRole('button', { name: 'Menú de Ana López' }));
    await user.click(screen.getByRole('menuitem', { name: 'Modo Claro' }));
    expect(useThemeStore.getState().theme).toBe('light');
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('signs out from the menu and goes to /login', async () => {
    const user = userEvent.setup();
    const fetchMock = stubApi({
      'GET /api/notifications/unread': () => jsonResponse(200, { unreadCount: 0 }),
      'POST /auth/logout': () => new Response(null, { status: 204 }),
    });
    signIn();
    renderAt('/wall');

    await user.click(desktopBar().getByRole('button', { name: 'Menú de Ana López' }));
    await user.click(screen.getByRole('menuitem', { name: 'Cerrar sesión' }));

    await waitFor(() => expect(screen.getByText('login page')).toBeTruthy());
    expect(fetchMock).toHaveBeenCalledWith('/auth/logout', expect.objectContaining({ method: 'POST' }));
    expect(useSessionStore.getState().user).toBeNull();
    expect(screen.queryByRole('navigation')).toBeNull();
  });
});
