import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { USER_ADMIN_MESSAGES } from '@tribuna/contracts/adminRules';
import type { AdminUserList } from '@tribuna/contracts/api/admin/users';
import { useSessionStore } from '../../../lib/session/sessionStore';
import { bodyOf, requestsOf, stubApi, type Handler } from '../../../test/apiStub';
import { buildProfile, jsonResponse } from '../../../test/fixtures';
import { apiError, bareFailure } from '../adminFixtures';
import { UsersPage } from './UsersPage';
import { buildAdminUser, buildUserGroup, userList } from './testFixtures';
import { DELETE_GROUP_FAILED, USER_GROUPS_FAILED } from './UserGroups';

function Where() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname + location.search}</output>;
}

function renderPage(url = '/admin/usuarios') {
  return render(
    <MemoryRouter initialEntries={[url]}>
      <Routes>
        <Route path="/admin/usuarios" element={<UsersPage />} />
      </Routes>
      <Where />
    </MemoryRouter>,
  );
}

/** Stubs the API: every GET /api/admin/users?… goes to `list` with its query; the rest to `handlers`. */
function stubUsers(list: (query: URLSearchParams) => Response | Promise<Response>, handlers: Record<string, Handler> = {}) {
  const fetchMock = stubApi(handlers);
  const fallback = fetchMock.getMockImplementation()!;
  fetchMock.mockImplementation(async (path: string, init: RequestInit = {}) => {
    const url = new URL(path, 'http://tribuna.test');
    if ((init.method ?? 'GET') === 'GET' && url.pathname === '/api/admin/users') return list(url.searchParams);
    return fallback(path, init);
  });
  return fetchMock;
}
const answer = (list: AdminUserList) => () => jsonResponse(200, list);
const usersRequests = (fetchMock: ReturnType<typeof stubApi>) => requestsOf(fetchMock).filter((r) => r.startsWith('GET /api/admin/users'));

const table = () => screen.getByRole('table', { name: 'Usuarios' });
const rowOf = (name: string) =>
  within(table())
    .getByRole('rowheader', { name: new RegExp(name) })
    .closest('tr')!;

