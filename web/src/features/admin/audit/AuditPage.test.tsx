import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { AUDIT_MESSAGES } from '@tribuna/contracts/adminRules';
import type { AuditEntryView, AuditPage as AuditPageView } from '@tribuna/contracts/api/admin/audit';
import { requestsOf, stubApi } from '../../../test/apiStub';
import { jsonResponse } from '../../../test/fixtures';
import { adminUuid, apiError, bareFailure } from '../adminFixtures';
import { AUDIT_RANGE_INVALID, AuditPage } from './AuditPage';

const marta = { id: adminUuid(), displayName: 'Marta Admin' };
const luis = { id: adminUuid(), displayName: 'Luis Admin' };
const filters = () => jsonResponse(200, { admins: [marta, luis], actions: ['poll.close', 'user.role', 'user.suspend'] });

function entry(overrides: Partial<AuditEntryView> = {}): AuditEntryView {
  return {
    id: String(Math.floor(Math.random() * 1e9)),
    admin: marta,
    action: 'user.role',
    entityType: 'user',
    entityId: adminUuid(),
    before: null,
    after: null,
    createdAt: '2025-03-02T15:30:00.000Z',
    ...overrides,
  };
}

/** Stubs GET /api/admin/audit?… by its query, plus the filter menus. */
function stubAudit(pageFor: (query: URLSearchParams) => Response) {
  const fetchMock = stubApi({ 'GET /api/admin/audit/filters': filters });
  const fallback = fetchMock.getMockImplementation()!;
  fetchMock.mockImplementation(async (path: string, init: RequestInit = {}) => {
    const url = new URL(path, 'http://tribuna.test');
    if (url.pathname === '/api/admin/audit') return pageFor(url.searchParams);
    return fallback(path, init);
  });
  return fetchMock;
}
const page = (items: AuditEntryView[], nextCursor: string | null = null): AuditPageView => ({ items, nextCursor });
const auditRequests = (fetchMock: ReturnType<typeof stubApi>) =>
  requestsOf(fetchMock).filter((r) => r.startsWith('GET /api/admin/audit?') || r === 'GET /api/admin/audit');
const items = () => within(screen.getByRole('list', { name: 'Acciones registradas' })).getAllByRole('listitem');

const renderPage = () =>
  render(
    <MemoryRouter>
      <AuditPage />
    </MemoryRouter>,
  );

