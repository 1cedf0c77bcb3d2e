import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { ADMIN_MESSAGES } from '@tribuna/contracts/adminRules';
import type { AdminPollView } from '@tribuna/contracts/api/admin/polls';
import { bodyOf, requestsOf, stubApi, type Handler } from '../../../test/apiStub';
import { jsonResponse } from '../../../test/fixtures';
import { buildAdminPoll, buildSeason } from '../catalogFixtures';
import { PollsPage, pollActions } from './PollsPage';

const season = buildSeason({ realityName: 'La Casa', number: 3 });
const other = buildSeason({ realityName: 'Gran Hermano', number: 1 });
const seasonsOk: Record<string, Handler> = { 'GET /api/admin/seasons': () => jsonResponse(200, { seasons: [season, other] }) };

function Where() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname + location.search}</output>;
}

function renderPage(url = '/admin/encuestas') {
  return render(
    <MemoryRouter initialEntries={[url]}>
      <Routes>
        <Route path="/admin/encuestas" element={<PollsPage />} />
      </Routes>
      <Where />
    </MemoryRouter>,
  );
}

const rowOf = (title: string) => screen.getByRole('cell', { name: title }).closest('tr')!;
const buttonsOf = (row: HTMLElement) =>
  within(row)
    .getAllByRole('button')
    .map((b) => b.textContent);
const serverError = (status: number, message: string) => () => jsonResponse(status, { statusCode: status, error: 'Bad Request', message });

describe('pollActions', () => {
  it('offers exactly the actions §2 allows, plus Activar for drafts, and Fijar en Landing for closed polls but never for drafts', () => {
    expect(pollActions({ status: 'active', effectiveStatus: 'active', isFeatured: false })).toEqual(['edit', 'feature', 'close', 'delete']);
    expect(pollActions({ status: 'active', effectiveStatus: 'active', isFeatured: true })).toEqual(['edit', 'close', 'delete']);
    expect(pollActions({ status: 'closed', effectiveStatus: 'closed', isFeatured: false })).toEqual(['edit', 'feature', 'reopen', 'delete']);
    expect(pollActions({ status: 'draft', effectiveStatus: 'draft', isFeatured: false })).toEqual(['edit', 'activate', 'delete']);
    // Past its end date: shows as closed; neither Cerrar nor Reabrir (edit the date instead).
    expect(pollActions({ status: 'active', effectiveStatus: 'closed', isFeatured: false })).toEqual(['edit', 'feature', 'delete']);
  });
});

