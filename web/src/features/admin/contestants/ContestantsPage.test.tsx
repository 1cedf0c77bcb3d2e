import { beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { ADMIN_MESSAGES } from '@tribuna/contracts/adminRules';
import { bodyOf, requestsOf, stubApi, type Handler } from '../../../test/apiStub';
import { FakeXhr, installFakeXhr } from '../../../test/fakeXhr';
import { jsonResponse } from '../../../test/fixtures';
import { ContestantsPage } from './ContestantsPage';
import { PHOTO_MESSAGES } from './photoUpload';
import { buildContestant, buildSeason } from '../catalogFixtures';

const season = buildSeason({ realityName: 'La Casa', number: 3 });
const other = buildSeason({ realityName: 'Gran Hermano', number: 1 });
const carla = buildContestant(season, { fullName: 'Carla Ruiz', status: 'winner', finalPosition: 1, photoUrl: '/media/carla.webp' });
const bruno = buildContestant(season, { fullName: 'Bruno Díaz', status: 'eliminated', eliminationDate: '2025-02-10' });

const seasonsOk: Record<string, Handler> = { 'GET /api/admin/seasons': () => jsonResponse(200, { seasons: [season, other] }) };

function Where() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname + location.search}</output>;
}

function renderPage(url = '/admin/concursantes') {
  return render(
    <MemoryRouter initialEntries={[url]}>
      <Routes>
        <Route path="/admin/concursantes" element={<ContestantsPage />} />
      </Routes>
      <Where />
    </MemoryRouter>,
  );
}

const dialog = () => screen.getByRole('dialog');
const bad = (status: number, message: string) => () => jsonResponse(status, { statusCode: status, error: 'Bad Request', message });

