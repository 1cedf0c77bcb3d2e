import { beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import type { Profile } from '@tribuna/contracts/api/me';
import { PROFILE_MESSAGES } from '@tribuna/contracts/profileRules';
import { bodyOf, requestsOf, stubApi } from '../../test/apiStub';
import { FakeXhr, installFakeXhr } from '../../test/fakeXhr';
import { buildProfile, jsonResponse } from '../../test/fixtures';
import { useSessionStore } from '../../lib/session/sessionStore';
import { UserMenu } from '../../app/navigation/UserMenu';
import { changedFields } from './EditProfileDialog';
import { buildPublicProfile } from './profileFixtures';
import { ProfileRoute } from '../../app/ProfileRoute';

const me: Profile = buildProfile({ id: '40000000-0000-4000-8000-00000000c001', displayName: 'Ana López', username: 'ana', bio: 'Hola' });
const mine = buildPublicProfile({ id: me.id, displayName: 'Ana López', username: 'ana', bio: 'Hola' });
const image = (name: string, bytes = 10, type = 'image/png') => new File([new Uint8Array(bytes)], name, { type });

/** The navigation bar's user menu, fed by the session store as NavBar feeds it. */
function SessionMenu() {
  const user = useSessionStore((state) => state.user);
  return user ? <UserMenu user={user} variant="bar" /> : null;
}

function renderOwnProfile() {
  const base = `/api/profiles/${me.id}`;
  const fetchMock = stubApi({
    [`GET ${base}`]: () => jsonResponse(200, mine),
    [`GET ${base}/stats`]: () => jsonResponse(200, { votes: 0, posts: 0, comments: 0 }),
    [`GET ${base}/votes`]: () => jsonResponse(200, { items: [] }),
    'GET /api/auth/factors': () => jsonResponse(200, { factors: [] }),
    'PATCH /api/me': (init) => jsonResponse(200, { ...me, ...(JSON.parse(init.body as string) as Partial<Profile>) }),
  });
  render(
    <MemoryRouter initialEntries={['/perfil']}>
      <SessionMenu />
      <Routes>
        <Route path="/perfil" element={<ProfileRoute />} />
      </Routes>
    </MemoryRouter>,
  );
  return fetchMock;
}

async function openDialog() {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: 'Editar Perfil' }));
  const dialog = within(screen.getByRole('dialog', { name: 'Editar Perfil' }));
  return { user, dialog };
}

