import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import type { Profile } from '@tribuna/contracts/api/me';
import type { PublicProfile } from '@tribuna/contracts/api/profiles';
import { FOLLOW_MESSAGES } from '@tribuna/contracts/followRules';
import { requestsOf, stubApi, type Handler } from '../../test/apiStub';
import { buildProfile, jsonResponse } from '../../test/fixtures';
import { useSessionStore } from '../../lib/session/sessionStore';
import { buildFollowEntry, buildPublicProfile } from './profileFixtures';
import { ProfileRoute } from '../../app/ProfileRoute';

const me: Profile = buildProfile({ id: '40000000-0000-4000-8000-00000000a101', displayName: 'Ana López', username: 'ana' });
const mine = buildPublicProfile({ id: me.id, displayName: 'Ana López', followersCount: 0, followingCount: 2 });
const luis = buildPublicProfile({
  id: '40000000-0000-4000-8000-00000000b102',
  displayName: 'Luis Pérez',
  username: 'luis',
  followersCount: 41,
  followingCount: 7,
});
const followPath = `/api/profiles/${luis.id}/follow`;

/** A response the test hands over when it chooses (the optimistic state shows meanwhile). */
function deferred() {
  let release: (response: Response) => void = () => {};
  const promise = new Promise<Response>((resolve) => {
    release = resolve;
  });
  return { handler: () => promise, release };
}

function profileApi(profile: PublicProfile, extra: Record<string, Handler> = {}) {
  const base = `/api/profiles/${profile.id}`;
  return stubApi({
    [`GET ${base}`]: () => jsonResponse(200, profile),
    [`GET ${base}/stats`]: () => jsonResponse(200, { votes: 0, posts: 0, comments: 0 }),
    [`GET ${base}/votes`]: () => jsonResponse(200, { items: [] }),
    'GET /api/auth/factors': () => jsonResponse(200, { factors: [] }),
    ...extra,
  });
}

function renderAt(path: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/login" element={<h1>Login</h1>} />
        <Route path="/perfil" element={<ProfileRoute />} />
        <Route path="/perfil/:userId" element={<ProfileRoute />} />
      </Routes>
    </MemoryRouter>,
  );
}

const countButton = (label: 'Seguidores' | 'Siguiendo') => screen.getByRole('button', { name: new RegExp(`^[\\d,]+ ${label}$`) });

