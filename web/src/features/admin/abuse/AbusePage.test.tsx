import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { ABUSE_MESSAGES } from '@tribuna/contracts/abuseRules';
import type { AbuseAccount, AbuseScanView, AbuseVote, FlaggedDevice, FlaggedUser } from '@tribuna/contracts/api/admin/abuse';
import { bodyOf, requestsOf, stubApi } from '../../../test/apiStub';
import { jsonResponse } from '../../../test/fixtures';
import { spyLive } from '../../../test/liveSpy';
import { adminUuid, apiError, bareFailure } from '../adminFixtures';
import { truncateId, voidResultText } from './abuseFormat';
import { AbusePage } from './AbusePage';

const LONG_DEVICE = 'abcdef0123456789ZZZZZZZZZZ';
const USER_DEVICES = ['11112222333344445555', '66667777888899990000', 'aaaabbbbccccddddeeee'];

function buildAccount(overrides: Partial<AbuseAccount> = {}): AbuseAccount {
  return {
    userId: adminUuid(),
    displayName: 'Ana López',
    username: 'ana',
    isSuspended: false,
    accountAgeHours: 36,
    votesPerHour: 2.5,
    voteCount: 90,
    ...overrides,
  };
}

function buildDevice(overrides: Partial<FlaggedDevice> = {}): FlaggedDevice {
  const accounts = overrides.accounts ?? [
    buildAccount(),
    buildAccount({ displayName: 'Beto', username: 'beto', accountAgeHours: 1.5, votesPerHour: 12, voteCount: 18 }),
  ];
  return { fingerprint: LONG_DEVICE, accountCount: accounts.length, voteCount: 108, accounts, ...overrides };
}

function buildFlaggedUser(overrides: Partial<FlaggedUser> = {}): FlaggedUser {
  return { ...buildAccount({ displayName: 'Carla', username: 'carla' }), deviceCount: 3, devices: USER_DEVICES, ...overrides };
}

function buildScan(overrides: Partial<AbuseScanView> = {}): AbuseScanView {
  return {
    id: adminUuid(),
    status: 'done',
    progress: 100,
    startedAt: '2026-11-24T10:00:00.000Z',
    finishedAt: '2026-11-24T10:01:00.000Z',
    error: null,
    flaggedDevices: 1,
    flaggedUsers: 1,
    suspiciousVotes: 1234,
    devices: [buildDevice()],
    users: [buildFlaggedUser()],
    ...overrides,
  };
}

function buildVote(overrides: Partial<AbuseVote> = {}): AbuseVote {
  return {
    id: '101',
    pollId: adminUuid(),
    pollTitle: 'Gala 1',
    optionLabel: 'Carla',
    userId: adminUuid(),
    displayName: 'Ana López',
    points: 1,
    deviceFingerprint: LONG_DEVICE,
    createdAt: '2026-11-24T09:00:00.000Z',
    voided: null,
    ...overrides,
  };
}

function renderPage() {
  return render(
    <MemoryRouter initialEntries={['/admin/abuse-report']}>
      <AbusePage />
    </MemoryRouter>,
  );
}

describe('abuse formatting', () => {
  it('truncates device ids to 16 and 8 characters, with an ellipsis only when cut', () => {
    expect(truncateId(LONG_DEVICE, 16)).toBe('abcdef0123456789…');
    expect(truncateId('short', 16)).toBe('short');
    expect(truncateId(USER_DEVICES[0]!, 8)).toBe('11112222…');
  });

  it('says what a void or restore did', () => {
    expect(voidResultText('void', 3, 0)).toBe('3 votos anulados');
    expect(voidResultText('void', 1, 2)).toBe('1 voto anulado, 2 omitidos');
    expect(voidResultText('restore', 1, 1)).toBe('1 voto restaurado, 1 omitido');
  });
});