describe('PollsPage', () => {
  const active = buildAdminPoll(season, { title: 'Activa destacada', status: 'active', isFeatured: true, voteCount: 1234 });
  const closed = buildAdminPoll(season, { title: 'Ya cerrada', status: 'closed', voteCount: 1 });
  const draft = buildAdminPoll(other, { title: 'En borrador', status: 'draft' });
  const expired = buildAdminPoll(season, { title: 'Vencida', status: 'active', effectiveStatus: 'closed', endDate: '2025-01-01T00:00:00.000Z' });

  beforeEach(() => {
    vi.spyOn(console, 'debug').mockImplementation(() => {});
  });

  it('lists polls with reality and season, status (effective), Principal and votes, and the actions each allows', async () => {
    stubApi({ ...seasonsOk, 'GET /api/admin/polls': () => jsonResponse(200, { polls: [active, closed, draft, expired] }) });
    renderPage();
    const table = await screen.findByRole('table', { name: 'Encuestas' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Encuesta', 'Temporada', 'Estado', 'Votos', 'Acciones']);

    const first = rowOf('Activa destacada');
    expect(within(first).getByText('La Casa · Temporada 3')).toBeTruthy();
    expect(within(first).getByText('Activa')).toBeTruthy();
    expect(within(first).getByText('Principal')).toBeTruthy();
    expect(within(first).getByText('1234')).toBeTruthy();
    expect(buttonsOf(first)).toEqual(['Editar', 'Cerrar', 'Eliminar']);

    const second = rowOf('Ya cerrada');
    expect(within(second).getByText('Cerrada')).toBeTruthy();
    expect(within(second).queryByText('Principal')).toBeNull();
    expect(buttonsOf(second)).toEqual(['Editar', 'Fijar en Landing', 'Reabrir', 'Eliminar']);

    const third = rowOf('En borrador');
    expect(within(third).getByText('Gran Hermano · Temporada 1')).toBeTruthy();
    expect(within(third).getByText('Borrador')).toBeTruthy();
    expect(buttonsOf(third)).toEqual(['Editar', 'Activar', 'Eliminar']);

    expect(within(rowOf('Vencida')).getByText('Cerrada')).toBeTruthy();

    const cards = within(screen.getByRole('list', { name: 'Encuestas' })).getAllByRole('listitem');
    expect(within(cards[0]!).getByText('1234 votos')).toBeTruthy();
    expect(within(cards[1]!).getByText('1 voto')).toBeTruthy();
  });

  it('shows the empty state, filters by season and shows the load fallback', async () => {
    const fetchMock = stubApi({
      ...seasonsOk,
      'GET /api/admin/polls': () => jsonResponse(200, { polls: [] }),
      [`GET /api/admin/polls?seasonId=${season.id}`]: () => new Response('', { status: 502 }),
    });
    const user = userEvent.setup();
    renderPage();
    expect(await screen.findByText(ADMIN_MESSAGES.noPolls)).toBeTruthy();
    await user.selectOptions(screen.getByLabelText('Temporada'), season.id);
    expect((await screen.findByRole('alert')).textContent).toContain(ADMIN_MESSAGES.loadPollsFailed);
    expect(requestsOf(fetchMock)).toContain(`GET /api/admin/polls?seasonId=${season.id}`);
  });

  it('closes, reopens and activates through setPollStatus, and features a poll as the only Principal one', async () => {
    const fetchMock = stubApi({
      ...seasonsOk,
      'GET /api/admin/polls': () => jsonResponse(200, { polls: [active, closed, draft] }),
      [`POST /api/admin/polls/${active.id}/status`]: () => jsonResponse(200, { ...active, status: 'closed', effectiveStatus: 'closed' }),
      [`POST /api/admin/polls/${draft.id}/status`]: () => jsonResponse(200, { ...draft, status: 'active', effectiveStatus: 'active' }),
      [`POST /api/admin/polls/${closed.id}/feature`]: () => jsonResponse(200, { ...closed, isFeatured: true }),
    });
    const user = userEvent.setup();
    renderPage();
    await screen.findByRole('table');

    await user.click(within(rowOf('Activa destacada')).getByRole('button', { name: 'Cerrar: Activa destacada' }));
    expect(bodyOf(fetchMock, `POST /api/admin/polls/${active.id}/status`)).toEqual({ status: 'closed' });
    expect(within(rowOf('Activa destacada')).getByText('Cerrada')).toBeTruthy();
    expect(buttonsOf(rowOf('Activa destacada'))).toEqual(['Editar', 'Reabrir', 'Eliminar']);

    await user.click(within(rowOf('En borrador')).getByRole('button', { name: 'Activar: En borrador' }));
    expect(bodyOf(fetchMock, `POST /api/admin/polls/${draft.id}/status`)).toEqual({ status: 'active' });
    expect(buttonsOf(rowOf('En borrador'))).toEqual(['Editar', 'Fijar en Landing', 'Cerrar', 'Eliminar']);

    await user.click(within(rowOf('Ya cerrada')).getByRole('button', { name: 'Fijar en Landing: Ya cerrada' }));
    expect(within(rowOf('Ya cerrada')).getByText('Principal')).toBeTruthy();
    expect(within(rowOf('Activa destacada')).queryByText('Principal')).toBeNull();
    expect(buttonsOf(rowOf('Activa destacada'))).toContain('Fijar en Landing');
  });

  it("shows the server's message when an action is refused, or the action's fallback", async () => {
    const lonely: AdminPollView = { ...closed, title: 'Sin opciones' };
    stubApi({
      ...seasonsOk,
      'GET /api/admin/polls': () => jsonResponse(200, { polls: [lonely, active] }),
      [`POST /api/admin/polls/${lonely.id}/status`]: serverError(409, ADMIN_MESSAGES.reopenNeedsOptions),
      [`POST /api/admin/polls/${lonely.id}/feature`]: () => new Response('', { status: 500 }),
      [`POST /api/admin/polls/${active.id}/status`]: () => new Response('', { status: 500 }),
    });
    const user = userEvent.setup();
    renderPage();
    await screen.findByRole('table');
    await user.click(within(rowOf('Sin opciones')).getByRole('button', { name: 'Reabrir: Sin opciones' }));
    expect(screen.getByRole('alert').textContent).toContain(ADMIN_MESSAGES.reopenNeedsOptions);
    await user.click(within(rowOf('Sin opciones')).getByRole('button', { name: 'Fijar en Landing: Sin opciones' }));
    expect(screen.getByRole('alert').textContent).toContain(ADMIN_MESSAGES.featurePollFailed);
    await user.click(within(rowOf('Activa destacada')).getByRole('button', { name: 'Cerrar: Activa destacada' }));
    expect(screen.getByRole('alert').textContent).toContain(ADMIN_MESSAGES.closePollFailed);
  });

  it('deletes only after the confirmation modal, and shows the fallback when it fails', async () => {
    let answer: Handler = () => new Response('', { status: 500 });
    const fetchMock = stubApi({
      ...seasonsOk,
      'GET /api/admin/polls': () => jsonResponse(200, { polls: [active, closed] }),
      [`DELETE /api/admin/polls/${closed.id}`]: (init) => answer(init),
    });
    const user = userEvent.setup();
    renderPage();
    await screen.findByRole('table');
    await user.click(within(rowOf('Ya cerrada')).getByRole('button', { name: 'Eliminar: Ya cerrada' }));
    const dialog = screen.getByRole('dialog', { name: 'Eliminar encuesta' });
    expect(within(dialog).getByText(ADMIN_MESSAGES.confirmDeletePoll)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    expect(requestsOf(fetchMock).some((r) => r.startsWith('DELETE'))).toBe(false);

    await user.click(within(rowOf('Ya cerrada')).getByRole('button', { name: 'Eliminar: Ya cerrada' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Eliminar' }));
    expect(within(screen.getByRole('dialog')).getByRole('alert').textContent).toContain(ADMIN_MESSAGES.deletePollFailed);
    answer = () => new Response(null, { status: 204 });
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Eliminar' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.queryByRole('cell', { name: 'Ya cerrada' })).toBeNull();
  });

  it('opens the create modal from ?nuevo=1, puts the new poll on top and drops the flag', async () => {
    const created = buildAdminPoll(season, { title: 'Nueva', status: 'draft' });
    stubApi({
      ...seasonsOk,
      'GET /api/admin/polls': () => jsonResponse(200, { polls: [active] }),
      'POST /api/admin/polls': () => jsonResponse(201, created),
    });
    const user = userEvent.setup();
    renderPage('/admin/encuestas?nuevo=1');
    const dialog = screen.getByRole('dialog', { name: 'Nueva encuesta' });
    await screen.findByRole('table');
    await user.type(within(dialog).getByLabelText(/Título/), 'Nueva');
    await user.selectOptions(within(dialog).getByLabelText(/Temporada/), season.id);
    await user.click(within(dialog).getByRole('radio', { name: 'Opciones personalizadas' }));
    const [a, b] = within(dialog).getAllByRole('textbox', { name: /^Opción/ });
    await user.type(a!, 'Sí');
    await user.type(b!, 'No');
    await user.click(within(dialog).getByRole('button', { name: 'Crear encuesta' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(within(screen.getAllByRole('row')[1]!).getByText('Nueva')).toBeTruthy();
    expect(screen.getByTestId('location').textContent).toBe('/admin/encuestas');
  });
});