describe('AuditPage', () => {
  beforeEach(() => {
    vi.spyOn(console, 'debug').mockImplementation(() => {});
  });

  it('lists the actions newest first with admin, action, entity and time; each opens its before/after', async () => {
    const role = entry({ action: 'user.role', entityId: 'u-1', before: { role: 'user', username: 'ana' }, after: { role: 'admin', username: 'ana' } });
    const order = entry({ action: 'poll.reorder', admin: null, entityType: 'poll', entityId: null, before: [1, 2], after: [2, 1] });
    stubAudit(() => jsonResponse(200, page([role, order])));
    const user = userEvent.setup();
    renderPage();
    expect(screen.getByText('Cargando auditoría…')).toBeTruthy();
    await screen.findByRole('list', { name: 'Acciones registradas' });
    const [first, second] = items();
    expect(within(first!).getByText('user.role')).toBeTruthy();
    expect(within(first!).getByText('Marta Admin')).toBeTruthy();
    expect(first!.textContent).toContain('user · u-1');
    expect(first!.querySelector('time')?.getAttribute('datetime')).toBe('2025-03-02T15:30:00.000Z');
    expect(within(second!).getByText('Administrador eliminado')).toBeTruthy();

    const toggle = within(first!).getByRole('button', { name: 'Ver cambios' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    await user.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const diff = within(first!).getByRole('table', { name: 'Cambios' });
    // Only what changed: the role, old → new.
    expect(
      within(diff)
        .getAllByRole('row')
        .slice(1)
        .map((r) => r.textContent),
    ).toEqual(['roleuser→ admin']);
    await user.click(within(first!).getByRole('button', { name: 'Ocultar cambios' }));
    expect(within(first!).queryByRole('table')).toBeNull();

    // A list is shown as JSON, before and after.
    await user.click(within(second!).getByRole('button', { name: 'Ver cambios' }));
    expect(Array.from(second!.querySelectorAll('pre')).map((p) => p.textContent?.replace(/\s+/g, ''))).toEqual(['[1,2]', '[2,1]']);
  });

  it('filters by admin, action and days, and refuses a range that ends before it starts', async () => {
    const fetchMock = stubAudit(() => jsonResponse(200, page([entry()])));
    const user = userEvent.setup();
    renderPage();
    await screen.findByRole('list', { name: 'Acciones registradas' });
    await waitFor(() => expect((screen.getByLabelText('Administrador') as HTMLSelectElement).options).toHaveLength(3));
    expect(Array.from((screen.getByLabelText('Acción') as HTMLSelectElement).options).map((o) => o.textContent)).toEqual([
      'Todas',
      'poll.close',
      'user.role',
      'user.suspend',
    ]);

    await user.selectOptions(screen.getByLabelText('Administrador'), 'Luis Admin');
    await user.selectOptions(screen.getByLabelText('Acción'), 'user.suspend');
    await user.type(screen.getByLabelText('Desde'), '2025-03-01');
    await user.type(screen.getByLabelText('Hasta'), '2025-03-31');
    await waitFor(() =>
      expect(auditRequests(fetchMock)).toContain(`GET /api/admin/audit?adminId=${luis.id}&action=user.suspend&from=2025-03-01&to=2025-03-31`),
    );
    expect(auditRequests(fetchMock)[0]).toBe('GET /api/admin/audit');

    const before = auditRequests(fetchMock).length;
    await user.clear(screen.getByLabelText('Hasta'));
    await user.type(screen.getByLabelText('Hasta'), '2025-02-01');
    expect(screen.getByRole('alert').textContent).toBe(AUDIT_RANGE_INVALID);
    expect(auditRequests(fetchMock).some((r) => r.includes('to=2025-02-01'))).toBe(false);
    expect(auditRequests(fetchMock).length).toBeLessThanOrEqual(before + 1);

    await user.click(screen.getByRole('button', { name: 'Quitar filtros' }));
    await waitFor(() => expect(auditRequests(fetchMock).at(-1)).toBe('GET /api/admin/audit'));
  });

  it('loads more by the cursor until there is no more', async () => {
    const newest = entry({ action: 'poll.close' });
    const older = entry({ action: 'user.suspend' });
    let failMore = true;
    const fetchMock = stubAudit((query) => {
      if (!query.get('cursor')) return jsonResponse(200, page([newest], '41'));
      return failMore ? bareFailure() : jsonResponse(200, page([older], null));
    });
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Cargar más' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(AUDIT_MESSAGES.loadFailed);
    failMore = false;
    await user.click(within(alert).getByRole('button', { name: 'Reintentar' }));
    await waitFor(() => expect(items()).toHaveLength(2));
    expect(items().map((li) => li.querySelector('.font-mono')?.textContent)).toEqual(['poll.close', 'user.suspend']);
    expect(screen.queryByRole('button', { name: 'Cargar más' })).toBeNull();
    expect(auditRequests(fetchMock)).toEqual(['GET /api/admin/audit', 'GET /api/admin/audit?cursor=41', 'GET /api/admin/audit?cursor=41']);
  });

  it('says when nothing was recorded, and shows the load error with Reintentar', async () => {
    stubAudit(() => jsonResponse(200, page([])));
    const view = renderPage();
    expect(await screen.findByText(AUDIT_MESSAGES.empty)).toBeTruthy();
    view.unmount();

    let reply: () => Response = () => apiError(403, 'No autorizado');
    stubAudit(() => reply());
    const user = userEvent.setup();
    renderPage();
    expect((await screen.findByRole('alert')).textContent).toContain('No autorizado');
    reply = bareFailure;
    await user.click(within(screen.getByRole('alert')).getByRole('button', { name: 'Reintentar' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain(AUDIT_MESSAGES.loadFailed));
    reply = () => jsonResponse(200, page([entry()]));
    await user.click(within(screen.getByRole('alert')).getByRole('button', { name: 'Reintentar' }));
    expect(await screen.findByRole('list', { name: 'Acciones registradas' })).toBeTruthy();
  });
});
