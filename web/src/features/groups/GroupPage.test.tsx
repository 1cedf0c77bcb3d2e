import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import type { GroupDetail } from '@tribuna/contracts/api/groups';
import { GROUP_MESSAGES } from '@tribuna/contracts/groupRules';
import { userTopic } from '@tribuna/contracts/liveTopics';
import type { Profile } from '@tribuna/contracts/api/me';
import { bodyOf, requestsOf, stubApi, type Handler } from '../../test/apiStub';
import { buildProfile, jsonResponse } from '../../test/fixtures';
import { spyLive } from '../../test/liveSpy';
import { buildAuthor, buildPost, feedPage } from '../../test/wallFixtures';
import { useSessionStore } from '../../lib/session/sessionStore';
import { GroupRoute } from '../../app/GroupRoute';
import { asAdmin, buildGroupDetail, buildMember, buildPerson } from './groupFixtures';

const me: Profile = buildProfile({ id: '40000000-0000-4000-8000-00000000c001', displayName: 'Ana López' });
const luis = buildAuthor({ displayName: 'Luis Pérez' });
const sara = buildAuthor({ displayName: 'Sara Gil' });

function groupApi(group: GroupDetail, extra: Record<string, Handler> = {}) {
  return stubApi({
    [`GET /api/groups/${group.id}`]: () => jsonResponse(200, group),
    [`GET /api/posts?groupId=${group.id}`]: () => jsonResponse(200, feedPage([])),
    ...extra,
  });
}

function renderGroup(group: GroupDetail) {
  return render(
    <MemoryRouter initialEntries={[`/grupos/${group.id}`]}>
      <Routes>
        <Route path="/grupos" element={<h1>Directorio</h1>} />
        <Route path="/grupos/:groupId" element={<GroupRoute />} />
      </Routes>
    </MemoryRouter>,
  );
}

const conflict = (message: string) => jsonResponse(409, { statusCode: 409, error: 'Conflict', message });