describe('ContestantsPage', () => {
  beforeEach(() => {
    vi.spyOn(console, 'debug').mockImplementation(() => {});
    installFakeXhr();
  });

  it('lists contestants as a table (Concursante, Temporada, Estado, Posición, Acciones) and as cards', async () => {
    stubApi({ ...seasonsOk, 'GET /api/admin/contestants': () => jsonResponse(200, { contestants: [carla, bruno] }) });
    renderPage();
    const table = await screen.findByRole('table', { name: 'Concursantes' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Concursante', 'Temporada', 'Estado', 'Posición', 'Acciones']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(within(rows[0]!).getByText('Carla Ruiz')).toBeTruthy();
    expect(within(rows[0]!).getByText('La Casa · Temporada 3')).toBeTruthy();
    expect(within(rows[0]!).getByText('Ganador')).toBeTruthy();
    expect(within(rows[0]!).getByText('1')).toBeTruthy();
    expect(within(rows[1]!).getByText('Eliminado')).toBeTruthy();
    expect(within(rows[1]!).getByText('Sin posición')).toBeTruthy();
    expect(within(rows[1]!).getByRole('button', { name: 'Editar Bruno Díaz' })).toBeTruthy();
    expect(within(rows[1]!).getByRole('button', { name: 'Eliminar Bruno Díaz' })).toBeTruthy();

    const cards = within(screen.getByRole('list', { name: 'Concursantes' })).getAllByRole('listitem');
    expect(cards).toHaveLength(2);
    expect(within(cards[0]!).getByText('Posición 1')).toBeTruthy();
  });

  it('filters by season, labelled "{reality} · Temporada {n}"', async () => {
    const fetchMock = stubApi({
      ...seasonsOk,
      'GET /api/admin/contestants': () => jsonResponse(200, { contestants: [carla, bruno] }),
      [`GET /api/admin/contestants?seasonId=${other.id}`]: () => jsonResponse(200, { contestants: [] }),
    });
    renderPage();
    await screen.findByRole('table');
    const filter = screen.getByLabelText('Temporada') as HTMLSelectElement;
    expect(Array.from(filter.options).map((o) => o.textContent)).toEqual(['Todas las temporadas', 'La Casa · Temporada 3', 'Gran Hermano · Temporada 1']);
    fireEvent.change(filter, { target: { value: other.id } });
    expect(await screen.findByText(ADMIN_MESSAGES.noContestants)).toBeTruthy();
    expect(requestsOf(fetchMock)).toContain(`GET /api/admin/contestants?seasonId=${other.id}`);
  });

  it("shows the backend's message or the fallback when the list does not load", async () => {
    stubApi({ ...seasonsOk, 'GET /api/admin/contestants': () => new Response('', { status: 502 }) });
    renderPage();
    expect((await screen.findByRole('alert')).textContent).toContain(ADMIN_MESSAGES.loadContestantsFailed);
    cleanupAndRender(bad(500, 'Base de datos no disponible'));
    expect((await screen.findByRole('alert')).textContent).toContain('Base de datos no disponible');
  });

  it('opens the create modal from ?nuevo=1 and drops the flag on close', async () => {
    stubApi({ ...seasonsOk, 'GET /api/admin/contestants': () => jsonResponse(200, { contestants: [] }) });
    renderPage('/admin/concursantes?nuevo=1');
    expect(screen.getByRole('dialog', { name: 'Nuevo concursante' })).toBeTruthy();
    await userEvent.setup().click(within(dialog()).getByRole('button', { name: 'Cancelar' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByTestId('location').textContent).toBe('/admin/concursantes');
  });

  it('checks season, name, photo URL and final position, showing date and position only for the statuses that have them', async () => {
    const fetchMock = stubApi({ ...seasonsOk, 'GET /api/admin/contestants': () => jsonResponse(200, { contestants: [] }) });
    const user = userEvent.setup();
    renderPage();
    await screen.findByText(ADMIN_MESSAGES.noContestants);
    await user.click(screen.getByRole('button', { name: 'Nuevo concursante' }));
    const form = dialog();
    await user.click(within(form).getByRole('button', { name: 'Crear concursante' }));
    expect(within(form).getByText(ADMIN_MESSAGES.contestantSeasonRequired)).toBeTruthy();
    expect(within(form).getByText(ADMIN_MESSAGES.contestantNameRequired)).toBeTruthy();
    expect(
      within(form)
        .getByLabelText(/Nombre completo/)
        .getAttribute('aria-invalid'),
    ).toBe('true');

    await user.click(within(form).getByRole('radio', { name: 'Usar URL' }));
    await user.type(within(form).getByLabelText('URL de la foto'), 'http://example.com/a.jpg');
    const status = within(form).getByLabelText('Estado') as HTMLSelectElement;
    expect(Array.from(status.options).map((o) => o.textContent)).toEqual(['Activo', 'Eliminado', 'Finalista', 'Ganador']);
    expect(within(form).queryByLabelText('Fecha de eliminación')).toBeNull();
    expect(within(form).queryByLabelText('Posición final')).toBeNull();

    await user.selectOptions(status, 'eliminated');
    expect(within(form).getByLabelText('Fecha de eliminación')).toBeTruthy();
    expect(within(form).queryByLabelText('Posición final')).toBeNull();
    await user.selectOptions(status, 'finalist');
    expect(within(form).getByLabelText('Posición final')).toBeTruthy();
    fireEvent.change(within(form).getByLabelText('Posición final'), { target: { value: '0' } });
    await user.click(within(form).getByRole('button', { name: 'Crear concursante' }));
    expect(within(form).getByText(ADMIN_MESSAGES.photoUrlInvalid)).toBeTruthy();
    expect(within(form).getByText(ADMIN_MESSAGES.finalPositionInvalid)).toBeTruthy();
    fireEvent.change(within(form).getByLabelText('Posición final'), { target: { value: '2.5' } });
    await user.click(within(form).getByRole('button', { name: 'Crear concursante' }));
    expect(within(form).getByText(ADMIN_MESSAGES.finalPositionInvalid)).toBeTruthy();
    await user.selectOptions(status, 'winner');
    expect(within(form).getByLabelText('Fecha de eliminación')).toBeTruthy();
    expect(within(form).getByLabelText('Posición final')).toBeTruthy();
    await user.selectOptions(status, 'active');
    expect(within(form).queryByLabelText('Fecha de eliminación')).toBeNull();
    expect(requestsOf(fetchMock).filter((r) => r.startsWith('POST'))).toEqual([]);
  });

  it('creates a contestant with empty optional fields as null and puts it in the list', async () => {
    const created = buildContestant(season, { fullName: 'Dana Gil' });
    const fetchMock = stubApi({
      ...seasonsOk,
      'GET /api/admin/contestants': () => jsonResponse(200, { contestants: [carla] }),
      'POST /api/admin/contestants': () => jsonResponse(201, created),
    });
    const user = userEvent.setup();
    renderPage();
    await screen.findByRole('table');
    await user.click(screen.getByRole('button', { name: 'Nuevo concursante' }));
    const form = dialog();
    await user.selectOptions(within(form).getByLabelText(/Temporada/), season.id);
    await user.type(within(form).getByLabelText(/Nombre completo/), '  Dana Gil  ');
    await user.selectOptions(within(form).getByLabelText('Estado'), 'eliminated');
    await user.click(within(form).getByRole('button', { name: 'Crear concursante' }));
    expect(bodyOf(fetchMock, 'POST /api/admin/contestants')).toEqual({
      seasonId: season.id,
      fullName: 'Dana Gil',
      photoUrl: null,
      status: 'eliminated',
      eliminationDate: null,
      finalPosition: null,
    });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(within(screen.getByRole('table')).getByText('Dana Gil')).toBeTruthy();
  });

  it("edits a contestant (https URL, date, position) and shows the server's message or the fallback on failure", async () => {
    let answer: Handler = bad(400, ADMIN_MESSAGES.contestantNotFound);
    const fetchMock = stubApi({
      ...seasonsOk,
      'GET /api/admin/contestants': () => jsonResponse(200, { contestants: [bruno] }),
      [`PATCH /api/admin/contestants/${bruno.id}`]: (init) => answer(init),
    });
    const user = userEvent.setup();
    renderPage();
    await user.click(within(await screen.findByRole('table')).getByRole('button', { name: 'Editar Bruno Díaz' }));
    const form = screen.getByRole('dialog', { name: 'Editar concursante' });
    expect((within(form).getByLabelText(/Nombre completo/) as HTMLInputElement).value).toBe('Bruno Díaz');
    expect((within(form).getByLabelText('Fecha de eliminación') as HTMLInputElement).value).toBe('2025-02-10');
    await user.selectOptions(within(form).getByLabelText('Estado'), 'finalist');
    await user.type(within(form).getByLabelText('Posición final'), '3');
    await user.click(within(form).getByRole('radio', { name: 'Usar URL' }));
    await user.type(within(form).getByLabelText('URL de la foto'), 'https://cdn.example.com/bruno.jpg');
    await user.click(within(form).getByRole('button', { name: 'Guardar cambios' }));
    expect(within(form).getByRole('alert').textContent).toContain(ADMIN_MESSAGES.contestantNotFound);
    expect(bodyOf(fetchMock, `PATCH /api/admin/contestants/${bruno.id}`)).toEqual({
      seasonId: season.id,
      fullName: 'Bruno Díaz',
      photoUrl: 'https://cdn.example.com/bruno.jpg',
      status: 'finalist',
      eliminationDate: '2025-02-10',
      finalPosition: 3,
    });

    answer = () => new Response('', { status: 503 });
    await user.click(within(form).getByRole('button', { name: 'Guardar cambios' }));
    expect(within(form).getByRole('alert').textContent).toContain(ADMIN_MESSAGES.saveContestantFailed);

    answer = () => jsonResponse(200, { ...bruno, status: 'finalist', finalPosition: 3 });
    await user.click(within(form).getByRole('button', { name: 'Guardar cambios' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(within(screen.getByRole('table')).getByText('Finalista')).toBeTruthy();
  });

  it('deletes only after the confirmation, and shows the fallback when it fails', async () => {
    let answer: Handler = () => new Response('', { status: 500 });
    const fetchMock = stubApi({
      ...seasonsOk,
      'GET /api/admin/contestants': () => jsonResponse(200, { contestants: [carla, bruno] }),
      [`DELETE /api/admin/contestants/${bruno.id}`]: (init) => answer(init),
    });
    const user = userEvent.setup();
    renderPage();
    const table = await screen.findByRole('table');
    await user.click(within(table).getByRole('button', { name: 'Eliminar Bruno Díaz' }));
    expect(within(dialog()).getByText(ADMIN_MESSAGES.confirmDeleteContestant)).toBeTruthy();
    await user.click(within(dialog()).getByRole('button', { name: 'Cancelar' }));
    expect(requestsOf(fetchMock).some((r) => r.startsWith('DELETE'))).toBe(false);

    await user.click(within(table).getByRole('button', { name: 'Eliminar Bruno Díaz' }));
    await user.click(within(dialog()).getByRole('button', { name: 'Eliminar' }));
    expect(within(dialog()).getByRole('alert').textContent).toContain(ADMIN_MESSAGES.deleteContestantFailed);

    answer = () => new Response(null, { status: 204 });
    await user.click(within(dialog()).getByRole('button', { name: 'Eliminar' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(within(screen.getByRole('table')).queryByText('Bruno Díaz')).toBeNull();
    expect(within(screen.getByRole('table')).getByText('Carla Ruiz')).toBeTruthy();
  });

  it('uploads a photo with a progress bar, previews it in the square frame and saves its URL', async () => {
    const created = buildContestant(season, { fullName: 'Eva Sol', photoUrl: '/media/eva.webp' });
    const fetchMock = stubApi({
      ...seasonsOk,
      'GET /api/admin/contestants': () => jsonResponse(200, { contestants: [] }),
      'POST /api/admin/contestants': () => jsonResponse(201, created),
    });
    const user = userEvent.setup();
    renderPage('/admin/concursantes?nuevo=1');
    await screen.findByText(ADMIN_MESSAGES.noContestants);
    const form = dialog();
    await user.selectOptions(within(form).getByLabelText(/Temporada/), season.id);
    await user.type(within(form).getByLabelText(/Nombre completo/), 'Eva Sol');
    const input = screen.getByTestId('contestant-photo');

    fireEvent.change(input, { target: { files: [new File(['x'], 'eva.gif', { type: 'image/gif' })] } });
    expect(within(form).getByText(PHOTO_MESSAGES.type)).toBeTruthy();
    fireEvent.change(input, { target: { files: [new File([new Uint8Array(5 * 1024 * 1024 + 1)], 'eva.png', { type: 'image/png' })] } });
    expect(within(form).getByText(PHOTO_MESSAGES.size)).toBeTruthy();
    expect(FakeXhr.sent).toHaveLength(0);

    fireEvent.change(input, { target: { files: [new File(['x'], 'eva.png', { type: 'image/png' })] } });
    const xhr = FakeXhr.last;
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe('/api/admin/contestant-photos');
    expect(xhr.headers['X-Requested-With']).toBe('tribuna');
    expect(xhr.fields()).toEqual([['image', 'file:eva.png']]);
    act(() => xhr.progress(30, 100));
    expect(within(form).getByRole('progressbar', { name: 'Subiendo foto' }).getAttribute('aria-valuenow')).toBe('30');
    expect((within(form).getByRole('button', { name: 'Crear concursante' }) as HTMLButtonElement).disabled).toBe(true);

    await act(async () => xhr.respond(201, { url: '/media/eva.webp', thumbnailUrl: '/media/eva-t.webp', width: 800, height: 800, placeholder: null }));
    expect(within(form).queryByRole('progressbar')).toBeNull();
    expect(within(form).getByRole('img', { name: 'Vista previa de la foto de Eva Sol' }).getAttribute('src')).toBe('/media/eva.webp');
    await user.click(within(form).getByRole('button', { name: 'Crear concursante' }));
    expect(bodyOf(fetchMock, 'POST /api/admin/contestants')).toMatchObject({ fullName: 'Eva Sol', photoUrl: '/media/eva.webp' });
  });

  it("shows the upload's server message", async () => {
    stubApi({ ...seasonsOk, 'GET /api/admin/contestants': () => jsonResponse(200, { contestants: [] }) });
    renderPage('/admin/concursantes?nuevo=1');
    fireEvent.change(screen.getByTestId('contestant-photo'), { target: { files: [new File(['x'], 'a.jpg', { type: 'image/jpeg' })] } });
    await act(async () => FakeXhr.last.respond(400, { statusCode: 400, error: 'Bad Request', message: 'La imagen está dañada o no se puede leer' }));
    expect(within(dialog()).getByRole('alert').textContent).toContain('La imagen está dañada o no se puede leer');
    expect(within(dialog()).getByText('Sin foto')).toBeTruthy();
  });

  it('Mostrar eliminados lists the deleted contestants marked Borrado, with Restaurar; a contestant of a deleted season says to restore it first', async () => {
    const deleted = buildContestant(season, { fullName: 'Dana Gil', status: 'eliminated', deletedAt: '2025-06-01T10:00:00.000Z' });
    const orphan = buildContestant(other, { fullName: 'Eva Sol', seasonDeleted: true });
    let restore: () => Response | Promise<Response> = () => bad(409, ADMIN_MESSAGES.contestantSeasonDeleted)();
    const fetchMock = stubApi({
      ...seasonsOk,
      'GET /api/admin/contestants': () => jsonResponse(200, { contestants: [carla] }),
      'GET /api/admin/contestants?includeDeleted=true': () => jsonResponse(200, { contestants: [carla, deleted, orphan] }),
      [`POST /api/admin/contestants/${deleted.id}/restore`]: () => restore(),
    });
    const user = userEvent.setup();
    renderPage();
    await screen.findByRole('table', { name: 'Concursantes' });
    await user.click(screen.getByRole('checkbox', { name: 'Mostrar eliminados' }));
    const table = () => screen.getByRole('table', { name: 'Concursantes' });
    const rowOf = (name: string) => within(table()).getByText(name).closest('tr')!;
    await within(table()).findByText('Dana Gil');
    expect(requestsOf(fetchMock)).toContain('GET /api/admin/contestants?includeDeleted=true');

    expect(within(rowOf('Dana Gil')).getAllByRole('cell')[2]!.textContent).toBe('EliminadoBorrado');
    expect(
      within(rowOf('Dana Gil'))
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Restaurar']);
    expect(within(rowOf('Eva Sol')).getAllByRole('cell')[2]!.textContent).toBe('ActivoTemporada eliminada');
    expect(within(rowOf('Eva Sol')).queryByRole('button')).toBeNull();
    expect(rowOf('Eva Sol').textContent).toContain('Restaura primero la temporada');
    expect(
      within(rowOf('Carla Ruiz'))
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Editar', 'Eliminar']);

    // The server's refusal is shown; then a restore that works brings the row back with its actions.
    await user.click(within(rowOf('Dana Gil')).getByRole('button', { name: 'Restaurar Dana Gil' }));
    expect((await screen.findByRole('alert')).textContent).toContain(ADMIN_MESSAGES.contestantSeasonDeleted);
    restore = () => jsonResponse(200, { ...deleted, deletedAt: null });
    await user.click(within(rowOf('Dana Gil')).getByRole('button', { name: 'Restaurar Dana Gil' }));
    await within(rowOf('Dana Gil')).findByRole('button', { name: 'Editar Dana Gil' });
    expect(within(rowOf('Dana Gil')).getAllByRole('cell')[2]!.textContent).toBe('Eliminado');
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

function cleanupAndRender(handler: Handler) {
  cleanup();
  stubApi({ ...seasonsOk, 'GET /api/admin/contestants': handler });
  renderPage();
}
