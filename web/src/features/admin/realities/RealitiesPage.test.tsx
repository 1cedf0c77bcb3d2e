import { useEffect } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { ADMIN_MESSAGES } from '@tribuna/contracts/adminRules';
import type { RealityView } from '@tribuna/contracts/api/admin/catalog';
import { bodyOf, requestsOf, stubApi } from '../../../test/apiStub';
import { jsonResponse } from '../../../test/fixtures';
import { apiError, bareFailure, buildReality } from '../adminFixtures';
import { DELETE_REALITY_FAILED, RealitiesPage } from './RealitiesPage';

let location = '';
function LocationProbe() {
  const current = useLocation();
  useEffect(() => {
    location = current.pathname + current.search;
  });
  return null;
}

function renderPage(path = '/admin/realitys') {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/admin/realitys" element={<RealitiesPage />} />
      </Routes>
      <LocationProbe />
    </MemoryRouter>,
  );
}

const list = (realities: RealityView[]) => () => jsonResponse(200, { realities });
const rows = () => within(screen.getByRole('list', { name: 'Realities' })).getAllByRole('listitem');

/** A response the test releases when it wants (to see the optimistic state in between). */
function deferred() {
  let release!: (response: Response) => void;
  const promise = new Promise<Response>((resolve) => (release = resolve));
  return { promise, release };
}

