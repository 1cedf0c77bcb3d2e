import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { REPORT_MESSAGES } from '@tribuna/contracts/reportRules';
import type { Report, ReportDay } from '@tribuna/contracts/api/admin/reports';
import { requestsOf, stubApi } from '../../../test/apiStub';
import { jsonResponse } from '../../../test/fixtures';
import { apiError, bareFailure } from '../adminFixtures';
import { chartSummary, niceMax } from './ReportChart';
import { formatReportDay, reportCsv, updatedLabel, validateCustomRange } from './reportFormat';
import { ReportsPage } from './ReportsPage';
import { RECOMPUTE_REFRESH_MS } from './useReport';

const NOW = Date.parse('2026-11-24T18:00:00.000Z');

const day = (d: string, figures: Partial<Omit<ReportDay, 'day'>> = {}): ReportDay => ({
  day: d,
  activeUsers: 0,
  newUsers: 0,
  totalVotes: 0,
  pageViews: 0,
  ...figures,
});

function buildReport(overrides: Partial<Report> = {}): Report {
  const days = overrides.days ?? [
    day('2026-11-24', { activeUsers: 1200, newUsers: 30, totalVotes: 15432, pageViews: 98001 }),
    day('2026-11-23', { activeUsers: 800, newUsers: 12, totalVotes: 7000, pageViews: 40000 }),
  ];
  return {
    from: days[days.length - 1]?.day ?? '2026-11-18',
    to: days[0]?.day ?? '2026-11-24',
    timeZone: 'America/Mexico_City',
    totals: { activeUsers: 1500, newUsers: 42, totalVotes: 22432, pageViews: 138001 },
    days,
    updatedAt: new Date(NOW - 5 * 60_000).toISOString(),
    ...overrides,
  };
}

function renderPage() {
  return render(
    <MemoryRouter>
      <ReportsPage />
    </MemoryRouter>,
  );
}

const total = (key: string) => screen.getByTestId(`report-total-${key}`).textContent;

describe('report formatting', () => {
  it('writes days in Spanish, from the calendar day (no time zone shift)', () => {
    expect(formatReportDay('2026-11-24')).toBe('mar 24 nov 2026');
    expect(formatReportDay('2026-11-23')).toBe('lun 23 nov 2026');
    expect(formatReportDay('2026-01-01')).toBe('jue 1 ene 2026');
  });

  it('checks the custom range: both dates, order, length', () => {
    expect(validateCustomRange('', '2026-11-01')).toBe(REPORT_MESSAGES.customDatesRequired);
    expect(validateCustomRange('2026-11-01', '')).toBe(REPORT_MESSAGES.customDatesRequired);
    expect(validateCustomRange('2026-11-02', '2026-11-01')).toBe(REPORT_MESSAGES.customOrder);
    expect(validateCustomRange('2026-11-01', '2026-11-01')).toBeNull();
    expect(validateCustomRange('2025-01-01', '2026-02-04')).toBeNull(); // 400 days
    expect(validateCustomRange('2025-01-01', '2026-02-05')).toBe(REPORT_MESSAGES.customTooLong);
  });

  it('exports the table as shown: BOM, the columns, YYYY-MM-DD dates, newest first', () => {
    const csv = reportCsv(buildReport().days);
    expect(csv.charCodeAt(0)).toBe(0xfeff);
    expect(csv.slice(1).split('\r\n')).toEqual([
      'Fecha,Usuarios Activos,Usuarios Nuevos,Total Votos,Visualizaciones',
      '2026-11-24,1200,30,15432,98001',
      '2026-11-23,800,12,7000,40000',
      '',
    ]);
  });

  it('says when the figures were updated', () => {
    expect(updatedLabel(null, NOW)).toBe('Sin datos calculados aún');
    expect(updatedLabel(new Date(NOW - 30_000).toISOString(), NOW)).toBe('Actualizado hace 0 min');
    expect(updatedLabel(new Date(NOW - 12 * 60_000).toISOString(), NOW)).toBe('Actualizado hace 12 min');
    expect(updatedLabel(new Date(NOW - 3 * 3_600_000).toISOString(), NOW)).toBe('Actualizado hace 3 h');
  });

  it('sums the chart up in words and rounds its axis', () => {
    expect(niceMax(0)).toBe(1);
    expect(niceMax(98001)).toBe(100000);
    expect(niceMax(140)).toBe(200);
    expect(chartSummary(buildReport().days)).toBe(
      'Votos y visualizaciones por día del lun 23 nov 2026 al mar 24 nov 2026: 22,432 votos y 138,001 visualizaciones; el día con más votos fue el mar 24 nov 2026 con 15,432.',
    );
  });
});