describe('Follows on the profile', () => {
  beforeEach(() => {
    useSessionStore.setState({ user: me, status: 'ready', mfaFactorId: null });
    vi.spyOn(console, 'debug').mockImplementation(() => {});
  });

  it("follows at once (aria-pressed, +1 follower), keeps the server's count, and stops following the same way", async () => {
    const follow = deferred();
    const unfollow = deferred();
    const fetchMock = profileApi(luis, { [`PUT ${followPath}`]: follow.handler, [`DELETE ${followPath}`]: unfollow.handler });
    const user = userEvent.setup();
    renderAt(`/perfil/${luis.id}`);
    const button = await screen.findByRole('button', { name: 'Seguir' });
    expect(button.getAttribute('aria-pressed')).toBe('false');
    expect(countButton('Seguidores').textContent).toBe('41 Seguidores');
    expect(countButton('Siguiendo').textContent).toBe('7 Siguiendo');

    await user.click(button);
    expect(button.textContent).toBe('Siguiendo');
    expect(button.getAttribute('aria-pressed')).toBe('true');
    expect(countButton('Seguidores').textContent).toBe('42 Seguidores');
    follow.release(jsonResponse(200, { following: true, followersCount: 50 }));
    await waitFor(() => expect(countButton('Seguidores').textContent).toBe('50 Seguidores'));

    await user.click(button);
    expect(button.textContent).toBe('Seguir');
    expect(countButton('Seguidores').textContent).toBe('49 Seguidores');
    unfollow.release(jsonResponse(200, { following: false, followersCount: 49 }));
    await waitFor(() => expect(button.getAttribute('aria-busy')).toBeNull());
    expect(button.getAttribute('aria-pressed')).toBe('false');
    expect(requestsOf(fetchMock).filter((r) => r.includes('/follow'))).toEqual([`PUT ${followPath}`, `DELETE ${followPath}`]);
  });

  it('rolls back when the server refuses, with its message', async () => {
    const follow = deferred();
    profileApi(luis, { [`PUT ${followPath}`]: follow.handler });
    const user = userEvent.setup();
    renderAt(`/perfil/${luis.id}`);
    const button = await screen.findByRole('button', { name: 'Seguir' });
    await user.click(button);
    expect(button.getAttribute('aria-pressed')).toBe('true');
    // A second click while the call runs changes nothing.
    await user.click(button);
    follow.release(jsonResponse(403, { statusCode: 403, error: 'Forbidden', message: 'Tu cuenta está suspendida' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Tu cuenta está suspendida');
    expect(button.getAttribute('aria-pressed')).toBe('false');
    expect(button.textContent).toBe('Seguir');
    expect(countButton('Seguidores').textContent).toBe('41 Seguidores');
  });

  it('offers no follow button on the own profile, and sign-in to visitors', async () => {
    profileApi(mine);
    const { unmount } = renderAt('/perfil');
    expect(await screen.findByRole('button', { name: 'Editar Perfil' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Seguir' })).toBeNull();
    expect(countButton('Siguiendo').textContent).toBe('2 Siguiendo');
    unmount();

    useSessionStore.setState({ user: null, status: 'ready' });
    profileApi(luis);
    renderAt(`/perfil/${luis.id}`);
    expect((await screen.findByRole('link', { name: 'Inicia sesión para seguir' })).getAttribute('href')).toBe('/login');
    expect(screen.queryByRole('button', { name: 'Seguir' })).toBeNull();
  });

  it("lists the followers in a dialog: skeleton, rows linking to profiles, a follow button for others, 'Cargar más'", async () => {
    const carla = buildFollowEntry({ user: { id: '40000000-0000-4000-8000-00000000c103', displayName: 'Carla Ruiz', username: 'carla', avatarUrl: null } });
    const self = buildFollowEntry({ user: { id: me.id, displayName: 'Ana López', username: 'ana', avatarUrl: null } });
    const beto = buildFollowEntry({
      user: { id: '40000000-0000-4000-8000-00000000c104', displayName: 'Beto', username: null, avatarUrl: null },
      viewerFollows: true,
    });
    const first = deferred();
    const fetchMock = profileApi(luis, {
      [`GET /api/profiles/${luis.id}/followers`]: first.handler,
      [`GET /api/profiles/${luis.id}/followers?cursor=k1`]: () => jsonResponse(200, { items: [beto], nextCursor: null }),
      [`PUT /api/profiles/${carla.user.id}/follow`]: () => jsonResponse(200, { following: true, followersCount: 1 }),
    });
    const user = userEvent.setup();
    renderAt(`/perfil/${luis.id}`);
    await user.click(await screen.findByRole('button', { name: '41 Seguidores' }));
    const dialog = screen.getByRole('dialog', { name: 'Seguidores' });
    expect(within(dialog).getByRole('status').textContent).toBe('Cargando…');
    first.release(jsonResponse(200, { items: [carla, self], nextCursor: 'k1' }));

    const list = await within(dialog).findByRole('list', { name: 'Seguidores' });
    const rows = within(list).getAllByRole('listitem');
    expect(within(rows[0]!).getByRole('link', { name: 'Carla Ruiz' }).getAttribute('href')).toBe(`/perfil/${carla.user.id}`);
    expect(within(rows[0]!).getByText('@carla')).toBeTruthy();
    expect(within(rows[1]!).queryByRole('button')).toBeNull();
    await user.click(within(rows[0]!).getByRole('button', { name: 'Seguir' }));
    await waitFor(() => expect(within(rows[0]!).getByRole('button', { name: 'Siguiendo' }).getAttribute('aria-pressed')).toBe('true'));

    await user.click(within(dialog).getByRole('button', { name: 'Cargar más' }));
    expect(await within(dialog).findByRole('link', { name: 'Beto' })).toBeTruthy();
    expect(within(dialog).getAllByRole('button', { name: 'Siguiendo' })).toHaveLength(2);
    expect(within(dialog).queryByRole('button', { name: 'Cargar más' })).toBeNull();
    expect(requestsOf(fetchMock)).toContain(`PUT /api/profiles/${carla.user.id}/follow`);

    // Following someone from another's list leaves this profile's counts alone.
    await user.click(within(dialog).getAllByRole('button', { name: 'Cerrar' })[0]!);
    expect(countButton('Siguiendo').textContent).toBe('7 Siguiendo');
  });

  it("says who follows nobody yet, the own 'Siguiendo' count follows what is unfollowed from the list, and a failed list offers Reintentar", async () => {
    let attempts = 0;
    const carla = buildFollowEntry({ viewerFollows: true });
    profileApi(mine, {
      [`GET /api/profiles/${me.id}/followers`]: () => jsonResponse(200, { items: [], nextCursor: null }),
      [`GET /api/profiles/${me.id}/following`]: () =>
        ++attempts === 1 ? jsonResponse(500, { statusCode: 500, error: 'x', message: 'boom' }) : jsonResponse(200, { items: [carla], nextCursor: null }),
      [`DELETE /api/profiles/${carla.user.id}/follow`]: () => jsonResponse(200, { following: false, followersCount: 0 }),
    });
    const user = userEvent.setup();
    renderAt('/perfil');
    await user.click(await screen.findByRole('button', { name: '0 Seguidores' }));
    expect(await within(screen.getByRole('dialog', { name: 'Seguidores' })).findByText('Todavía no tienes seguidores')).toBeTruthy();
    await user.keyboard('{Escape}');

    await user.click(countButton('Siguiendo'));
    const dialog = screen.getByRole('dialog', { name: 'Siguiendo' });
    expect((await within(dialog).findByRole('alert')).textContent).toContain('boom');
    await user.click(within(dialog).getByRole('button', { name: 'Reintentar' }));
    await user.click(await within(dialog).findByRole('button', { name: 'Siguiendo' }));
    await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Seguir' }).getAttribute('aria-pressed')).toBe('false'));
    await user.keyboard('{Escape}');
    expect(countButton('Siguiendo').textContent).toBe('1 Siguiendo');
  });

  it("says another fan follows nobody, and a failed list's text falls back", async () => {
    profileApi(luis, {
      [`GET /api/profiles/${luis.id}/following`]: () => jsonResponse(200, { items: [], nextCursor: null }),
      [`GET /api/profiles/${luis.id}/followers`]: () => new Response('', { status: 502 }),
    });
    const user = userEvent.setup();
    renderAt(`/perfil/${luis.id}`);
    await user.click(await screen.findByRole('button', { name: '7 Siguiendo' }));
    expect(await screen.findByText('Todavía no sigue a nadie')).toBeTruthy();
    await user.keyboard('{Escape}');
    await user.click(countButton('Seguidores'));
    expect((await within(screen.getByRole('dialog', { name: 'Seguidores' })).findByRole('alert')).textContent).toContain(FOLLOW_MESSAGES.loadFailed);
  });
});
