import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen, within } from '@testing-library/react';
import { PUSH_ADMIN_TEXTS } from '@tribuna/contracts/pushRules';
import type { PushBroadcastView } from '@tribuna/contracts/api/push';
import { requestsOf, stubApi } from '../../../test/apiStub';
import { jsonResponse } from '../../../test/fixtures';
import { BROADCAST_REFRESH_MS, PushBroadcasts } from './PushBroadcasts';

let sequence = 0;
function broadcast(overrides: Partial<PushBroadcastView> = {}): PushBroadcastView {
  return {
    id: `80000000-0000-4000-8000-${String(++sequence).padStart(12, '0')}`,
    kind: 'poll_opened',
    pollId: '90000000-0000-4000-8000-000000000001',
    pollTitle: 'Gala del domingo',
    status: 'done',
    total: 10,
    sent: 8,
    gone: 1,
    failed: 1,
    createdBy: 'admin',
    createdAt: '2026-03-01T12:00:00.000Z',
    finishedAt: '2026-03-01T12:00:05.000Z',
    ...overrides,
  };
}
const gets = (fetchMock: ReturnType<typeof stubApi>) => requestsOf(fetchMock).filter((r) => r === 'GET /api/admin/push/broadcasts').length;

describe('PushBroadcasts (queues screen)', () => {
  beforeEach(() => {
    vi.spyOn(console, 'debug').mockImplementation(() => {});
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('says when nothing was sent', async () => {
    stubApi({ 'GET /api/admin/push/broadcasts': () => jsonResponse(200, { items: [] }) });
    render(<PushBroadcasts />);
    expect(await screen.findByText(PUSH_ADMIN_TEXTS.broadcastsEmpty)).toBeTruthy();
    expect(screen.getByRole('region', { name: PUSH_ADMIN_TEXTS.broadcastsTitle })).toBeTruthy();
  });

  it('shows each broadcast with its progress, and reads again while one is sending, until it is done', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let current = broadcast({ status: 'sending', total: 500, sent: 120, gone: 3, failed: 2, finishedAt: null });
    const closing = broadcast({ kind: 'poll_closing', pollTitle: 'Nominados', createdBy: null });
    const fetchMock = stubApi({ 'GET /api/admin/push/broadcasts': () => jsonResponse(200, { items: [current, closing] }) });
    render(<PushBroadcasts />);
    const bar = await screen.findByRole('progressbar', { name: 'Progreso de Gala del domingo' });
    expect(bar.getAttribute('aria-valuenow')).toBe('125');
    expect(bar.getAttribute('aria-valuemax')).toBe('500');
    expect(bar.getAttribute('aria-valuetext')).toBe('125 de 500 dispositivos');
    const rows = within(screen.getByRole('list', { name: PUSH_ADMIN_TEXTS.broadcastsTitle })).getAllByRole('listitem');
    expect(rows[0]!.textContent).toContain('Enviando');
    expect(rows[0]!.textContent).toContain('Votación abierta');
    expect(rows[1]!.textContent).toContain('Cierra pronto');
    expect(rows[1]!.textContent).toContain('automática');
    expect(rows[1]!.textContent).toContain('Terminada');
    expect(gets(fetchMock)).toBe(1);

    current = { ...current, status: 'done', sent: 495, finishedAt: '2026-03-01T12:01:00.000Z' };
    await act(() => vi.advanceTimersByTimeAsync(BROADCAST_REFRESH_MS));
    expect(gets(fetchMock)).toBe(2);
    expect(screen.getByRole('progressbar', { name: 'Progreso de Gala del domingo' }).getAttribute('aria-valuenow')).toBe('500');
    // Nothing left going out: no more reads.
    await act(() => vi.advanceTimersByTimeAsync(BROADCAST_REFRESH_MS * 5));
    expect(gets(fetchMock)).toBe(2);
  });

  it('shows a queued broadcast whose devices are not listed yet as an indeterminate bar', async () => {
    stubApi({ 'GET /api/admin/push/broadcasts': () => jsonResponse(200, { items: [broadcast({ status: 'queued', total: 0, sent: 0, gone: 0, failed: 0 })] }) });
    render(<PushBroadcasts />);
    const bar = await screen.findByRole('progressbar');
    expect(bar.getAttribute('aria-valuenow')).toBeNull();
    expect(bar.getAttribute('aria-valuetext')).toBe('Preparando el envío');
  });
});
