import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import type { GroupDirectory } from '@tribuna/contracts/api/groups';
import { GROUP_MESSAGES } from '@tribuna/contracts/groupRules';
import { bodyOf, requestsOf, stubApi } from '../../test/apiStub';
import { buildProfile, jsonResponse } from '../../test/fixtures';
import { useSessionStore } from '../../lib/session/sessionStore';
import { buildGroupCard, buildGroupDetail } from './groupFixtures';
import { GroupsPage } from './GroupsPage';

const directory = (page: Partial<GroupDirectory>): GroupDirectory => ({ mine: [], groups: [], nextCursor: null, ...page });

function renderDirectory() {
  return render(
    <MemoryRouter initialEntries={['/grupos']}>
      <Routes>
        <Route path="/grupos" element={<GroupsPage />} />
        <Route path="/grupos/:groupId" element={<h1>Página del grupo</h1>} />
      </Routes>
    </MemoryRouter>,
  );
}

const sectionNames = () => screen.getAllByRole('region').map((region) => within(region).getByRole('heading', { level: 2 }).textContent);
const cardNames = (section: string) =>
  within(screen.getByRole('region', { name: section }))
    .getAllByRole('article')
    .map((card) => card.getAttribute('aria-label'));

describe('GroupsPage', () => {
  beforeEach(() => {
    useSessionStore.setState({ user: buildProfile(), status: 'ready', mfaFactorId: null });
    vi.spyOn(console, 'debug').mockImplementation(() => {});
  });

  it("shows 'Tus grupos' first, then 'Descubre grupos' with member counts, privacy badges and links, and loads more", async () => {
    const mine = buildGroupCard({ name: 'Team Ximena', memberCount: 1, relation: 'admin', privacy: 'private' });
    const big = buildGroupCard({ name: 'Fans de Carla', memberCount: 25 });
    const small = buildGroupCard({ name: 'Club Leo', memberCount: 3 });
    const fetchMock = stubApi({
      'GET /api/groups': () => jsonResponse(200, directory({ mine: [mine], groups: [big], nextCursor: 'c2' })),
      'GET /api/groups?cursor=c2': () => jsonResponse(200, directory({ groups: [small] })),
    });
    renderDirectory();
    expect(screen.getByRole('status').textContent).toBe('Cargando grupos…');

    expect(await screen.findByRole('heading', { level: 2, name: 'Tus grupos' })).toBeTruthy();
    expect(sectionNames()).toEqual(['Tus grupos', 'Descubre grupos']);
    expect(cardNames('Tus grupos')).toEqual(['Team Ximena']);
    const mineCard = screen.getByRole('article', { name: 'Team Ximena' });
    expect(within(mineCard).getByText('1 miembro')).toBeTruthy();
    expect(within(mineCard).getByText('Privado')).toBeTruthy();
    expect(within(mineCard).getByRole('link', { name: 'Team Ximena' }).getAttribute('href')).toBe(`/grupos/${mine.id}`);
    const bigCard = screen.getByRole('article', { name: 'Fans de Carla' });
    expect(within(bigCard).getByText('25 miembros')).toBeTruthy();
    expect(within(bigCard).getByText('Público')).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Cargar más' }));
    await waitFor(() => expect(cardNames('Descubre grupos')).toEqual(['Fans de Carla', 'Club Leo']));
    expect(screen.queryByRole('button', { name: 'Cargar más' })).toBeNull();
    expect(requestsOf(fetchMock)).toEqual(['GET /api/groups', 'GET /api/groups?cursor=c2']);
  });

  it('searches by name once the typing stops, and says when nothing matches', async () => {
    const fetchMock = stubApi({
      'GET /api/groups': () => jsonResponse(200, directory({ groups: [buildGroupCard({ name: 'Fans de Carla' })] })),
      'GET /api/groups?q=xime': () => jsonResponse(200, directory({ mine: [buildGroupCard({ name: 'Team Ximena', relation: 'member' })] })),
      'GET /api/groups?q=zzz': () => jsonResponse(200, directory({})),
    });
    renderDirectory();
    await screen.findByRole('article', { name: 'Fans de Carla' });

    const search = screen.getByRole('searchbox', { name: 'Buscar grupos por nombre' });
    await userEvent.type(search, 'xime');
    expect(await screen.findByRole('article', { name: 'Team Ximena' })).toBeTruthy();
    expect(sectionNames()).toEqual(['Tus grupos']);
    // One search for the whole word, not one per key.
    expect(requestsOf(fetchMock)).toEqual(['GET /api/groups', 'GET /api/groups?q=xime']);

    await userEvent.clear(search);
    await userEvent.type(search, 'zzz');
    expect(await screen.findByText(GROUP_MESSAGES.emptySearch)).toBeTruthy();
  });

  it('shows the empty directory, and an error with Reintentar', async () => {
    let fail = true;
    stubApi({
      'GET /api/groups': () =>
        fail ? jsonResponse(500, { statusCode: 500, error: 'Internal Server Error', message: 'Algo falló' }) : jsonResponse(200, directory({})),
    });
    renderDirectory();
    expect((await screen.findByRole('alert')).textContent).toContain('Algo falló');
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Reintentar' }));
    expect(await screen.findByText(GROUP_MESSAGES.empty)).toBeTruthy();
  });

  it('creates a group with the dialog (checked with the server messages) and opens it', async () => {
    const created = buildGroupDetail({ name: 'Team Leo', relation: 'admin' });
    const fetchMock = stubApi({
      'GET /api/groups': () => jsonResponse(200, directory({})),
      'POST /api/groups': () => jsonResponse(201, created),
    });
    renderDirectory();
    await screen.findByText(GROUP_MESSAGES.empty);
    await userEvent.click(screen.getByRole('button', { name: 'Crear grupo' }));
    const dialog = screen.getByRole('dialog', { name: 'Crear grupo' });

    const name = within(dialog).getByRole('textbox', { name: 'Nombre' });
    await userEvent.type(name, 'TL');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Crear grupo' }));
    expect(within(dialog).getByText(GROUP_MESSAGES.nameLength)).toBeTruthy();
    expect(document.activeElement).toBe(name);
    expect(requestsOf(fetchMock)).not.toContain('POST /api/groups');

    await userEvent.clear(name);
    await userEvent.type(name, '  Team Leo ');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Descripción' }), 'Fans de Leo');
    expect(within(dialog).getByText('11/500')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Privado' }));
    expect(within(dialog).getByText('Solo los miembros ven las publicaciones; hay que solicitar unirse')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Crear grupo' }));

    expect(await screen.findByRole('heading', { name: 'Página del grupo' })).toBeTruthy();
    expect(bodyOf(fetchMock, 'POST /api/groups')).toEqual({
      name: 'Team Leo',
      description: 'Fans de Leo',
      privacy: 'private',
      avatarUrl: null,
      coverUrl: null,
    });
  });

  it("shows the server's refusal in the dialog", async () => {
    stubApi({
      'GET /api/groups': () => jsonResponse(200, directory({})),
      'POST /api/groups': () => jsonResponse(429, { statusCode: 429, error: 'Too Many Requests', message: GROUP_MESSAGES.createLimit }),
    });
    renderDirectory();
    await screen.findByText(GROUP_MESSAGES.empty);
    await userEvent.click(screen.getByRole('button', { name: 'Crear grupo' }));
    const dialog = screen.getByRole('dialog', { name: 'Crear grupo' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Nombre' }), 'Team Leo');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Crear grupo' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain(GROUP_MESSAGES.createLimit);
  });
});
