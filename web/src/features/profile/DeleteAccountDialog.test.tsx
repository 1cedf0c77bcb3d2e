import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, RouterProvider, Routes, createMemoryRouter } from 'react-router-dom';
import { PROFILE_MESSAGES } from '@tribuna/contracts/profileRules';
import { RequireAuth } from '../../app/RequireAuth';
import { routes } from '../../app/routes';
import { bodyOf, requestsOf, stubApi, type Handler } from '../../test/apiStub';
import { buildProfile, jsonResponse } from '../../test/fixtures';
import { useSessionStore } from '../../lib/session/sessionStore';
import { buildPublicProfile } from './profileFixtures';
import { ProfileRoute } from '../../app/ProfileRoute';

const me = buildProfile({ id: '40000000-0000-4000-8000-00000000d001' });

function renderOwnProfile(deleteHandler: Handler) {
  const base = `/api/profiles/${me.id}`;
  const fetchMock = stubApi({
    [`GET ${base}`]: () => jsonResponse(200, buildPublicProfile({ id: me.id })),
    [`GET ${base}/stats`]: () => jsonResponse(200, { votes: 0, posts: 0, comments: 0 }),
    [`GET ${base}/votes`]: () => jsonResponse(200, { items: [] }),
    'GET /api/auth/factors': () => jsonResponse(200, { factors: [] }),
    'DELETE /api/me': deleteHandler,
  });
  render(
    <MemoryRouter initialEntries={['/perfil']}>
      <Routes>
        <Route path="/" element={<h1>Inicio</h1>} />
        <Route path="/login" element={<h1>Login</h1>} />
        <Route element={<RequireAuth />}>
          <Route path="/perfil" element={<ProfileRoute />} />
        </Route>
      </Routes>
    </MemoryRouter>,
  );
  return fetchMock;
}

async function openDialog() {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: 'Eliminar cuenta' }));
  const dialog = within(screen.getByRole('dialog', { name: 'Eliminar cuenta' }));
  return { user, dialog };
}

describe('DeleteAccountDialog', () => {
  beforeEach(() => {
    useSessionStore.setState({ user: me, email: 'ana@example.com', status: 'ready', mfaFactorId: null });
    vi.spyOn(console, 'debug').mockImplementation(() => {});
  });

  it('warns, and enables Eliminar Cuenta only once ELIMINAR is typed (uppercased as typed)', async () => {
    renderOwnProfile(() => new Response(null, { status: 204 }));
    const { user, dialog } = await openDialog();
    expect(dialog.getByText('Esta acción no se puede deshacer.')).toBeTruthy();
    expect(dialog.getByText(/perfil será anonimizado/)).toBeTruthy();
    expect(dialog.getByText(/Perderás el acceso/)).toBeTruthy();
    expect(dialog.getByText(/puntos y tus datos personales/)).toBeTruthy();
    expect(dialog.getByText(/publicaciones y comentarios permanecerán, pero sin tu nombre/)).toBeTruthy();

    const button = dialog.getByRole('button', { name: 'Eliminar Cuenta' }) as HTMLButtonElement;
    const input = dialog.getByLabelText(/para confirmar/) as HTMLInputElement;
    expect(button.disabled).toBe(true);
    await user.type(input, 'elimina');
    expect(input.value).toBe('ELIMINA');
    expect(button.disabled).toBe(true);
    await user.type(input, 'r');
    expect(input.value).toBe('ELIMINAR');
    expect(button.disabled).toBe(false);
    await user.type(input, 'x');
    expect(button.disabled).toBe(true);
  });

  it('says \'Debes escribir "ELIMINAR" para confirmar\' when submitted otherwise, and sends nothing', async () => {
    const fetchMock = renderOwnProfile(() => new Response(null, { status: 204 }));
    const { user, dialog } = await openDialog();
    await user.type(dialog.getByLabelText(/para confirmar/), 'borrar');
    fireEvent.submit(dialog.getByRole('form', { name: 'Eliminar cuenta' }));
    expect(dialog.getByRole('alert').textContent).toBe(PROFILE_MESSAGES.deleteConfirm);
    expect(requestsOf(fetchMock)).not.toContain('DELETE /api/me');
  });

  it('deletes the account, signs out here and lands on /', async () => {
    let resolve: (response: Response) => void = () => {};
    const fetchMock = renderOwnProfile(() => new Promise<Response>((r) => (resolve = r)));
    const { user, dialog } = await openDialog();
    await user.type(dialog.getByLabelText(/para confirmar/), 'eliminar');
    await user.click(dialog.getByRole('button', { name: 'Eliminar Cuenta' }));
    expect(dialog.getByRole('button', { name: 'Eliminando...' })).toBeTruthy();
    expect(bodyOf(fetchMock, 'DELETE /api/me')).toEqual({ confirm: 'ELIMINAR' });

    resolve(new Response(null, { status: 204 }));
    expect(await screen.findByRole('heading', { name: 'Inicio' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Login' })).toBeNull();
    // The session is cleared once /perfil has gone away, just after the home page renders.
    await waitFor(() => expect(useSessionStore.getState()).toMatchObject({ user: null, email: null, status: 'ready' }));
    expect(requestsOf(fetchMock)).not.toContain('POST /api/auth/logout');
  });

  it("shows the server's message or the fallback and keeps the session", async () => {
    let calls = 0;
    renderOwnProfile(() =>
      ++calls === 1 ? jsonResponse(403, { statusCode: 403, error: 'Forbidden', message: PROFILE_MESSAGES.hardDelete }) : new Response('', { status: 500 }),
    );
    const { user, dialog } = await openDialog();
    await user.type(dialog.getByLabelText(/para confirmar/), 'ELIMINAR');
    await user.click(dialog.getByRole('button', { name: 'Eliminar Cuenta' }));
    expect((await dialog.findByRole('alert')).textContent).toBe(PROFILE_MESSAGES.hardDelete);
    await user.click(dialog.getByRole('button', { name: 'Eliminar Cuenta' }));
    await waitFor(() => expect(dialog.getByRole('alert').textContent).toBe(PROFILE_MESSAGES.deleteFailed));
    expect(useSessionStore.getState().user?.id).toBe(me.id);
  });

  it('lands on / signed out within the app router too (data router, lazy page, navigation bar)', async () => {
    const base = `/api/profiles/${me.id}`;
    stubApi({
      [`GET ${base}`]: () => jsonResponse(200, buildPublicProfile({ id: me.id })),
      [`GET ${base}/stats`]: () => jsonResponse(200, { votes: 0, posts: 0, comments: 0 }),
      [`GET ${base}/votes`]: () => jsonResponse(200, { items: [] }),
      'GET /api/auth/factors': () => jsonResponse(200, { factors: [] }),
      'POST /api/page-views': () => new Response(null, { status: 204 }),
      'GET /api/polls/home': () => jsonResponse(200, { poll: null, results: null }),
      'DELETE /api/me': () => new Response(null, { status: 204 }),
    });
    const router = createMemoryRouter(routes, { initialEntries: ['/perfil'] });
    render(<RouterProvider router={router} />);
    const { user, dialog } = await openDialog();
    await user.type(dialog.getByLabelText(/para confirmar/), 'ELIMINAR');
    await user.click(dialog.getByRole('button', { name: 'Eliminar Cuenta' }));
    expect(await screen.findByText('No hay encuestas activas')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/');
    expect(useSessionStore.getState().user).toBeNull();
  });
});