describe('GroupPage', () => {
  beforeEach(() => {
    useSessionStore.setState({ user: me, status: 'ready', mfaFactorId: null });
    vi.spyOn(console, 'debug').mockImplementation(() => {});
  });

  it("shows a public group's header and wall, and 'Unirme' makes the fan a member who may post", async () => {
    const group = buildGroupDetail({ name: 'Team Ximena', description: 'Fans de Ximena', memberCount: 1 });
    const fetchMock = groupApi(group, {
      [`POST /api/groups/${group.id}/join`]: () => jsonResponse(200, { ...group, relation: 'member', canPost: true, memberCount: 2 }),
    });
    renderGroup(group);

    expect(await screen.findByRole('heading', { level: 1, name: 'Team Ximena' })).toBeTruthy();
    expect(screen.getByText('Fans de Ximena')).toBeTruthy();
    expect(screen.getByText('1 miembro')).toBeTruthy();
    expect(screen.getByText('Público')).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Muro' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tab', { name: 'Miembros' })).toBeTruthy();
    expect(screen.queryByRole('tab', { name: /Solicitudes/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Opciones del grupo' })).toBeNull();
    expect(await screen.findByText('Nadie ha publicado en este grupo todavía.')).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: '¿Qué está pasando?' })).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Unirme' }));
    expect(await screen.findByRole('button', { name: 'Salir del grupo' })).toBeTruthy();
    expect(screen.getByText('2 miembros')).toBeTruthy();
    expect(screen.getByRole('textbox', { name: '¿Qué está pasando?' })).toBeTruthy();
    expect(requestsOf(fetchMock)).toContain(`POST /api/groups/${group.id}/join`);
  });

  it('shows pinned posts on top with Fijado', async () => {
    const group = buildGroupDetail({ relation: 'member', canPost: true });
    const pinned = buildPost({ content: 'Reglas del grupo', groupId: group.id, visibility: 'group', isPinned: true });
    const other = buildPost({ content: 'Hola a todos', groupId: group.id, visibility: 'group' });
    groupApi(group, { [`GET /api/posts?groupId=${group.id}`]: () => jsonResponse(200, { ...feedPage([other]), pinned: [pinned] }) });
    renderGroup(group);

    const pinnedSection = await screen.findByRole('region', { name: 'Publicaciones fijadas' });
    expect(within(pinnedSection).getByText('Reglas del grupo')).toBeTruthy();
    expect(within(pinnedSection).getByText('Fijado')).toBeTruthy();
    const articles = screen.getAllByRole('article').map((a) => a.textContent ?? '');
    expect(articles.findIndex((t) => t.includes('Reglas del grupo'))).toBeLessThan(articles.findIndex((t) => t.includes('Hola a todos')));
    expect(screen.getAllByText('Fijado')).toHaveLength(1);
  });

  it('shows a private group to a non-member without its posts; the request can be sent and withdrawn', async () => {
    const group = buildGroupDetail({ privacy: 'private', canRead: false });
    const requested = { ...group, relation: 'requested' as const };
    const fetchMock = groupApi(group, {
      [`POST /api/groups/${group.id}/join`]: () => jsonResponse(200, requested),
      [`POST /api/groups/${group.id}/leave`]: () => jsonResponse(200, group),
    });
    renderGroup(group);

    expect(await screen.findByText(GROUP_MESSAGES.privateGroup)).toBeTruthy();
    expect(screen.getByText('Privado')).toBeTruthy();
    expect(screen.queryByRole('tablist')).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Solicitar unirme' }));
    expect(await screen.findByText('Solicitud enviada')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Cancelar solicitud' }));
    expect(await screen.findByRole('button', { name: 'Solicitar unirme' })).toBeTruthy();
    expect(bodyOf(fetchMock, `POST /api/groups/${group.id}/leave`)).toEqual({});
    expect(requestsOf(fetchMock).some((r) => r.startsWith('GET /api/posts'))).toBe(false);
  });

  it('tells a banned fan they cannot join', async () => {
    const group = buildGroupDetail({ privacy: 'private', canRead: false, relation: 'banned' });
    groupApi(group);
    renderGroup(group);
    expect(await screen.findByText(GROUP_MESSAGES.banned)).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Unirme|Solicitar unirme/ })).toBeNull();
  });

  it('asks the last admin for a successor when the server refuses their leaving, then leaves naming them', async () => {
    const group = buildGroupDetail({ name: 'Team Ximena', ...asAdmin });
    let leaves = 0;
    const fetchMock = groupApi(group, {
      [`POST /api/groups/${group.id}/leave`]: () =>
        ++leaves === 1
          ? conflict(GROUP_MESSAGES.lastAdmin)
          : jsonResponse(
              200,
              buildGroupDetail({ ...group, relation: 'none', canPost: false, canModerate: false, canAdminister: false, pendingRequests: null }),
            ),
      [`GET /api/groups/${group.id}/members`]: () =>
        jsonResponse(200, {
          items: [
            buildMember({ user: { ...luis, id: me.id, displayName: 'Ana López' }, role: 'admin' }),
            buildMember({ user: luis }),
            buildMember({ user: sara, role: 'moderator' }),
          ],
          nextCursor: null,
        }),
    });
    renderGroup(group);

    await userEvent.click(await screen.findByRole('button', { name: 'Salir del grupo' }));
    const dialog = screen.getByRole('dialog', { name: '¿Salir del grupo?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Salir del grupo' }));
    expect(await within(dialog).findByText(GROUP_MESSAGES.lastAdmin)).toBeTruthy();
    const picker = await within(dialog).findByRole('group', { name: 'Elige al nuevo administrador' });
    expect(
      within(picker)
        .getAllByRole('radio')
        .map((r) => r.closest('label')?.textContent),
    ).toEqual(['Luis Pérez', 'Sara Gil']);

    await userEvent.click(within(dialog).getByRole('button', { name: 'Nombrar y salir' }));
    expect(within(dialog).getByRole('alert').textContent).toContain('Elige a quién nombrar administrador');
    await userEvent.click(within(picker).getByRole('radio', { name: 'Sara Gil' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Nombrar y salir' }));

    expect(await screen.findByRole('button', { name: 'Unirme' })).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    const leaveBodies = fetchMock.mock.calls
      .filter(([path]) => path === `/api/groups/${group.id}/leave`)
      .map(([, init]) => JSON.parse((init as RequestInit).body as string));
    expect(leaveBodies).toEqual([{}, { successorId: sara.id }]);
  });

  it("lists the requests for the group's moderators, with a live count on the tab; Aceptar approves", async () => {
    const group = buildGroupDetail({ privacy: 'private', ...asAdmin, pendingRequests: 2 });
    const live = spyLive();
    let pending = [buildPerson({ user: luis }), buildPerson({ user: sara })];
    const fetchMock = groupApi(group, {
      [`GET /api/groups/${group.id}`]: () => jsonResponse(200, { ...group, pendingRequests: pending.length }),
      [`GET /api/groups/${group.id}/requests`]: () => jsonResponse(200, { items: pending, nextCursor: null }),
      [`POST /api/groups/${group.id}/requests/${luis.id}`]: () => {
        pending = pending.filter((p) => p.user.id !== luis.id);
        return jsonResponse(200, { pendingRequests: 1 });
      },
    });
    renderGroup(group);

    const tab = await screen.findByRole('tab', { name: 'Solicitudes, 2 pendientes' });
    expect(screen.getByRole('tab', { name: 'Bloqueados' })).toBeTruthy();
    expect(live.topics()).toContain(userTopic(me.id));
    live.deliver({ type: 'group-requests', topic: userTopic(me.id), groupId: group.id, pendingRequests: 3 });
    expect(screen.getByRole('tab', { name: 'Solicitudes, 3 pendientes' })).toBe(tab);
    // Another group's news leaves this one alone.
    live.deliver({ type: 'group-requests', topic: userTopic(me.id), groupId: '30000000-0000-4000-8000-999999999999', pendingRequests: 9 });
    expect(screen.getByRole('tab', { name: 'Solicitudes, 3 pendientes' })).toBe(tab);

    await userEvent.click(tab);
    const list = await screen.findByRole('list', { name: 'Solicitudes' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    await userEvent.click(within(list).getByRole('button', { name: 'Aceptar a Luis Pérez' }));

    await waitFor(() => expect(within(screen.getByRole('list', { name: 'Solicitudes' })).getAllByRole('listitem')).toHaveLength(1));
    expect(screen.getByRole('tab', { name: 'Solicitudes, 1 pendiente' })).toBeTruthy();
    expect(bodyOf(fetchMock, `POST /api/groups/${group.id}/requests/${luis.id}`)).toEqual({ approve: true });
  });

  it('reads the group again when the fan is approved (group-relation)', async () => {
    const group = buildGroupDetail({ privacy: 'private', canRead: false, relation: 'requested' });
    const live = spyLive();
    let current: GroupDetail = group;
    groupApi(group, { [`GET /api/groups/${group.id}`]: () => jsonResponse(200, current) });
    renderGroup(group);
    expect(await screen.findByText(GROUP_MESSAGES.privateGroup)).toBeTruthy();

    current = { ...group, relation: 'member', canRead: true, canPost: true, memberCount: group.memberCount + 1 };
    live.deliver({ type: 'group-relation', topic: userTopic(me.id), groupId: group.id, relation: 'member' });
    expect(await screen.findByRole('tab', { name: 'Muro' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Salir del grupo' })).toBeTruthy();
    expect(screen.queryByText(GROUP_MESSAGES.privateGroup)).toBeNull();
  });

  it("lets a group's moderator remove a plain member (confirmed), not an admin", async () => {
    const group = buildGroupDetail({ relation: 'moderator', canPost: true, canModerate: true, pendingRequests: 0 });
    groupApi(group, {
      [`GET /api/groups/${group.id}/members`]: () =>
        jsonResponse(200, { items: [buildMember({ user: sara, role: 'admin' }), buildMember({ user: luis })], nextCursor: null }),
      [`DELETE /api/groups/${group.id}/members/${luis.id}`]: () => new Response(null, { status: 204 }),
    });
    renderGroup(group);

    await userEvent.click(await screen.findByRole('tab', { name: 'Miembros' }));
    const list = await screen.findByRole('list', { name: 'Miembros' });
    const [adminRow, memberRow] = within(list).getAllByRole('listitem');
    expect(within(adminRow!).getByText('Admin')).toBeTruthy();
    expect(within(adminRow!).queryByRole('button', { name: /Opciones/ })).toBeNull();
    expect(within(memberRow!).getByText('Miembro')).toBeTruthy();
    await userEvent.click(within(memberRow!).getByRole('button', { name: 'Opciones para Luis Pérez' }));
    expect(screen.getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['Expulsar']);
    await userEvent.click(screen.getByRole('menuitem', { name: 'Expulsar' }));
    const dialog = screen.getByRole('dialog', { name: '¿Expulsar del grupo?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Expulsar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it("offers the group's admins role changes, removal and ban", async () => {
    const group = buildGroupDetail(asAdmin);
    groupApi(group, {
      [`GET /api/groups/${group.id}/members`]: () => jsonResponse(200, { items: [buildMember({ user: sara, role: 'moderator' })], nextCursor: null }),
    });
    renderGroup(group);
    await userEvent.click(await screen.findByRole('tab', { name: 'Miembros' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Opciones para Sara Gil' }));
    expect(screen.getAllByRole('menuitem').map((item) => item.textContent)).toEqual(['Hacer admin', 'Hacer miembro', 'Expulsar', 'Expulsar y bloquear']);
  });
});