describe('RealitiesPage', () => {
  beforeEach(() => {
    vi.spyOn(console, 'debug').mockImplementation(() => {});
  });

  it('shows skeletons, then the list with season counts and the active state', async () => {
    stubApi({
      'GET /api/admin/realities': list([buildReality({ name: 'La Casa', seasonCount: 2 }), buildReality({ name: 'La Isla', active: false, seasonCount: 1 })]),
    });
    renderPage();
    expect(screen.getByRole('status').textContent).toContain('Cargando realities');
    await screen.findByText('La Casa');
    expect(rows().map((r) => r.textContent)).toEqual(['La Casa2 temporadasActivoEditarEliminar', 'La Isla1 temporadaInactivoEditarEliminar']);
    expect(screen.getByRole('button', { name: 'Cambiar estado de La Casa: Activo' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('button', { name: 'Cambiar estado de La Isla: Inactivo' }).getAttribute('aria-pressed')).toBe('false');
  });

  it('shows the empty state', async () => {
    stubApi({ 'GET /api/admin/realities': list([]) });
    renderPage();
    expect(await screen.findByText('No hay realities registrados...')).toBeTruthy();
  });

  it('shows the server message or the fallback when the list fails', async () => {
    stubApi({ 'GET /api/admin/realities': () => apiError(403, 'No autorizado') });
    const view = renderPage();
    expect((await screen.findByRole('alert')).textContent).toContain('No autorizado');
    view.unmount();
    stubApi({ 'GET /api/admin/realities': bareFailure });
    renderPage();
    expect((await screen.findByRole('alert')).textContent).toContain(ADMIN_MESSAGES.loadRealitiesFailed);
  });

  it('creates a reality: the name is required, Activo is ticked by default', async () => {
    const created = buildReality({ name: 'Gran Hermano', seasonCount: 0 });
    const fetchMock = stubApi({
      'GET /api/admin/realities': list([buildReality({ name: 'La Casa' })]),
      'POST /api/admin/realities': () => jsonResponse(201, created),
    });
    const user = userEvent.setup();
    renderPage();
    await screen.findByText('La Casa');
    await user.click(screen.getByRole('button', { name: 'Nuevo reality' }));
    const dialog = screen.getByRole('dialog', { name: 'Nuevo reality' });
    const name = within(dialog).getByLabelText(/Nombre/);
    expect(document.activeElement).toBe(name);
    expect((within(dialog).getByLabelText('Activo') as HTMLInputElement).checked).toBe(true);

    await user.type(name, '   ');
    await user.click(within(dialog).getByRole('button', { name: 'Crear reality' }));
    expect(within(dialog).getByText(ADMIN_MESSAGES.realityNameRequired)).toBeTruthy();
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(requestsOf(fetchMock)).not.toContain('POST /api/admin/realities');

    await user.type(name, ' Gran Hermano ');
    await user.click(within(dialog).getByRole('button', { name: 'Crear reality' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(bodyOf(fetchMock, 'POST /api/admin/realities')).toEqual({ name: 'Gran Hermano', active: true });
    expect(rows().map((r) => r.querySelector('p')?.textContent)).toEqual(['Gran Hermano', 'La Casa']);
  });

  it('opens the create modal on ?nuevo=1 and drops the flag when it closes', async () => {
    stubApi({ 'GET /api/admin/realities': list([]) });
    const user = userEvent.setup();
    renderPage('/admin/realitys?nuevo=1');
    expect(await screen.findByRole('dialog', { name: 'Nuevo reality' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Cancelar' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(location).toBe('/admin/realitys');
  });

  it('edits a reality and shows the server’s 4xx message, or the fallback, in the modal', async () => {
    const casa = buildReality({ name: 'La Casa' });
    let answer: () => Response = () => apiError(409, 'Ya existe un reality con ese nombre');
    const fetchMock = stubApi({
      'GET /api/admin/realities': list([casa]),
      [`PATCH /api/admin/realities/${casa.id}`]: () => answer(),
    });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Editar La Casa' }));
    const dialog = screen.getByRole('dialog', { name: 'Editar reality' });
    const name = within(dialog).getByLabelText(/Nombre/);
    expect((name as HTMLInputElement).value).toBe('La Casa');
    await user.clear(name);
    await user.type(name, 'La Casa VIP');
    await user.click(within(dialog).getByLabelText('Activo'));
    await user.click(within(dialog).getByRole('button', { name: 'Guardar cambios' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain('Ya existe un reality con ese nombre');
    expect(bodyOf(fetchMock, `PATCH /api/admin/realities/${casa.id}`)).toEqual({ name: 'La Casa VIP', active: false });

    answer = bareFailure;
    await user.click(within(dialog).getByRole('button', { name: 'Guardar cambios' }));
    await waitFor(() => expect(within(dialog).getByRole('alert').textContent).toContain(ADMIN_MESSAGES.saveRealityFailed));

    answer = () => jsonResponse(200, { ...casa, name: 'La Casa VIP', active: false });
    await user.click(within(dialog).getByRole('button', { name: 'Guardar cambios' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByText('La Casa VIP')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Cambiar estado de La Casa VIP: Inactivo' })).toBeTruthy();
  });

  it('toggles the active state optimistically and keeps the server’s answer', async () => {
    const casa = buildReality({ name: 'La Casa', active: true });
    const pending = deferred();
    const fetchMock = stubApi({
      'GET /api/admin/realities': list([casa]),
      [`PATCH /api/admin/realities/${casa.id}`]: () => pending.promise,
    });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Cambiar estado de La Casa: Activo' }));
    // Flipped at once, before the server answers.
    const badge = screen.getByRole('button', { name: 'Cambiar estado de La Casa: Inactivo' });
    expect(badge.getAttribute('aria-pressed')).toBe('false');
    expect(bodyOf(fetchMock, `PATCH /api/admin/realities/${casa.id}`)).toEqual({ active: false });
    pending.release(jsonResponse(200, { ...casa, active: false }));
    await waitFor(() => expect((screen.getByRole('button', { name: /Cambiar estado de La Casa/ }) as HTMLButtonElement).disabled).toBe(false));
    expect(screen.getByRole('button', { name: 'Cambiar estado de La Casa: Inactivo' })).toBeTruthy();
  });

  it('rolls the toggle back with the server message or "Error al cambiar el estado"', async () => {
    const casa = buildReality({ name: 'La Casa', active: false });
    let answer: () => Response = bareFailure;
    stubApi({
      'GET /api/admin/realities': list([casa]),
      [`PATCH /api/admin/realities/${casa.id}`]: () => answer(),
    });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Cambiar estado de La Casa: Inactivo' }));
    expect((await screen.findByRole('alert')).textContent).toContain(ADMIN_MESSAGES.toggleFailed);
    expect(screen.getByRole('button', { name: 'Cambiar estado de La Casa: Inactivo' }).getAttribute('aria-pressed')).toBe('false');

    answer = () => apiError(404, ADMIN_MESSAGES.realityNotFound);
    await user.click(screen.getByRole('button', { name: 'Cambiar estado de La Casa: Inactivo' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain(ADMIN_MESSAGES.realityNotFound));
    expect(screen.getByRole('button', { name: 'Cambiar estado de La Casa: Inactivo' })).toBeTruthy();
  });

  it('deletes (soft) after a confirmation; Cancelar keeps it; a failure stays in the dialog', async () => {
    const casa = buildReality({ name: 'La Casa' });
    const isla = buildReality({ name: 'La Isla' });
    let answer: () => Response = bareFailure;
    const fetchMock = stubApi({
      'GET /api/admin/realities': list([casa, isla]),
      [`DELETE /api/admin/realities/${casa.id}`]: () => answer(),
    });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Eliminar La Casa' }));
    let dialog = screen.getByRole('dialog', { name: 'Eliminar reality' });
    expect(dialog.textContent).toContain('¿Estás seguro de eliminar La Casa?');
    await user.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    expect(requestsOf(fetchMock)).not.toContain(`DELETE /api/admin/realities/${casa.id}`);

    await user.click(screen.getByRole('button', { name: 'Eliminar La Casa' }));
    dialog = screen.getByRole('dialog', { name: 'Eliminar reality' });
    await user.click(within(dialog).getByRole('button', { name: 'Eliminar' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain(DELETE_REALITY_FAILED);

    answer = () => new Response(null, { status: 204 });
    await user.click(within(dialog).getByRole('button', { name: 'Eliminar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(rows().map((r) => r.querySelector('p')?.textContent)).toEqual(['La Isla']);
  });

  it('Mostrar eliminados lists the deleted realities marked Eliminado with Restaurar, which brings one back inactive', async () => {
    const casa = buildReality({ name: 'La Casa', seasonCount: 2 });
    const barco = buildReality({ name: 'El Barco', active: false, seasonCount: 1, deletedAt: '2025-06-01T10:00:00.000Z' });
    const restore = deferred();
    const fetchMock = stubApi({
      'GET /api/admin/realities': list([casa]),
      'GET /api/admin/realities?includeDeleted=true': list([barco, casa]),
      [`POST /api/admin/realities/${barco.id}/restore`]: () => restore.promise,
    });
    const user = userEvent.setup();
    renderPage();
    await screen.findByText('La Casa');
    expect(rows()).toHaveLength(1);

    await user.click(screen.getByRole('checkbox', { name: 'Mostrar eliminados' }));
    await screen.findByText('El Barco');
    expect(requestsOf(fetchMock)).toContain('GET /api/admin/realities?includeDeleted=true');
    expect(rows().map((r) => r.textContent)).toEqual(['El Barco1 temporadaEliminadoRestaurar', 'La Casa2 temporadasActivoEditarEliminar']);
    expect(within(rows()[0]!).queryByRole('button', { name: /Editar|Eliminar|Cambiar estado/ })).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Restaurar El Barco' }));
    expect((screen.getByRole('button', { name: 'Restaurar El Barco' }) as HTMLButtonElement).disabled).toBe(true);
    restore.release(jsonResponse(200, { ...barco, deletedAt: null }));
    await waitFor(() => expect(rows()[0]!.textContent).toBe('El Barco1 temporadaInactivoEditarEliminar'));
    expect(screen.getByRole('button', { name: 'Cambiar estado de El Barco: Inactivo' })).toBeTruthy();

    // Unticked: the deleted ones are asked for no more.
    await user.click(screen.getByRole('checkbox', { name: 'Mostrar eliminados' }));
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(requestsOf(fetchMock).filter((r) => r === 'GET /api/admin/realities')).toHaveLength(2);
  });

  it('shows the server’s message or "Error al restaurar el reality" when a restore fails, and keeps the row deleted', async () => {
    const barco = buildReality({ name: 'El Barco', active: false, deletedAt: '2025-06-01T10:00:00.000Z' });
    let answer: () => Response = bareFailure;
    stubApi({
      'GET /api/admin/realities': list([]),
      'GET /api/admin/realities?includeDeleted=true': list([barco]),
      [`POST /api/admin/realities/${barco.id}/restore`]: () => answer(),
    });
    const user = userEvent.setup();
    renderPage();
    await screen.findByText('No hay realities registrados...');
    await user.click(screen.getByRole('checkbox', { name: 'Mostrar eliminados' }));
    await user.click(await screen.findByRole('button', { name: 'Restaurar El Barco' }));
    expect((await screen.findByRole('alert')).textContent).toContain(ADMIN_MESSAGES.restoreRealityFailed);
    answer = () => apiError(409, ADMIN_MESSAGES.realityNotDeleted);
    await user.click(screen.getByRole('button', { name: 'Restaurar El Barco' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain(ADMIN_MESSAGES.realityNotDeleted));
    expect(rows()[0]!.textContent).toBe('El Barco0 temporadasEliminadoRestaurar');
  });
});
