import { beforeEach, describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import type { Role } from '@tribuna/contracts/roles';
import { useSessionStore } from '../lib/session/sessionStore';
import { buildProfile } from '../test/fixtures';
import { RequireAuth } from './RequireAuth';

function LoginProbe() {
  const location = useLocation();
  return <p>login page from {(location.state as { from?: string } | null)?.from}</p>;
}

function renderAt(path: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/" element={<p>home page</p>} />
        <Route path="/login" element={<LoginProbe />} />
        <Route element={<RequireAuth />}>
          <Route path="/wall" element={<p>wall page</p>} />
        </Route>
        <Route
          path="/admin/*"
          element={
            <RequireAuth role="admin">
              <p>admin page</p>
            </RequireAuth>
          }
        />
        <Route
          path="/moderation"
          element={
            <RequireAuth role="moderator">
              <p>moderation page</p>
            </RequireAuth>
          }
        />
      </Routes>
    </MemoryRouter>,
  );
}

const signIn = (role: Role) => useSessionStore.setState({ user: buildProfile({ role }), status: 'ready' });

describe('RequireAuth', () => {
  beforeEach(() => {
    useSessionStore.setState({ user: null, status: 'loading' });
  });

  it('shows a spinner while the session is loading', () => {
    renderAt('/wall');
    expect(screen.getByRole('status').textContent).toContain('Comprobando tu sesión');
    expect(screen.queryByText('wall page')).toBeNull();
    expect(screen.queryByText(/login page/)).toBeNull();
  });

  it('sends a visitor to /login, remembering the requested path', () => {
    useSessionStore.setState({ user: null, status: 'ready' });
    renderAt('/wall');
    expect(screen.getByText('login page from /wall')).toBeTruthy();
  });

  it('renders the protected child route for a signed-in user', () => {
    signIn('user');
    renderAt('/wall');
    expect(screen.getByText('wall page')).toBeTruthy();
  });

  it('sends a non-admin away from /admin to /', () => {
    signIn('user');
    renderAt('/admin/polls');
    expect(screen.getByText('home page')).toBeTruthy();
    expect(screen.queryByText('admin page')).toBeNull();
  });

  it('lets an admin into /admin', () => {
    signIn('admin');
    renderAt('/admin/polls');
    expect(screen.getByText('admin page')).toBeTruthy();
  });

  it('lets an admin into moderator routes', () => {
    signIn('admin');
    renderAt('/moderation');
    expect(screen.getByText('moderation page')).toBeTruthy();
  });

  it('lets a moderator into moderator routes', () => {
    signIn('moderator');
    renderAt('/moderation');
    expect(screen.getByText('moderation page')).toBeTruthy();
  });

  it('keeps a moderator out of /admin', () => {
    signIn('moderator');
    renderAt('/admin');
    expect(screen.getByText('home page')).toBeTruthy();
  });
});
