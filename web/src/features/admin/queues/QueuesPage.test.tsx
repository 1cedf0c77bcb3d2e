import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QUEUE_MESSAGES } from '@tribuna/contracts/adminRules';
import type { QueueHealth } from '@tribuna/contracts/api/admin/queues';
import { requestsOf, stubApi as stubAllApi, type Handler } from '../../../test/apiStub';
import { jsonResponse } from '../../../test/fixtures';
import { apiError, bareFailure } from '../adminFixtures';
import { QueuesPage } from './QueuesPage';
import { QUEUE_REFRESH_MS } from './useQueueHealth';

function queue(overrides: Partial<QueueHealth> = {}): QueueHealth {
  return { name: 'maintenance', counts: { waiting: 3, active: 1, failed: 2, delayed: 4, completed: 1200 }, workers: 2, failures: [], ...overrides };
}
const failure = { id: '42', name: 'abuse.scan', failedReason: 'Connection refused', attemptsMade: 3, failedAt: '2025-03-02T15:30:00.000Z' };
/** The screen's push broadcasts section reads its own list (PushBroadcasts.test.tsx): none here. */
const stubApi = (handlers: Record<string, Handler>) => stubAllApi({ 'GET /api/admin/push/broadcasts': () => jsonResponse(200, { items: [] }), ...handlers });
const health = (queues: QueueHealth[]) => () => jsonResponse(200, { queues, checkedAt: '2025-03-02T15:31:00.000Z' });
const gets = (fetchMock: ReturnType<typeof stubApi>) => requestsOf(fetchMock).filter((r) => r === 'GET /api/admin/queues').length;

function setVisibility(state: DocumentVisibilityState) {
  Object.defineProperty(document, 'visibilityState', { value: state, configurable: true });
  document.dispatchEvent(new Event('visibilitychange'));
}

describe('QueuesPage', () => {
  beforeEach(() => {
    vi.spyOn(console, 'debug').mockImplementation(() => {});
  });
  afterEach(() => {
    vi.useRealTimers();
    setVisibility('visible');
  });

  it('shows each queue with its counts, workers and latest failures, or that nothing failed', async () => {
    stubApi({
      'GET /api/admin/queues': health([
        queue({ failures: [failure] }),
        queue({ name: 'notifications', workers: 0, counts: { waiting: 0, active: 0, failed: 0, delayed: 0, completed: 5 } }),
      ]),
    });
    render(<QueuesPage />);
    expect(screen.getByText('Cargando colas…')).toBeTruthy();
    const maintenance = await screen.findByRole('region', { name: 'maintenance' });
    const figures = Array.from(maintenance.querySelectorAll('dt')).map((dt) => `${dt.textContent}=${dt.nextElementSibling?.textContent}`);
    expect(figures).toEqual(['En espera=3', 'Activos=1', 'Fallidos=2', 'Retrasados=4', `Completados=${(1200).toLocaleString('es')}`]);
    expect(within(maintenance).getByText('2 workers conectados')).toBeTruthy();
    const row = within(within(maintenance).getByRole('list', { name: 'Fallos de maintenance' })).getByRole('listitem');
    expect(row.textContent).toContain('abuse.scan');
    expect(row.textContent).toContain('#42');
    expect(row.textContent).toContain('3 intentos');
    expect(row.textContent).toContain('Connection refused');
    expect(row.querySelector('time')?.getAttribute('datetime')).toBe(failure.failedAt);

    const notifications = screen.getByRole('region', { name: 'notifications' });
    expect(within(notifications).getByText(QUEUE_MESSAGES.noFailures)).toBeTruthy();
    expect(within(notifications).getByText('0 workers conectados')).toBeTruthy();
  });

  it('reads again on Actualizar and every 10 s while the page is visible', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const fetchMock = stubApi({ 'GET /api/admin/queues': health([queue()]) });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    render(<QueuesPage />);
    await screen.findByRole('region', { name: 'maintenance' });
    expect(gets(fetchMock)).toBe(1);
    await user.click(screen.getByRole('button', { name: 'Actualizar' }));
    await waitFor(() => expect(gets(fetchMock)).toBe(2));

    await act(() => vi.advanceTimersByTimeAsync(QUEUE_REFRESH_MS));
    expect(gets(fetchMock)).toBe(3);
    // A hidden tab reads nothing, and reads at once when shown again.
    act(() => setVisibility('hidden'));
    await act(() => vi.advanceTimersByTimeAsync(QUEUE_REFRESH_MS * 3));
    expect(gets(fetchMock)).toBe(3);
    act(() => setVisibility('visible'));
    expect(gets(fetchMock)).toBe(4);
  });

  it('retries a failed job and reads the queues again; a refusal shows its message or the fallback', async () => {
    const retry = 'POST /api/admin/queues/maintenance/jobs/42/retry';
    let reply: () => Response = () => apiError(409, 'El trabajo ya no está en fallidos');
    const fetchMock = stubApi({ 'GET /api/admin/queues': health([queue({ failures: [failure] })]), [retry]: () => reply() });
    const user = userEvent.setup();
    render(<QueuesPage />);
    const button = await screen.findByRole('button', { name: 'Reintentar abuse.scan #42' });
    await user.click(button);
    expect((await screen.findByRole('alert')).textContent).toContain('El trabajo ya no está en fallidos');
    reply = bareFailure;
    await user.click(button);
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain(QUEUE_MESSAGES.retryFailed));
    expect(gets(fetchMock)).toBe(1);

    reply = () => jsonResponse(200, { id: '42', queue: 'maintenance' });
    await user.click(button);
    await waitFor(() => expect(gets(fetchMock)).toBe(2));
    expect(requestsOf(fetchMock).filter((r) => r === retry)).toHaveLength(3);
  });

  it('shows the load error with Reintentar', async () => {
    let fail = true;
    stubApi({ 'GET /api/admin/queues': () => (fail ? bareFailure() : health([queue()])()) });
    const user = userEvent.setup();
    render(<QueuesPage />);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(QUEUE_MESSAGES.loadFailed);
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Reintentar' }));
    expect(await screen.findByRole('region', { name: 'maintenance' })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
