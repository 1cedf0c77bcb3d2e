import { useEffect } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { ADMIN_MESSAGES } from '@tribuna/contracts/adminRules';
import type { RealityView, SeasonView } from '@tribuna/contracts/api/admin/catalog';
import { bodyOf, requestsOf, stubApi, type Handler } from '../../../test/apiStub';
import { jsonResponse } from '../../../test/fixtures';
import { apiError, bareFailure, buildReality, buildSeason } from '../adminFixtures';
import { SeasonsPage } from './SeasonsPage';

let location = '';
function LocationProbe() {
  const current = useLocation();
  useEffect(() => {
    location = current.pathname + current.search;
  });
  return null;
}

function renderPage(path = '/admin/temporadas') {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/admin/temporadas" element={<SeasonsPage />} />
        <Route path="/admin/realitys" element={<p>realities screen</p>} />
      </Routes>
      <LocationProbe />
    </MemoryRouter>,
  );
}

const casa = buildReality({ name: 'La Casa' });
const isla = buildReality({ name: 'La Isla' });

function stub(realities: RealityView[], seasons: SeasonView[], extra: Record<string, Handler> = {}) {
  return stubApi({
    'GET /api/admin/realities': () => jsonResponse(200, { realities }),
    'GET /api/admin/seasons': () => jsonResponse(200, { seasons }),
    ...extra,
  });
}

/** The desktop table's rows (the phone cards hold the same seasons; CSS shows one of the two). */
const tableRows = () => within(screen.getByRole('table')).getAllByRole('row').slice(1);
const cards = () => within(screen.getByRole('list', { name: 'Temporadas' })).getAllByRole('listitem');
const cells = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .map((c) => c.textContent);