describe('UsersPage', () => {
  const me = buildProfile({ role: 'admin', displayName: 'Marta Admin' });
  beforeEach(() => {
    vi.spyOn(console, 'debug').mockImplementation(() => {});
    useSessionStore.setState({ user: me, status: 'ready' });
  });

  it('shows skeletons, then the total and each user: e-mail or Sin email, role, status, points and counts', async () => {
    const ana = buildAdminUser({ displayName: 'Ana López', username: 'ana', email: 'ana@correo.mx', totalPoints: 1500 });
    const beto = buildAdminUser({
      displayName: 'Beto Ruiz',
      username: 'beto',
      email: null,
      role: 'moderator',
      isSuspended: true,
      voteCount: 1,
      postCount: 0,
      commentCount: 1,
    });
    const gone = buildAdminUser({ displayName: null, username: null, email: null, isDeleted: true, isSuspended: true });
    stubUsers(answer(userList([ana, beto, gone], { total: 3 })));
    renderPage();
    expect(screen.getByText('Cargando usuarios…')).toBeTruthy();
    await screen.findByRole('table', { name: 'Usuarios' });
    expect(screen.getByText('3 usuarios')).toBeTruthy();
    expect(
      within(table())
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Usuario', 'Rol', 'Estado', 'Puntos', 'Actividad', 'Acciones']);

    const first = rowOf('Ana López');
    expect(within(first).getByText('@ana')).toBeTruthy();
    expect(within(first).getByText('ana@correo.mx')).toBeTruthy();
    expect(within(first).getByText('Usuario')).toBeTruthy();
    expect(within(first).getByText('Activo')).toBeTruthy();
    expect(within(first).getByText((1500).toLocaleString('es'))).toBeTruthy();
    expect(within(first).getAllByRole('cell')[3]!.textContent).toBe('7 votos2 publicaciones1 comentario');
    expect(
      within(first)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Editar', 'Puntos', 'Estadísticas', 'Suspender']);

    const second = rowOf('Beto Ruiz');
    expect(within(second).getByText(USER_ADMIN_MESSAGES.noEmail)).toBeTruthy();
    expect(within(second).getByText('Moderador')).toBeTruthy();
    expect(within(second).getByText('Suspendido')).toBeTruthy();
    expect(
      within(second)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Editar', 'Puntos', 'Estadísticas', 'Reactivar']);

    expect(within(rowOf('Sin nombre')).getByText('Cuenta eliminada')).toBeTruthy();
    // The phone cards carry the same users.
    expect(within(screen.getByRole('list', { name: 'Usuarios' })).getAllByRole('listitem')).toHaveLength(3);
  });

  it('marks a deleted account Cuenta eliminada and offers no Reactivar (the server refuses it), in the table and in the cards', async () => {
    const gone = buildAdminUser({ displayName: 'Usuario eliminado', username: null, email: null, isDeleted: true, isSuspended: true });
    const suspended = buildAdminUser({ displayName: 'Beto Ruiz', isSuspended: true });
    stubUsers(answer(userList([gone, suspended], { total: 2 })));
    renderPage();
    await screen.findByRole('table', { name: 'Usuarios' });

    const row = rowOf('Usuario eliminado');
    expect(within(row).getByText('Cuenta eliminada')).toBeTruthy();
    expect(within(row).queryByText('Suspendido')).toBeNull();
    expect(
      within(row)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Editar', 'Puntos', 'Estadísticas']);
    const card = within(screen.getByRole('list', { name: 'Usuarios' })).getAllByRole('listitem')[0]!;
    expect(within(card).getByText('Cuenta eliminada')).toBeTruthy();
    expect(
      within(card)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Editar', 'Puntos', 'Estadísticas']);
    expect(screen.queryByRole('button', { name: 'Reactivar a Usuario eliminado' })).toBeNull();
    // A suspended account that was not deleted keeps its Reactivar.
    expect(screen.getAllByRole('button', { name: 'Reactivar a Beto Ruiz' })).toHaveLength(2);
  });

  it('searches once typing pauses and filters by role and status, back to page 1, all in the URL', async () => {
    const fetchMock = stubUsers((query) =>
      jsonResponse(
        200,
        userList([buildAdminUser({ displayName: `Resultado ${query.toString() || 'todos'}` })], { total: 41, page: Number(query.get('page') ?? 1) }),
      ),
    );
    const user = userEvent.setup();
    renderPage();
    await screen.findByText('Página 1 de 3');
    await user.click(screen.getByRole('button', { name: 'Siguiente' }));
    await screen.findByText('Página 2 de 3');
    expect(usersRequests(fetchMock)).toEqual(['GET /api/admin/users', 'GET /api/admin/users?page=2']);

    await user.type(screen.getByLabelText('Buscar'), 'Ana');
    await waitFor(() => expect(usersRequests(fetchMock)).toContain('GET /api/admin/users?q=Ana'));
    // One search for the whole word, not one per key.
    expect(usersRequests(fetchMock).filter((r) => r.includes('q='))).toEqual(['GET /api/admin/users?q=Ana']);

    await user.selectOptions(screen.getByLabelText('Rol'), 'Admin');
    await waitFor(() => expect(usersRequests(fetchMock)).toContain('GET /api/admin/users?q=Ana&role=admin'));
    await user.selectOptions(screen.getByLabelText('Estado'), 'Suspendidos');
    await waitFor(() => expect(usersRequests(fetchMock)).toContain('GET /api/admin/users?q=Ana&role=admin&status=suspended'));
    expect(screen.getByTestId('location').textContent).toBe('/admin/usuarios?q=Ana&role=admin&status=suspended');
    expect((screen.getByLabelText('Rol') as HTMLSelectElement).options[0]!.textContent).toBe('Todos');
    expect(Array.from((screen.getByLabelText('Estado') as HTMLSelectElement).options).map((o) => o.textContent)).toEqual(['Todos', 'Activos', 'Suspendidos']);
  });

  it('says "Más de" for a search matching more users than were counted, and pages on while pages are full', async () => {
    const full = Array.from({ length: 20 }, (_, i) => buildAdminUser({ displayName: `Fan ${i}` }));
    stubUsers((query) => {
      const page = Number(query.get('page') ?? 1);
      return jsonResponse(200, userList(page === 51 ? full.slice(0, 3) : full, { total: 1000, totalCapped: true, page }));
    });
    const user = userEvent.setup();
    renderPage('/admin/usuarios?q=fan&page=50');
    expect(await screen.findByText('Página 50')).toBeTruthy();
    expect(screen.getByText(`Más de ${(1000).toLocaleString('es')} usuarios`).getAttribute('role')).toBe('status');
    await user.click(screen.getByRole('button', { name: 'Siguiente' }));
    await screen.findByText('Página 51');
    expect((screen.getByRole('button', { name: 'Siguiente' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Anterior' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('opens with ?q= from a link (another screen pointing at a user)', async () => {
    const fetchMock = stubUsers(answer(userList([buildAdminUser({ displayName: 'Beto Ruiz', username: 'beto' })])));
    renderPage('/admin/usuarios?q=beto');
    await screen.findByRole('table', { name: 'Usuarios' });
    expect((screen.getByLabelText('Buscar') as HTMLInputElement).value).toBe('beto');
    expect(usersRequests(fetchMock)).toEqual(['GET /api/admin/users?q=beto']);
    expect(screen.getByText('1 usuario')).toBeTruthy();
  });

  it('says when nothing matches, and shows the load error with Reintentar', async () => {
    stubUsers(answer(userList([])));
    const view = renderPage();
    expect(await screen.findByText(USER_ADMIN_MESSAGES.noUsers)).toBeTruthy();
    expect(screen.getByText('0 usuarios')).toBeTruthy();
    view.unmount();

    let fail = true;
    stubUsers(() => (fail ? bareFailure() : jsonResponse(200, userList([buildAdminUser({ displayName: 'Ana López' })]))));
    const user = userEvent.setup();
    renderPage();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(USER_ADMIN_MESSAGES.loadUsersFailed);
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Reintentar' }));
    expect(await screen.findByRole('table', { name: 'Usuarios' })).toBeTruthy();
  });

  it('suspends after the confirmation; the self-guard message and the fallback show in the dialog', async () => {
    const ana = buildAdminUser({ displayName: 'Ana López' });
    let reply: () => Response = () => apiError(400, USER_ADMIN_MESSAGES.cannotSuspendSelf);
    const fetchMock = stubUsers(answer(userList([ana])), { [`POST /api/admin/users/${ana.id}/suspend`]: () => reply() });
    const user = userEvent.setup();
    renderPage();
    await screen.findByRole('table', { name: 'Usuarios' });
    await user.click(within(rowOf('Ana López')).getByRole('button', { name: 'Suspender a Ana López' }));
    const dialog = screen.getByRole('dialog', { name: 'Suspender a Ana López' });
    expect(dialog.textContent).toContain(USER_ADMIN_MESSAGES.confirmSuspend);
    await user.click(within(dialog).getByRole('button', { name: 'Suspender' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain(USER_ADMIN_MESSAGES.cannotSuspendSelf);

    reply = bareFailure;
    await user.click(within(dialog).getByRole('button', { name: 'Suspender' }));
    await waitFor(() => expect(within(dialog).getByRole('alert').textContent).toContain(USER_ADMIN_MESSAGES.suspendFailed));

    reply = () => jsonResponse(200, { ...ana, isSuspended: true });
    await user.click(within(dialog).getByRole('button', { name: 'Suspender' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(within(rowOf('Ana López')).getByText('Suspendido')).toBeTruthy();
    expect(requestsOf(fetchMock).filter((r) => r.endsWith('/suspend'))).toHaveLength(3);

    // And back: Reactivar asks first too.
    fetchMock.mockClear();
    const unsuspend = `POST /api/admin/users/${ana.id}/unsuspend`;
    const again = stubUsers(answer(userList([{ ...ana, isSuspended: true }])), { [unsuspend]: bareFailure });
    await user.click(within(rowOf('Ana López')).getByRole('button', { name: 'Reactivar a Ana López' }));
    const confirm = screen.getByRole('dialog', { name: 'Reactivar a Ana López' });
    expect(confirm.textContent).toContain(USER_ADMIN_MESSAGES.confirmUnsuspend);
    await user.click(within(confirm).getByRole('button', { name: 'Reactivar' }));
    expect((await within(confirm).findByRole('alert')).textContent).toContain(USER_ADMIN_MESSAGES.unsuspendFailed);
    expect(requestsOf(again)).toEqual([unsuspend]);
  });

  it('adjusts points: a non-zero whole number (negative subtracts), the default description, the new total in the row', async () => {
    const ana = buildAdminUser({ displayName: 'Ana López', totalPoints: 120 });
    const points = `POST /api/admin/users/${ana.id}/points`;
    let reply: () => Response = bareFailure;
    const fetchMock = stubUsers(answer(userList([ana])), { [points]: () => reply() });
    const user = userEvent.setup();
    renderPage();
    await screen.findByRole('table', { name: 'Usuarios' });
    await user.click(within(rowOf('Ana López')).getByRole('button', { name: 'Puntos de Ana López' }));
    const dialog = screen.getByRole('dialog', { name: 'Ajustar puntos de Ana López' });
    const amount = within(dialog).getByLabelText(/^Puntos/);
    expect(document.activeElement).toBe(amount);
    expect(within(dialog).getByLabelText('Descripción').getAttribute('placeholder')).toBe(USER_ADMIN_MESSAGES.defaultPointsDescription);

    for (const value of ['', '0', '2.5', 'diez']) {
      await user.clear(amount);
      if (value) await user.type(amount, value);
      await user.click(within(dialog).getByRole('button', { name: 'Ajustar puntos' }));
      expect(within(dialog).getByText(USER_ADMIN_MESSAGES.pointsRequired)).toBeTruthy();
      expect(amount.getAttribute('aria-invalid')).toBe('true');
    }
    expect(requestsOf(fetchMock)).not.toContain(points);

    await user.clear(amount);
    await user.type(amount, '-20');
    await user.click(within(dialog).getByRole('button', { name: 'Ajustar puntos' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain(USER_ADMIN_MESSAGES.adjustPointsFailed);
    expect(bodyOf(fetchMock, points)).toEqual({ points: -20 });

    reply = () =>
      jsonResponse(200, {
        totalPoints: 100,
        entry: { id: '1', points: -20, reason: 'admin_adjustment', description: 'Multa', createdAt: '2025-01-05T12:00:00.000Z' },
      });
    await user.type(within(dialog).getByLabelText('Descripción'), 'Multa');
    await user.click(within(dialog).getByRole('button', { name: 'Ajustar puntos' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(JSON.parse(fetchMock.mock.calls.filter(([p, i]) => `${(i as RequestInit).method} ${p}` === points)[1]![1]!.body as string)).toEqual({
      points: -20,
      description: 'Multa',
    });
    expect(within(rowOf('Ana López')).getByText('100')).toBeTruthy();
  });

  it('edits a user: only the changed fields, the username lowercased without @, the server message or the fallback', async () => {
    const ana = buildAdminUser({ displayName: 'Ana López', username: 'ana', bio: 'Hola', role: 'user' });
    const patch = `PATCH /api/admin/users/${ana.id}`;
    let reply: () => Response = () => apiError(409, 'Ese nombre de usuario ya está en uso');
    const fetchMock = stubUsers(answer(userList([ana])), { [patch]: () => reply() });
    const user = userEvent.setup();
    renderPage();
    await screen.findByRole('table', { name: 'Usuarios' });
    await user.click(within(rowOf('Ana López')).getByRole('button', { name: 'Editar a Ana López' }));
    const dialog = screen.getByRole('dialog', { name: 'Editar a Ana López' });
    expect((within(dialog).getByLabelText('Nombre visible') as HTMLInputElement).value).toBe('Ana López');
    expect((within(dialog).getByLabelText('Biografía') as HTMLTextAreaElement).value).toBe('Hola');
    const username = within(dialog).getByLabelText('Nombre de usuario');
    await user.clear(username);
    await user.type(username, '@Ana_Mx');
    expect((username as HTMLInputElement).value).toBe('ana_mx');
    await user.selectOptions(within(dialog).getByLabelText('Rol'), 'Moderador');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar cambios' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain('Ese nombre de usuario ya está en uso');
    expect(bodyOf(fetchMock, patch)).toEqual({ username: 'ana_mx', role: 'moderator' });

    reply = bareFailure;
    await user.click(within(dialog).getByRole('button', { name: 'Guardar cambios' }));
    await waitFor(() => expect(within(dialog).getByRole('alert').textContent).toContain(USER_ADMIN_MESSAGES.updateUserFailed));

    reply = () => jsonResponse(200, { ...ana, username: 'ana_mx', role: 'moderator' });
    await user.click(within(dialog).getByRole('button', { name: 'Guardar cambios' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(within(rowOf('Ana López')).getByText('@ana_mx')).toBeTruthy();
    expect(within(rowOf('Ana López')).getByText('Moderador')).toBeTruthy();
  });

  it('keeps an admin from removing their own admin role', async () => {
    const self = buildAdminUser({ id: me.id, displayName: 'Marta Admin', role: 'admin' });
    const fetchMock = stubUsers(answer(userList([self])));
    const user = userEvent.setup();
    renderPage();
    await screen.findByRole('table', { name: 'Usuarios' });
    await user.click(within(rowOf('Marta Admin')).getByRole('button', { name: 'Editar a Marta Admin' }));
    const dialog = screen.getByRole('dialog', { name: 'Editar a Marta Admin' });
    await user.selectOptions(within(dialog).getByLabelText('Rol'), 'Usuario');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar cambios' }));
    expect(within(dialog).getByText(USER_ADMIN_MESSAGES.cannotDemoteSelf)).toBeTruthy();
    expect(requestsOf(fetchMock).some((r) => r.startsWith('PATCH'))).toBe(false);
  });

  it('shows the statistics with points by reason, or the fallback', async () => {
    const ana = buildAdminUser({ displayName: 'Ana López' });
    const stats = `GET /api/admin/users/${ana.id}/stats`;
    let reply: () => Response = bareFailure;
    stubUsers(answer(userList([ana])), {
      [stats]: () => reply(),
      [`GET /api/admin/users/${ana.id}/groups`]: () => jsonResponse(200, { items: [] }),
    });
    const user = userEvent.setup();
    renderPage();
    await screen.findByRole('table', { name: 'Usuarios' });
    await user.click(within(rowOf('Ana López')).getByRole('button', { name: 'Estadísticas de Ana López' }));
    let dialog = screen.getByRole('dialog', { name: 'Estadísticas de Ana López' });
    expect((await within(dialog).findByRole('alert')).textContent).toContain(USER_ADMIN_MESSAGES.statsFailed);

    reply = () =>
      jsonResponse(200, {
        votes: 12,
        posts: 3,
        comments: 4,
        totalPoints: 95,
        pointsByReason: [
          { reason: 'vote', points: 60, entries: 12 },
          { reason: 'share', points: 15, entries: 3 },
          { reason: 'admin_adjustment', points: 20, entries: 1 },
          { reason: 'streak', points: 0, entries: 0 },
        ],
      });
    await user.click(within(dialog).getByRole('button', { name: 'Reintentar' }));
    dialog = screen.getByRole('dialog', { name: 'Estadísticas de Ana López' });
    const reasons = await within(dialog).findByRole('table', { name: 'Puntos por motivo' });
    expect(
      within(reasons)
        .getAllByRole('rowheader')
        .map((h) => h.textContent),
    ).toEqual(['Votos', 'Compartir', 'Ajuste manual', 'streak']);
    const figures = Array.from(dialog.querySelectorAll('dt')).map((dt) => `${dt.textContent}=${dt.nextElementSibling?.textContent}`);
    expect(figures).toEqual(['Votos=12', 'Publicaciones=3', 'Comentarios=4', 'Puntos totales=95']);
    const closers = within(dialog).getAllByRole('button', { name: 'Cerrar' });
    await user.click(closers[closers.length - 1]!);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it("lists the user's groups with role and privacy, links each to its page, and deletes one after confirming", async () => {
    const ana = buildAdminUser({ displayName: 'Ana López' });
    const club = buildUserGroup({ name: 'Team Ximena', role: 'admin', privacy: 'private' });
    const debates = buildUserGroup({ name: 'Debates', role: 'member', privacy: 'public' });
    let groups = [club, debates];
    let deleteReply: () => Response = bareFailure;
    const fetchMock = stubUsers(answer(userList([ana])), {
      [`GET /api/admin/users/${ana.id}/stats`]: () => jsonResponse(200, { votes: 0, posts: 0, comments: 0, totalPoints: 0, pointsByReason: [] }),
      [`GET /api/admin/users/${ana.id}/groups`]: () => jsonResponse(200, { items: groups }),
      [`DELETE /api/admin/groups/${club.id}`]: () => deleteReply(),
    });
    const user = userEvent.setup();
    renderPage();
    await screen.findByRole('table', { name: 'Usuarios' });
    await user.click(within(rowOf('Ana López')).getByRole('button', { name: 'Estadísticas de Ana López' }));
    let dialog = screen.getByRole('dialog', { name: 'Estadísticas de Ana López' });
    const list = await within(dialog).findByRole('list', { name: 'Grupos del usuario' });
    const [first, second] = within(list).getAllByRole('listitem');
    expect(within(first!).getByRole('link', { name: 'Team Ximena' }).getAttribute('href')).toBe(`/grupos/${club.id}`);
    expect(within(first!).getByText('Admin')).toBeTruthy();
    expect(within(first!).getByText('Privado')).toBeTruthy();
    expect(within(second!).getByText('Miembro')).toBeTruthy();
    expect(within(second!).getByText('Público')).toBeTruthy();

    await user.click(within(first!).getByRole('button', { name: 'Eliminar grupo Team Ximena' }));
    let confirm = screen.getByRole('dialog', { name: 'Eliminar grupo' });
    expect(confirm.textContent).toContain('Team Ximena');
    await user.click(within(confirm).getByRole('button', { name: 'Cancelar' }));
    dialog = screen.getByRole('dialog', { name: 'Estadísticas de Ana López' });
    expect(requestsOf(fetchMock).some((r) => r.startsWith('DELETE'))).toBe(false);

    await user.click(within(dialog).getByRole('button', { name: 'Eliminar grupo Team Ximena' }));
    confirm = screen.getByRole('dialog', { name: 'Eliminar grupo' });
    await user.click(within(confirm).getByRole('button', { name: 'Eliminar grupo' }));
    expect((await within(confirm).findByRole('alert')).textContent).toContain(DELETE_GROUP_FAILED);

    deleteReply = () => new Response(null, { status: 204 });
    groups = [debates];
    await user.click(within(confirm).getByRole('button', { name: 'Eliminar grupo' }));
    dialog = await screen.findByRole('dialog', { name: 'Estadísticas de Ana López' });
    await waitFor(() => expect(within(dialog).queryByRole('link', { name: 'Team Ximena' })).toBeNull());
    expect(within(dialog).getByRole('link', { name: 'Debates' })).toBeTruthy();
    expect(requestsOf(fetchMock).filter((r) => r.includes('/groups'))).toEqual([
      `GET /api/admin/users/${ana.id}/groups`,
      `DELETE /api/admin/groups/${club.id}`,
      `DELETE /api/admin/groups/${club.id}`,
      `GET /api/admin/users/${ana.id}/groups`,
    ]);
  });

  it('says when the user is in no group, and when the groups fail to load', async () => {
    const ana = buildAdminUser({ displayName: 'Ana López' });
    let reply: () => Response = bareFailure;
    stubUsers(answer(userList([ana])), {
      [`GET /api/admin/users/${ana.id}/stats`]: () => jsonResponse(200, { votes: 0, posts: 0, comments: 0, totalPoints: 0, pointsByReason: [] }),
      [`GET /api/admin/users/${ana.id}/groups`]: () => reply(),
    });
    const user = userEvent.setup();
    renderPage();
    await screen.findByRole('table', { name: 'Usuarios' });
    await user.click(within(rowOf('Ana López')).getByRole('button', { name: 'Estadísticas de Ana López' }));
    const dialog = screen.getByRole('dialog', { name: 'Estadísticas de Ana López' });
    expect((await within(dialog).findByRole('alert')).textContent).toContain(USER_GROUPS_FAILED);
    reply = () => jsonResponse(200, { items: [] });
    await user.click(within(dialog).getByRole('button', { name: 'Reintentar' }));
    expect(await within(dialog).findByText('No pertenece a ningún grupo.')).toBeTruthy();
  });
});