describe('ReportsPage', () => {
  beforeEach(() => {
    vi.spyOn(Date, 'now').mockReturnValue(NOW);
    vi.spyOn(console, 'debug').mockImplementation(() => {});
  });
  afterEach(() => vi.useRealTimers());

  it('loads this week by default: skeletons, then the totals, the chart, the table newest first', async () => {
    const fetchMock = stubApi({ 'GET /api/admin/reports?period=week': () => jsonResponse(200, buildReport()) });
    renderPage();
    expect(screen.getByRole('heading', { level: 2, name: 'Informes' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Esta semana' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('button', { name: 'Hoy' }).getAttribute('aria-pressed')).toBe('false');
    expect(screen.getByRole('status').textContent).toBe('Cargando estadísticas…');
    expect(document.querySelectorAll('.animate-pulse').length).toBeGreaterThan(0);

    await screen.findByTestId('report-total-activeUsers');
    for (const label of ['Usuarios activos', 'Usuarios nuevos', 'Total votos', 'Visualizaciones']) expect(screen.getAllByText(label).length).toBeGreaterThan(0);
    expect(total('activeUsers')).toBe('1,500');
    expect(total('newUsers')).toBe('42');
    expect(total('totalVotes')).toBe('22,432');
    expect(total('pageViews')).toBe('138,001');
    expect(screen.getByTestId('report-updated').textContent).toContain('Actualizado hace 5 min');

    expect(screen.getByRole('img').getAttribute('aria-label')).toContain('22,432 votos');
    const table = screen.getByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Fecha', 'Usuarios Activos', 'Usuarios Nuevos', 'Total Votos', 'Visualizaciones']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent))).toEqual([
      ['mar 24 nov 2026', '1,200', '30', '15,432', '98,001'],
      ['lun 23 nov 2026', '800', '12', '7,000', '40,000'],
    ]);
    expect(requestsOf(fetchMock)).toEqual(['GET /api/admin/reports?period=week']);
  });

  it('asks for the period of the pressed button', async () => {
    const fetchMock = stubApi(
      Object.fromEntries(
        ['week', 'today', 'yesterday', 'month', '3months', '6months'].map((p) => [
          `GET /api/admin/reports?period=${p}`,
          () => jsonResponse(200, buildReport()),
        ]),
      ),
    );
    const user = userEvent.setup();
    renderPage();
    await screen.findByTestId('report-total-activeUsers');
    for (const name of ['Hoy', 'Ayer', 'Este mes', 'Últimos 3 meses', 'Últimos 6 meses']) {
      await user.click(screen.getByRole('button', { name }));
      expect(screen.getByRole('button', { name }).getAttribute('aria-pressed')).toBe('true');
      await screen.findByTestId('report-total-activeUsers');
    }
    expect(requestsOf(fetchMock)).toEqual([
      'GET /api/admin/reports?period=week',
      'GET /api/admin/reports?period=today',
      'GET /api/admin/reports?period=yesterday',
      'GET /api/admin/reports?period=month',
      'GET /api/admin/reports?period=3months',
      'GET /api/admin/reports?period=6months',
    ]);
  });

  it('asks for a custom range only once both dates are valid and applied', async () => {
    const custom = buildReport({ days: [day('2026-11-02', { totalVotes: 3 }), day('2026-11-01', { totalVotes: 1 })] });
    const fetchMock = stubApi({
      'GET /api/admin/reports?period=week': () => jsonResponse(200, buildReport()),
      'GET /api/admin/reports?period=custom&from=2026-11-01&to=2026-11-02': () => jsonResponse(200, custom),
    });
    const user = userEvent.setup();
    renderPage();
    await screen.findByTestId('report-total-activeUsers');
    await user.click(screen.getByRole('button', { name: 'Rango personalizado' }));
    expect(screen.getByText('Elige las fechas Desde y Hasta y pulsa Aplicar.')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Aplicar' }));
    expect(screen.getAllByText(REPORT_MESSAGES.customDatesRequired).length).toBeGreaterThan(0);
    expect(screen.getByLabelText(/Desde/).getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(screen.getByLabelText(/Desde/));

    await user.type(screen.getByLabelText(/Desde/), '2026-11-03');
    await user.type(screen.getByLabelText(/Hasta/), '2026-11-02');
    await user.click(screen.getByRole('button', { name: 'Aplicar' }));
    expect(screen.getByRole('alert').textContent).toBe(REPORT_MESSAGES.customOrder);
    expect(requestsOf(fetchMock)).toEqual(['GET /api/admin/reports?period=week']);

    await user.clear(screen.getByLabelText(/Desde/));
    await user.type(screen.getByLabelText(/Desde/), '2026-11-01');
    await user.click(screen.getByRole('button', { name: 'Aplicar' }));
    expect(await screen.findByText('lun 2 nov 2026')).toBeTruthy();
    expect(requestsOf(fetchMock)).toEqual(['GET /api/admin/reports?period=week', 'GET /api/admin/reports?period=custom&from=2026-11-01&to=2026-11-02']);
  });

  it('exports what is shown as informe-{from}-{to}.csv', async () => {
    stubApi({ 'GET /api/admin/reports?period=week': () => jsonResponse(200, buildReport()) });
    const blobs: Blob[] = [];
    const createObjectURL = vi.fn((blob: Blob) => {
      blobs.push(blob);
      return 'blob:informe';
    });
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    let downloaded = '';
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      downloaded = this.download;
    });
    const user = userEvent.setup();
    renderPage();
    await screen.findByTestId('report-total-activeUsers');
    await user.click(screen.getByRole('button', { name: 'Exportar CSV' }));
    expect(click).toHaveBeenCalledTimes(1);
    expect(downloaded).toBe('informe-2026-11-23-2026-11-24.csv');
    const text = new TextDecoder().decode(await blobs[0]!.arrayBuffer());
    expect(text).toBe(reportCsv(buildReport().days).slice(1)); // TextDecoder drops the BOM it reads
    const bytes = new Uint8Array(await blobs[0]!.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  });

  it('says there is no data when every figure is zero, and when there are no days', async () => {
    let answer = buildReport({ totals: { activeUsers: 0, newUsers: 0, totalVotes: 0, pageViews: 0 }, days: [day('2026-11-24'), day('2026-11-23')] });
    stubApi({ 'GET /api/admin/reports?period=week': () => jsonResponse(200, answer) });
    const view = renderPage();
    expect(await screen.findByText(REPORT_MESSAGES.empty)).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
    expect((screen.getByRole('button', { name: 'Exportar CSV' }) as HTMLButtonElement).disabled).toBe(true);
    view.unmount();

    answer = buildReport({ days: [], updatedAt: null, totals: { activeUsers: 0, newUsers: 0, totalVotes: 0, pageViews: 0 } });
    renderPage();
    expect(await screen.findByText(REPORT_MESSAGES.empty)).toBeTruthy();
    expect(screen.getByTestId('report-updated').textContent).toContain('Sin datos calculados aún');
  });

  it('shows the server message or Error al cargar estadísticas, with Reintentar', async () => {
    let answer = () => apiError(500, 'Base de datos caída');
    stubApi({ 'GET /api/admin/reports?period=week': () => answer() });
    const user = userEvent.setup();
    const view = renderPage();
    expect((await screen.findByRole('alert')).textContent).toContain('Base de datos caída');
    view.unmount();

    answer = bareFailure;
    renderPage();
    expect((await screen.findByRole('alert')).textContent).toContain(REPORT_MESSAGES.loadFailed);
    answer = () => jsonResponse(200, buildReport());
    await user.click(screen.getByRole('button', { name: 'Reintentar' }));
    expect(await screen.findByTestId('report-total-totalVotes')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('Recalcular todo: Recalculando…, a notice, then the figures read again in place', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout'] });
    let votes = 22432;
    let release: () => void = () => {};
    const fetchMock = stubApi({
      'GET /api/admin/reports?period=week': () =>
        jsonResponse(200, buildReport({ totals: { activeUsers: 1500, newUsers: 42, totalVotes: votes, pageViews: 138001 } })),
      'POST /api/admin/reports/recompute': () =>
        new Promise<Response>((resolve) => {
          release = () => resolve(jsonResponse(202, { jobId: 'job-1' }));
        }),
    });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    renderPage();
    await screen.findByTestId('report-total-totalVotes');
    await user.click(screen.getByRole('button', { name: 'Recalcular todo' }));
    expect(screen.getByRole('button', { name: 'Recalculando…' })).toBeTruthy();
    votes = 30000;
    await act(async () => release());
    expect(await screen.findByText('Recálculo en marcha: las cifras se actualizarán en unos momentos.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Recalcular todo' })).toBeTruthy();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(RECOMPUTE_REFRESH_MS);
    });
    await vi.waitFor(() => expect(total('totalVotes')).toBe('30,000'));
    expect(requestsOf(fetchMock)).toEqual(['GET /api/admin/reports?period=week', 'POST /api/admin/reports/recompute', 'GET /api/admin/reports?period=week']);
  });
});