describe('EditProfileDialog', () => {
  beforeEach(() => {
    useSessionStore.setState({ user: me, status: 'ready', mfaFactorId: null });
    vi.spyOn(console, 'debug').mockImplementation(() => {});
    installFakeXhr();
  });

  it('shows the fields filled in, the hints and the counters', async () => {
    renderOwnProfile();
    const { user, dialog } = await openDialog();
    const name = dialog.getByLabelText('Nombre') as HTMLInputElement;
    expect(name.value).toBe('Ana López');
    expect(dialog.getByText('9/50')).toBeTruthy();
    expect(dialog.getByText('4/500')).toBeTruthy();
    expect(dialog.getByText('@')).toBeTruthy();
    expect(dialog.getByText('3-20 caracteres, solo letras, números y guión bajo')).toBeTruthy();
    expect(dialog.getByText('Banner: 1500x500px, máx. 5MB')).toBeTruthy();
    expect(dialog.getByText('Foto de perfil: 400x400px, máx. 5MB')).toBeTruthy();

    await user.type(name, ' 🎉');
    expect(dialog.getByText('11/50')).toBeTruthy();
    await user.type(dialog.getByLabelText('Biografía'), '!');
    expect(dialog.getByText('5/500')).toBeTruthy();
  });

  it('forces the username to lower case and shows the form messages', async () => {
    renderOwnProfile();
    const { user, dialog } = await openDialog();
    const username = dialog.getByLabelText('Usuario') as HTMLInputElement;
    await user.clear(username);
    await user.type(username, 'AnA_Lo');
    expect(username.value).toBe('ana_lo');
    expect(dialog.queryByText(PROFILE_MESSAGES.usernameChars)).toBeNull();

    await user.type(username, '-');
    expect(dialog.getByText(PROFILE_MESSAGES.usernameChars)).toBeTruthy();
    expect(username.getAttribute('aria-invalid')).toBe('true');

    await user.clear(username);
    await user.type(username, 'ab');
    expect(dialog.getByText(PROFILE_MESSAGES.usernameTooShort)).toBeTruthy();

    await user.clear(username);
    await user.type(username, 'a'.repeat(21));
    expect(dialog.getByText(PROFILE_MESSAGES.usernameTooLong)).toBeTruthy();
  });

  it('refuses to save an empty or too long name, or a too long bio, and sends nothing', async () => {
    const fetchMock = renderOwnProfile();
    const { user, dialog } = await openDialog();
    const name = dialog.getByLabelText('Nombre');
    await user.clear(name);
    await user.click(dialog.getByRole('button', { name: 'Guardar Cambios' }));
    expect(dialog.getByText(PROFILE_MESSAGES.nameEmpty)).toBeTruthy();
    expect(document.activeElement).toBe(name);

    await user.type(name, 'x'.repeat(51));
    expect(dialog.getByText(PROFILE_MESSAGES.nameTooLong)).toBeTruthy();
    expect(dialog.getByText('51/50')).toBeTruthy();

    fireEvent.change(dialog.getByLabelText('Biografía'), { target: { value: 'b'.repeat(501) } });
    expect(dialog.getByText(PROFILE_MESSAGES.bioTooLong)).toBeTruthy();
    expect(requestsOf(fetchMock)).not.toContain('PATCH /api/me');
  });

  it('turns "Mostrar mi nombre en las listas de votantes" off (on by default) and saves only that', async () => {
    const fetchMock = renderOwnProfile();
    const { user, dialog } = await openDialog();
    const toggle = dialog.getByRole('checkbox', { name: 'Mostrar mi nombre en las listas de votantes' }) as HTMLInputElement;
    expect(toggle.checked).toBe(true);
    expect(dialog.getByText(/tus votos cuentan igual pero no apareces con tu nombre/)).toBeTruthy();

    await user.click(toggle);
    await user.click(dialog.getByRole('button', { name: 'Guardar Cambios' }));
    await waitFor(() => expect(requestsOf(fetchMock)).toContain('PATCH /api/me'));
    expect(bodyOf(fetchMock, 'PATCH /api/me')).toEqual({ showInVoterLists: false });
    await waitFor(() => expect(useSessionStore.getState().user?.showInVoterLists).toBe(false));
  });

  it('shows the saved choice when it is off, and sends nothing when it is left alone', async () => {
    useSessionStore.setState({ user: { ...me, showInVoterLists: false } });
    const fetchMock = renderOwnProfile();
    const { user, dialog } = await openDialog();
    expect((dialog.getByRole('checkbox', { name: 'Mostrar mi nombre en las listas de votantes' }) as HTMLInputElement).checked).toBe(false);
    await user.click(dialog.getByRole('button', { name: 'Guardar Cambios' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Editar Perfil' })).toBeNull());
    expect(requestsOf(fetchMock)).not.toContain('PATCH /api/me');
  });

  it('checks picked images: at most 5MB, JPG, PNG or WebP', async () => {
    renderOwnProfile();
    const { dialog } = await openDialog();
    const avatar = dialog.getByLabelText('Cambiar foto de perfil');
    const banner = dialog.getByLabelText('Cambiar banner');
    fireEvent.change(avatar, { target: { files: [image('big.png', 5 * 1024 * 1024 + 1)] } });
    expect(dialog.getByText(PROFILE_MESSAGES.imageTooLarge)).toBeTruthy();
    fireEvent.change(banner, { target: { files: [image('anim.gif', 10, 'image/gif')] } });
    expect(dialog.getByText(PROFILE_MESSAGES.imageType)).toBeTruthy();
    fireEvent.change(avatar, { target: { files: [image('ok.webp', 10, 'image/webp')] } });
    expect(dialog.queryByText(PROFILE_MESSAGES.imageTooLarge)).toBeNull();
  });

  it('uploads the new avatar with progress, saves only what changed, and updates the navigation bar at once', async () => {
    const fetchMock = renderOwnProfile();
    const { user, dialog } = await openDialog();
    fireEvent.change(dialog.getByLabelText('Cambiar foto de perfil'), { target: { files: [image('yo.png')] } });
    await user.clear(dialog.getByLabelText('Biografía'));
    await user.type(dialog.getByLabelText('Biografía'), '  Nueva bio  ');
    await user.click(dialog.getByRole('button', { name: 'Guardar Cambios' }));

    expect(dialog.getByRole('button', { name: 'Guardando...' })).toBeTruthy();
    const xhr = FakeXhr.last;
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe('/api/me/avatar');
    expect(xhr.fields()).toEqual([['image', 'file:yo.png']]);
    act(() => xhr.progress(40, 100));
    expect(dialog.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('40');
    await act(async () => xhr.respond(201, { url: '/media/avatar-1.webp', thumbnailUrl: '/media/avatar-1-t.webp', width: 400, height: 400 }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(bodyOf(fetchMock, 'PATCH /api/me')).toEqual({ bio: 'Nueva bio', avatarUrl: '/media/avatar-1.webp' });
    expect(useSessionStore.getState().user?.avatarUrl).toBe('/media/avatar-1.webp');
    // The navigation bar's menu button and the profile header show the new picture.
    const menuButton = screen.getByRole('button', { name: 'Menú de Ana López' });
    expect(menuButton.querySelector('img')?.getAttribute('src')).toBe('/media/avatar-1.webp');
    expect(screen.getByText('Nueva bio')).toBeTruthy();
  });

  it("shows the server's message, or the fallback, and stays open", async () => {
    const fetchMock = renderOwnProfile();
    let calls = 0;
    fetchMock.mockImplementation(async (path: string, init: RequestInit = {}) => {
      if (`${init.method} ${path}` === 'PATCH /api/me') {
        return ++calls === 1
          ? jsonResponse(409, { statusCode: 409, error: 'Conflict', message: PROFILE_MESSAGES.usernameTaken })
          : new Response('', { status: 502 });
      }
      if (path === `/api/profiles/${me.id}`) return jsonResponse(200, mine);
      return jsonResponse(200, { items: [], factors: [], votes: 0, posts: 0, comments: 0 });
    });
    const { user, dialog } = await openDialog();
    await user.clear(dialog.getByLabelText('Usuario'));
    await user.type(dialog.getByLabelText('Usuario'), 'luis');
    await user.click(dialog.getByRole('button', { name: 'Guardar Cambios' }));
    expect((await dialog.findByRole('alert')).textContent).toBe(PROFILE_MESSAGES.usernameTaken);
    expect(dialog.getByRole('button', { name: 'Guardar Cambios' })).toBeTruthy();

    await user.click(dialog.getByRole('button', { name: 'Guardar Cambios' }));
    await waitFor(() => expect(dialog.getByRole('alert').textContent).toBe(PROFILE_MESSAGES.updateFailed));
    expect(useSessionStore.getState().user?.username).toBe('ana');
  });

  it('shows an upload failure and does not save the profile', async () => {
    const fetchMock = renderOwnProfile();
    const { user, dialog } = await openDialog();
    fireEvent.change(dialog.getByLabelText('Cambiar banner'), { target: { files: [image('b.jpg', 10, 'image/jpeg')] } });
    await user.click(dialog.getByRole('button', { name: 'Guardar Cambios' }));
    expect(FakeXhr.last.url).toBe('/api/me/banner');
    await act(async () => FakeXhr.last.respond(400, { statusCode: 400, error: 'Bad Request', message: PROFILE_MESSAGES.imageTypeApi }));
    expect((await dialog.findByRole('alert')).textContent).toBe(PROFILE_MESSAGES.imageTypeApi);
    expect(requestsOf(fetchMock)).not.toContain('PATCH /api/me');
  });

  it('closes with Cancelar without saving', async () => {
    const fetchMock = renderOwnProfile();
    const { user, dialog } = await openDialog();
    await user.type(dialog.getByLabelText('Nombre'), 'x');
    await user.click(dialog.getByRole('button', { name: 'Cancelar' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(requestsOf(fetchMock)).not.toContain('PATCH /api/me');
  });
});

describe('changedFields', () => {
  it('sends only the changed fields, trimmed, with emptied username and bio as null', () => {
    const profile = buildPublicProfile({ displayName: 'Ana', username: 'ana', bio: 'Hola' });
    expect(changedFields(profile, { displayName: ' Ana ', username: 'ana', bio: 'Hola ' }, {})).toEqual({});
    expect(changedFields(profile, { displayName: 'Ana María', username: '', bio: '' }, { banner: '/media/b.webp' })).toEqual({
      displayName: 'Ana María',
      username: null,
      bio: null,
      bannerUrl: '/media/b.webp',
    });
  });
});