describe('SeasonsPage', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(2025, 5, 15, 12, 0));
    vi.spyOn(console, 'debug').mockImplementation(() => {});
  });
  afterEach(() => vi.useRealTimers());

  it('lists seasons by year then number (spec §7), in a table and in cards, with date labels and hints', async () => {
    stub(
      [casa, isla],
      [
        buildSeason(isla, { number: 1, year: 2025, startDate: '2025-06-20', endDate: null }),
        buildSeason(casa, { number: 2, year: 2025, startDate: '2025-06-01', endDate: '2025-06-18', active: true }),
        buildSeason(casa, { number: 1, year: 2024, startDate: '2024-01-10', endDate: '2024-04-01' }),
      ],
    );
    renderPage();
    expect(screen.getByRole('status').textContent).toContain('Cargando temporadas');
    await screen.findByRole('table');
    expect(tableRows().map(cells)).toEqual([
      ['La Casa', 'Temporada 1', '2024', '10 ene 2024 – 1 abr 2024Finalizada', 'Inactiva', 'EditarEliminar'],
      ['La Isla', 'Temporada 1', '2025', 'Desde 20 jun 2025PróximaFaltan 5 días', 'Inactiva', 'EditarEliminar'],
      ['La Casa', 'Temporada 2', '2025', '1 jun 2025 – 18 jun 2025En cursoTermina en 3 días', 'Activa', 'EditarEliminar'],
    ]);
    expect(cards()).toHaveLength(3);
    expect(cards()[0]!.textContent).toContain('Temporada 1 · 2024');
    expect(within(cards()[1]!).getByText('Próxima')).toBeTruthy();
  });

  it('filters by reality', async () => {
    stub([casa, isla], [buildSeason(casa, { number: 1 }), buildSeason(isla, { number: 7 })]);
    const user = userEvent.setup();
    renderPage();
    await screen.findByRole('table');
    await user.selectOptions(screen.getByLabelText('Filtrar por reality'), 'La Isla');
    expect(tableRows().map((r) => cells(r).slice(0, 2))).toEqual([['La Isla', 'Temporada 7']]);
    await user.selectOptions(screen.getByLabelText('Filtrar por reality'), 'Todos los realities');
    expect(tableRows()).toHaveLength(2);
  });

  it('says there are no seasons, and that a reality must exist first', async () => {
    stub([casa], []);
    const view = renderPage();
    expect(await screen.findByText('No hay temporadas registradas...')).toBeTruthy();
    view.unmount();

    stub([], []);
    const user = userEvent.setup();
    renderPage();
    expect(await screen.findByText('No hay realities disponibles')).toBeTruthy();
    expect(screen.queryByText('No hay temporadas registradas...')).toBeNull();
    expect((screen.getByRole('button', { name: 'Nueva temporada' }) as HTMLButtonElement).disabled).toBe(true);
    await user.click(screen.getByRole('link', { name: 'Crear un reality' }));
    expect(location).toBe('/admin/realitys?nuevo=1');
  });

  it('shows the server message or the fallbacks when loading fails', async () => {
    stubApi({ 'GET /api/admin/realities': () => jsonResponse(200, { realities: [casa] }), 'GET /api/admin/seasons': bareFailure });
    const view = renderPage();
    expect((await screen.findByRole('alert')).textContent).toContain(ADMIN_MESSAGES.loadSeasonsFailed);
    view.unmount();
    stubApi({ 'GET /api/admin/realities': bareFailure, 'GET /api/admin/seasons': () => apiError(500, 'Base de datos caída') });
    renderPage();
    await waitFor(() => expect(screen.getAllByRole('alert')).toHaveLength(2));
    const texts = screen.getAllByRole('alert').map((a) => a.textContent);
    expect(texts[0]).toContain(ADMIN_MESSAGES.loadRealitiesFailed);
    expect(texts[1]).toContain('Base de datos caída');
  });

  it('creates a season: validation messages, the next number for the chosen reality, the activation warning', async () => {
    const created = buildSeason(casa, { number: 4, year: 2026, startDate: '2026-01-10', endDate: '2026-03-01', active: true });
    const fetchMock = stub([casa, isla], [buildSeason(casa, { number: 3, active: true }), buildSeason(casa, { number: 1 }), buildSeason(isla, { number: 1 })], {
      'POST /api/admin/seasons': () => jsonResponse(201, created),
    });
    const user = userEvent.setup();
    renderPage();
    await screen.findByRole('table');
    await user.click(screen.getByRole('button', { name: 'Nueva temporada' }));
    const dialog = screen.getByRole('dialog', { name: 'Nueva temporada' });
    const reality = within(dialog).getByLabelText(/Reality/) as HTMLSelectElement;
    const number = within(dialog).getByLabelText('Número') as HTMLInputElement;
    const year = within(dialog).getByLabelText(/Año/) as HTMLInputElement;
    expect(document.activeElement).toBe(reality);
    expect(reality.value).toBe('');
    expect(number.value).toBe('');
    expect(year.value).toBe('2025');
    // Active by default, with the warning.
    expect(within(dialog).getByText(ADMIN_MESSAGES.activateSeasonWarning)).toBeTruthy();

    await user.clear(year);
    await user.type(year, '1999');
    await user.type(within(dialog).getByLabelText('Fecha de inicio'), '2026-03-10');
    await user.type(within(dialog).getByLabelText('Fecha de fin'), '2026-03-01');
    await user.click(within(dialog).getByRole('button', { name: 'Crear temporada' }));
    expect(within(dialog).getByText('Debe seleccionar un reality')).toBeTruthy();
    expect(within(dialog).getByText(ADMIN_MESSAGES.yearRange)).toBeTruthy();
    expect(within(dialog).getByText('La fecha de fin debe ser posterior a la fecha de inicio')).toBeTruthy();
    expect(reality.getAttribute('aria-invalid')).toBe('true');
    expect(requestsOf(fetchMock)).not.toContain('POST /api/admin/seasons');

    await user.selectOptions(reality, 'La Casa');
    expect(number.value).toBe('4');
    await user.selectOptions(reality, 'La Isla');
    expect(number.value).toBe('2');
    await user.selectOptions(reality, 'La Casa');
    await user.clear(year);
    await user.type(year, '2026');
    await user.clear(within(dialog).getByLabelText('Fecha de inicio'));
    await user.type(within(dialog).getByLabelText('Fecha de inicio'), '2026-01-10');
    expect(within(dialog).queryByText('Debe seleccionar un reality')).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Crear temporada' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(bodyOf(fetchMock, 'POST /api/admin/seasons')).toEqual({
      realityId: casa.id,
      number: 4,
      year: 2026,
      startDate: '2026-01-10',
      endDate: '2026-03-01',
      active: true,
    });
    // The new active season leaves the other seasons of La Casa inactive, as the server does.
    expect(tableRows().map((r) => [cells(r)[0], cells(r)[1], cells(r)[4]])).toEqual([
      ['La Casa', 'Temporada 1', 'Inactiva'],
      ['La Isla', 'Temporada 1', 'Inactiva'],
      ['La Casa', 'Temporada 3', 'Inactiva'],
      ['La Casa', 'Temporada 4', 'Activa'],
    ]);
  });

  it('keeps a number the admin typed, hides the warning when Activa is unticked, and shows the server’s 4xx message', async () => {
    const fetchMock = stub([casa], [buildSeason(casa, { number: 3 })], {
      'POST /api/admin/seasons': () => apiError(409, ADMIN_MESSAGES.seasonNumberTaken),
    });
    const user = userEvent.setup();
    renderPage('/admin/temporadas?nuevo=1');
    const dialog = await screen.findByRole('dialog', { name: 'Nueva temporada' });
    // The only reality is preselected, with its next number.
    expect((within(dialog).getByLabelText(/Reality/) as HTMLSelectElement).value).toBe(casa.id);
    const number = within(dialog).getByLabelText('Número');
    expect((number as HTMLInputElement).value).toBe('4');
    await user.clear(number);
    await user.type(number, '3');
    await user.click(within(dialog).getByLabelText('Activa'));
    expect(within(dialog).queryByText(ADMIN_MESSAGES.activateSeasonWarning)).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Crear temporada' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain(ADMIN_MESSAGES.seasonNumberTaken);
    expect(bodyOf(fetchMock, 'POST /api/admin/seasons')).toMatchObject({ number: 3, active: false });
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(location).toBe('/admin/temporadas');
  });

  it('edits a season and falls back to "Error al guardar la temporada"', async () => {
    const season = buildSeason(casa, { number: 2, year: 2024, startDate: '2024-01-01', endDate: '2024-03-01' });
    let answer: () => Response = bareFailure;
    const fetchMock = stub([casa, isla], [season], { [`PATCH /api/admin/seasons/${season.id}`]: () => answer() });
    const user = userEvent.setup();
    renderPage();
    await screen.findByRole('table');
    await user.click(within(screen.getByRole('table')).getByRole('button', { name: 'Editar La Casa · Temporada 2' }));
    const dialog = screen.getByRole('dialog', { name: 'Editar temporada' });
    expect((within(dialog).getByLabelText('Número') as HTMLInputElement).value).toBe('2');
    expect((within(dialog).getByLabelText(/Año/) as HTMLInputElement).value).toBe('2024');
    expect((within(dialog).getByLabelText('Fecha de fin') as HTMLInputElement).value).toBe('2024-03-01');
    // Changing the reality of an existing season keeps its number.
    await user.selectOptions(within(dialog).getByLabelText(/Reality/), 'La Isla');
    expect((within(dialog).getByLabelText('Número') as HTMLInputElement).value).toBe('2');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar cambios' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain(ADMIN_MESSAGES.saveSeasonFailed);
    expect(bodyOf(fetchMock, `PATCH /api/admin/seasons/${season.id}`)).toEqual({
      realityId: isla.id,
      number: 2,
      year: 2024,
      startDate: '2024-01-01',
      endDate: '2024-03-01',
      active: false,
    });

    answer = () => apiError(404, ADMIN_MESSAGES.seasonNotFound);
    await user.click(within(dialog).getByRole('button', { name: 'Guardar cambios' }));
    await waitFor(() => expect(within(dialog).getByRole('alert').textContent).toContain('Temporada no encontrada'));
  });

  it('toggles Activa/Inactiva optimistically, deactivating the reality’s other season, and rolls back on failure', async () => {
    const one = buildSeason(casa, { number: 1, active: true });
    const two = buildSeason(casa, { number: 2, active: false });
    const other = buildSeason(isla, { number: 1, active: true });
    let answer: () => Response | Promise<Response> = bareFailure;
    const fetchMock = stub([casa, isla], [one, two, other], { [`PATCH /api/admin/seasons/${two.id}`]: () => answer() });
    const user = userEvent.setup();
    renderPage();
    await screen.findByRole('table');
    const table = () => within(screen.getByRole('table'));
    const states = () => tableRows().map((r) => `${cells(r)[0]} ${cells(r)[1]}: ${cells(r)[4]}`);

    let release!: (r: Response) => void;
    answer = () => new Promise<Response>((resolve) => (release = resolve));
    await user.click(table().getByRole('button', { name: 'Cambiar estado de La Casa · Temporada 2: Inactiva' }));
    expect(states()).toEqual(['La Casa Temporada 1: Inactiva', 'La Isla Temporada 1: Activa', 'La Casa Temporada 2: Activa']);
    expect(bodyOf(fetchMock, `PATCH /api/admin/seasons/${two.id}`)).toEqual({ active: true });
    release(bareFailure());
    expect((await screen.findByRole('alert')).textContent).toContain(ADMIN_MESSAGES.toggleFailed);
    expect(states()).toEqual(['La Casa Temporada 1: Activa', 'La Isla Temporada 1: Activa', 'La Casa Temporada 2: Inactiva']);

    answer = () => jsonResponse(200, { ...two, active: true });
    await user.click(table().getByRole('button', { name: 'Cambiar estado de La Casa · Temporada 2: Inactiva' }));
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    await waitFor(() => expect(states()).toEqual(['La Casa Temporada 1: Inactiva', 'La Isla Temporada 1: Activa', 'La Casa Temporada 2: Activa']));
  });

  it('deletes a season after a confirmation', async () => {
    const one = buildSeason(casa, { number: 1 });
    const two = buildSeason(casa, { number: 2 });
    const fetchMock = stub([casa], [one, two], { [`DELETE /api/admin/seasons/${one.id}`]: () => new Response(null, { status: 204 }) });
    const user = userEvent.setup();
    renderPage();
    await screen.findByRole('table');
    await user.click(within(cards()[0]!).getByRole('button', { name: 'Eliminar La Casa · Temporada 1' }));
    const dialog = screen.getByRole('dialog', { name: 'Eliminar temporada' });
    expect(dialog.textContent).toContain('¿Estás seguro de eliminar La Casa · Temporada 1?');
    await user.click(within(dialog).getByRole('button', { name: 'Eliminar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(requestsOf(fetchMock)).toContain(`DELETE /api/admin/seasons/${one.id}`);
    expect(tableRows().map((r) => cells(r)[1])).toEqual(['Temporada 2']);
  });

  it('Mostrar eliminados lists the deleted seasons marked, and Restaurar brings one back inactive', async () => {
    const live = buildSeason(casa, { number: 2, year: 2025, active: true });
    const deleted = buildSeason(casa, { number: 1, year: 2024, deletedAt: '2025-06-01T10:00:00.000Z' });
    const ofDeletedReality = buildSeason(buildReality({ name: 'El Barco' }), {
      number: 1,
      year: 2023,
      deletedAt: '2025-05-01T10:00:00.000Z',
      realityDeleted: true,
    });
    let release!: (r: Response) => void;
    const fetchMock = stubApi({
      'GET /api/admin/realities': () => jsonResponse(200, { realities: [casa] }),
      'GET /api/admin/seasons': () => jsonResponse(200, { seasons: [live] }),
      'GET /api/admin/seasons?includeDeleted=true': () => jsonResponse(200, { seasons: [live, deleted, ofDeletedReality] }),
      [`POST /api/admin/seasons/${deleted.id}/restore`]: () => new Promise<Response>((resolve) => (release = resolve)),
    });
    const user = userEvent.setup();
    renderPage();
    await screen.findByRole('table');
    expect(tableRows()).toHaveLength(1);
    const toggle = screen.getByRole('checkbox', { name: 'Mostrar eliminados' }) as HTMLInputElement;
    expect(toggle.checked).toBe(false);

    await user.click(toggle);
    await waitFor(() => expect(tableRows()).toHaveLength(3));
    expect(requestsOf(fetchMock)).toContain('GET /api/admin/seasons?includeDeleted=true');
    expect(tableRows().map((r) => [cells(r)[0], cells(r)[1], cells(r)[4], cells(r)[5]])).toEqual([
      ['El Barco', 'Temporada 1', 'EliminadaReality eliminado', 'Restaura primero el reality'],
      ['La Casa', 'Temporada 1', 'Eliminada', 'Restaurar'],
      ['La Casa', 'Temporada 2', 'Activa', 'EditarEliminar'],
    ]);
    // The cards carry the same marks and actions.
    expect(within(cards()[1]!).getByText('Eliminada')).toBeTruthy();
    expect(within(cards()[0]!).queryByRole('button')).toBeNull();

    await user.click(within(screen.getByRole('table')).getByRole('button', { name: 'Restaurar La Casa · Temporada 1' }));
    expect((within(screen.getByRole('table')).getByRole('button', { name: 'Restaurar La Casa · Temporada 1' }) as HTMLButtonElement).disabled).toBe(true);
    release(jsonResponse(200, { ...deleted, deletedAt: null, active: false }));
    await waitFor(() => expect(cells(tableRows()[1]!)[4]).toBe('Inactiva'));
    expect(tableRows().map((r) => [cells(r)[1], cells(r)[4], cells(r)[5]])).toEqual([
      ['Temporada 1', 'EliminadaReality eliminado', 'Restaura primero el reality'],
      ['Temporada 1', 'Inactiva', 'EditarEliminar'],
      ['Temporada 2', 'Activa', 'EditarEliminar'],
    ]);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows why a restore was refused, and keeps a season deleted while the deleted ones are shown', async () => {
    const live = buildSeason(casa, { number: 2 });
    const deleted = buildSeason(casa, { number: 1, deletedAt: '2025-06-01T10:00:00.000Z' });
    let restore: () => Response = bareFailure;
    stubApi({
      'GET /api/admin/realities': () => jsonResponse(200, { realities: [casa] }),
      'GET /api/admin/seasons': () => jsonResponse(200, { seasons: [live] }),
      'GET /api/admin/seasons?includeDeleted=true': () => jsonResponse(200, { seasons: [deleted, live] }),
      [`POST /api/admin/seasons/${deleted.id}/restore`]: () => restore(),
      [`DELETE /api/admin/seasons/${live.id}`]: () => new Response(null, { status: 204 }),
    });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('checkbox', { name: 'Mostrar eliminados' }));
    await screen.findByRole('table');
    const table = () => within(screen.getByRole('table'));

    await user.click(table().getByRole('button', { name: 'Restaurar La Casa · Temporada 1' }));
    expect((await screen.findByRole('alert')).textContent).toContain(ADMIN_MESSAGES.restoreSeasonFailed);
    restore = () => apiError(409, ADMIN_MESSAGES.seasonRealityDeleted);
    await user.click(table().getByRole('button', { name: 'Restaurar La Casa · Temporada 1' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain(ADMIN_MESSAGES.seasonRealityDeleted));
    expect(cells(tableRows()[0]!)[4]).toBe('Eliminada');

    await user.click(table().getByRole('button', { name: 'Eliminar La Casa · Temporada 2' }));
    await user.click(within(screen.getByRole('dialog', { name: 'Eliminar temporada' })).getByRole('button', { name: 'Eliminar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(tableRows().map((r) => [cells(r)[1], cells(r)[4], cells(r)[5]])).toEqual([
      ['Temporada 1', 'Eliminada', 'Restaurar'],
      ['Temporada 2', 'Eliminada', 'Restaurar'],
    ]);
  });
});