describe('AbusePage', () => {
  let live: ReturnType<typeof spyLive>;
  beforeEach(() => {
    live = spyLive();
    vi.spyOn(console, 'debug').mockImplementation(() => {});
  });

  it("shows 'Cargando reporte...', then the notice, the summary and both lists", async () => {
    stubApi({ 'GET /api/admin/abuse/scans/latest': () => jsonResponse(200, { scan: buildScan() }) });
    const user = userEvent.setup();
    renderPage();
    expect(screen.getByRole('status').textContent).toBe(ABUSE_MESSAGES.loading);
    expect(screen.getByText(ABUSE_MESSAGES.notice)).toBeTruthy();

    await screen.findByTestId('abuse-device');
    expect(screen.getByTestId('abuse-flaggedDevices').textContent).toBe('1');
    expect(screen.getByTestId('abuse-flaggedUsers').textContent).toBe('1');
    expect(screen.getByTestId('abuse-suspiciousVotes').textContent).toBe('1,234');
    expect(screen.getByTestId('abuse-scanned-at').textContent).toMatch(/^Análisis del 24 nov 2026/);

    const device = screen.getByTestId('abuse-device');
    expect(within(device).getByTitle(LONG_DEVICE).textContent).toBe('abcdef0123456789…');
    expect(device.textContent).toContain('2 cuentas');
    expect(device.textContent).toContain('108 votos');

    // The accounts open on demand, linked to the users screen.
    const accounts = within(device).getByRole('list', { hidden: true });
    expect(accounts.hidden).toBe(true);
    await user.click(within(device).getByRole('button', { name: /Ver cuentas/ }));
    expect(accounts.hidden).toBe(false);
    expect(
      within(device)
        .getByRole('button', { name: /Ocultar cuentas/ })
        .getAttribute('aria-expanded'),
    ).toBe('true');
    const links = within(accounts).getAllByRole('link');
    expect(links.map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['Ana López', '/admin/usuarios?q=ana'],
      ['Beto', '/admin/usuarios?q=beto'],
    ]);
    expect(accounts.textContent).toContain('18 votos · 1.5 h · 12 votos/h');

    const flagged = screen.getByTestId('abuse-user');
    expect(within(flagged).getByRole('link', { name: 'Carla' }).getAttribute('href')).toBe('/admin/usuarios?q=carla');
    expect(flagged.textContent).toContain('3 dispositivos');
    expect(flagged.textContent).toContain('36 h');
    expect(flagged.textContent).toContain('2.5 votos/h');
    expect(
      within(within(flagged).getByRole('list'))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['11112222…', '66667777…', 'aaaabbbb…']);
  });

  it('says when nothing was flagged', async () => {
    stubApi({
      'GET /api/admin/abuse/scans/latest': () =>
        jsonResponse(200, { scan: buildScan({ devices: [], users: [], flaggedDevices: 0, flaggedUsers: 0, suspiciousVotes: 0 }) }),
    });
    renderPage();
    expect(await screen.findByText('No se detectaron dispositivos con varias cuentas')).toBeTruthy();
    expect(screen.getByText('No se detectaron usuarios con varios dispositivos')).toBeTruthy();
  });

  it("shows 'Error: ' plus the message, and retries", async () => {
    let answer = () => apiError(500, 'Base de datos caída');
    stubApi({ 'GET /api/admin/abuse/scans/latest': () => answer() });
    const user = userEvent.setup();
    const view = renderPage();
    expect((await screen.findByRole('alert')).textContent).toBe('Error: Base de datos caídaReintentar');
    view.unmount();

    answer = bareFailure;
    renderPage();
    expect((await screen.findByRole('alert')).textContent).toContain('Error: No se pudo cargar el reporte');
    answer = () => jsonResponse(200, { scan: buildScan() });
    await user.click(screen.getByRole('button', { name: 'Reintentar' }));
    expect(await screen.findByTestId('abuse-device')).toBeTruthy();
  });

  it('starts a scan, follows its progress on the admin topic, and reads the result when done', async () => {
    const old = buildScan({ suspiciousVotes: 5 });
    const fresh = buildScan({ suspiciousVotes: 77 });
    let latest = old;
    const fetchMock = stubApi({
      'GET /api/admin/abuse/scans/latest': () => jsonResponse(200, { scan: latest }),
      'POST /api/admin/abuse/scans': () => jsonResponse(202, { ...fresh, status: 'queued', progress: 0, finishedAt: null, devices: [], users: [] }),
    });
    const user = userEvent.setup();
    renderPage();
    await screen.findByTestId('abuse-device');
    expect(live.topics()).toEqual(['admin']);

    await user.click(screen.getByRole('button', { name: 'Actualizar reporte' }));
    expect(await screen.findByText('Análisis en cola…')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Analizando…' })).toHaveProperty('disabled', true);
    // The previous report stays while the new scan runs.
    expect(screen.getByTestId('abuse-suspiciousVotes').textContent).toBe('5');

    live.deliver({ type: 'abuse-scan', topic: 'admin', scanId: fresh.id, status: 'running', progress: 40 });
    const bar = screen.getByRole('progressbar');
    expect(bar.getAttribute('aria-valuenow')).toBe('40');
    expect(screen.getByText('Analizando votos… 40 %')).toBeTruthy();

    latest = fresh;
    live.deliver({ type: 'abuse-scan', topic: 'admin', scanId: fresh.id, status: 'done', progress: 100 });
    await waitFor(() => expect(screen.getByTestId('abuse-suspiciousVotes').textContent).toBe('77'));
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.getByRole('button', { name: 'Actualizar reporte' })).toHaveProperty('disabled', false);
    expect(requestsOf(fetchMock)).toEqual(['GET /api/admin/abuse/scans/latest', 'POST /api/admin/abuse/scans', 'GET /api/admin/abuse/scans/latest']);
  });

  it('keeps the previous report when the new scan fails (or is read while running), and says why', async () => {
    const old = buildScan({ suspiciousVotes: 5 });
    const next = buildScan({ status: 'running', progress: 10, finishedAt: null, devices: [], users: [], suspiciousVotes: 0 });
    let latest = old;
    stubApi({
      'GET /api/admin/abuse/scans/latest': () => jsonResponse(200, { scan: latest }),
      'POST /api/admin/abuse/scans': () => jsonResponse(202, { ...next, status: 'queued', progress: 0 }),
    });
    const user = userEvent.setup();
    renderPage();
    await screen.findByTestId('abuse-device');
    await user.click(screen.getByRole('button', { name: 'Actualizar reporte' }));
    await screen.findByText('Análisis en cola…');

    // A resync while it runs: the progress moves, the report stays.
    latest = next;
    await live.resync('admin');
    await waitFor(() => expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('10'));
    expect(screen.getByTestId('abuse-suspiciousVotes').textContent).toBe('5');

    latest = { ...next, status: 'failed', error: 'Se agotó el tiempo de la consulta', finishedAt: '2026-11-24T10:05:00.000Z' };
    live.deliver({ type: 'abuse-scan', topic: 'admin', scanId: next.id, status: 'failed', progress: 10 });
    expect((await screen.findByRole('alert')).textContent).toBe('Error: Se agotó el tiempo de la consulta');
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.getByTestId('abuse-suspiciousVotes').textContent).toBe('5');
    expect(screen.getByTestId('abuse-device')).toBeTruthy();
  });

  it('shows a refused start with the Error: prefix', async () => {
    stubApi({
      'GET /api/admin/abuse/scans/latest': () => jsonResponse(200, { scan: buildScan() }),
      'POST /api/admin/abuse/scans': () => apiError(409, ABUSE_MESSAGES.scanRunning),
    });
    const user = userEvent.setup();
    renderPage();
    await screen.findByTestId('abuse-device');
    await user.click(screen.getByRole('button', { name: 'Actualizar reporte' }));
    expect((await screen.findByRole('alert')).textContent).toBe(`Error: ${ABUSE_MESSAGES.scanRunning}`);
  });

  it('reviews a device’s votes, voids the selected ones with a reason, then restores one', async () => {
    const scan = buildScan();
    const votes = [buildVote({ id: '101' }), buildVote({ id: '102', displayName: 'Beto', optionLabel: 'Luis' }), buildVote({ id: '103' })];
    let listed = votes;
    const fetchMock = stubApi({
      'GET /api/admin/abuse/scans/latest': () => jsonResponse(200, { scan }),
      [`GET /api/admin/abuse/votes?fingerprint=${LONG_DEVICE}`]: () => jsonResponse(200, { items: listed, truncated: false }),
      'POST /api/admin/abuse/votes/void': () => {
        listed = votes.map((v) =>
          v.id === '103' ? v : { ...v, voided: { at: '2026-11-24T11:00:00.000Z', byId: adminUuid(), byName: 'Admin Uno', reason: 'Granja de cuentas' } },
        );
        return jsonResponse(200, { changed: 2, skipped: 0, pollIds: [votes[0]!.pollId] });
      },
      'POST /api/admin/abuse/votes/restore': () => jsonResponse(200, { changed: 1, skipped: 0, pollIds: [votes[0]!.pollId] }),
    });
    const user = userEvent.setup();
    renderPage();
    const device = await screen.findByTestId('abuse-device');
    await user.click(within(device).getByRole('button', { name: /Ver votos/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Votos de dispositivo abcdef0123456789…' });
    await within(dialog).findByText('Gala 1: Luis');

    const voidButton = within(dialog).getByRole('button', { name: 'Anular votos seleccionados' });
    expect(voidButton).toHaveProperty('disabled', true);
    await user.click(within(dialog).getByRole('checkbox', { name: 'Seleccionar todos' }));
    await user.click(within(dialog).getAllByRole('checkbox')[3]!); // vote 103 stays
    expect(
      within(dialog)
        .getAllByRole('checkbox')
        .map((c) => (c as HTMLInputElement).checked),
    ).toEqual([false, true, true, false]);

    // The reason is required.
    await user.click(voidButton);
    expect(within(dialog).getByText(ABUSE_MESSAGES.voidReasonRequired)).toBeTruthy();
    expect(
      within(dialog)
        .getByLabelText(/Motivo de la anulación/)
        .getAttribute('aria-invalid'),
    ).toBe('true');
    await user.type(within(dialog).getByLabelText(/Motivo de la anulación/), '  Granja de cuentas ');
    await user.click(within(dialog).getByRole('button', { name: 'Anular votos seleccionados' }));

    const confirm = await screen.findByRole('dialog', { name: 'Anular votos' });
    expect(confirm.textContent).toContain('Se anularán 2 votos');
    await user.click(within(confirm).getByRole('button', { name: 'Anular votos' }));
    expect(bodyOf(fetchMock, 'POST /api/admin/abuse/votes/void')).toEqual({ voteIds: ['101', '102'], reason: 'Granja de cuentas' });

    const back = await screen.findByRole('dialog', { name: 'Votos de dispositivo abcdef0123456789…' });
    expect((await within(back).findByRole('status')).textContent).toBe('2 votos anulados');
    await waitFor(() => expect(within(back).getAllByText('Anulado')).toHaveLength(2));
    expect(back.textContent).toContain('por Admin Uno');
    expect(back.textContent).toContain('Granja de cuentas');

    // A voided vote can be restored.
    await user.click(within(back).getAllByRole('checkbox')[1]!);
    expect(within(back).getByRole('button', { name: 'Anular votos seleccionados' })).toHaveProperty('disabled', true);
    await user.click(within(back).getByRole('button', { name: 'Restaurar' }));
    expect(bodyOf(fetchMock, 'POST /api/admin/abuse/votes/restore')).toEqual({ voteIds: ['101'] });
    expect((await within(back).findByRole('status')).textContent).toBe('1 voto restaurado');
  });

  it("asks a flagged user's votes by user id", async () => {
    const flagged = buildFlaggedUser();
    const fetchMock = stubApi({
      'GET /api/admin/abuse/scans/latest': () => jsonResponse(200, { scan: buildScan({ users: [flagged] }) }),
      [`GET /api/admin/abuse/votes?userId=${flagged.userId}`]: () => jsonResponse(200, { items: [], truncated: false }),
    });
    const user = userEvent.setup();
    renderPage();
    const row = await screen.findByTestId('abuse-user');
    await user.click(within(row).getByRole('button', { name: 'Ver votos de Carla' }));
    const dialog = await screen.findByRole('dialog', { name: 'Votos de Carla' });
    expect(await within(dialog).findByText('No hay votos de este dispositivo o usuario.')).toBeTruthy();
    expect(requestsOf(fetchMock)).toContain(`GET /api/admin/abuse/votes?userId=${flagged.userId}`);
  });
});
