import { beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import type { NotificationsLiveMessage } from '@tribuna/contracts/api/notifications';
import { useSessionStore } from '../../lib/session/sessionStore';
import { useUnreadStore } from '../../features/notifications/unreadStore';
import { requestsOf, stubApi } from '../../test/apiStub';
import { FakeWebSocket } from '../../test/fakeWebSocket';
import { buildProfile, jsonResponse } from '../../test/fixtures';
import { spyLive } from '../../test/liveSpy';
import { NavBar } from './NavBar';

const me = buildProfile({ id: '00000000-0000-4000-8000-0000000000aa', displayName: 'Ana López' });
const topic = `user:${me.id}`;

const unread = (...counts: number[]) => {
  let call = 0;
  return stubApi({
    'GET /api/notifications/unread': () => jsonResponse(200, { unreadCount: counts[Math.min(call++, counts.length - 1)] }),
  });
};

const live = (unreadCount: number, reason: NotificationsLiveMessage['reason'] = 'new'): NotificationsLiveMessage => ({
  type: 'notifications',
  topic,
  unreadCount,
  reason,
});

function renderNav() {
  return render(
    <MemoryRouter initialEntries={['/']}>
      <NavBar />
    </MemoryRouter>,
  );
}

/** The notifications links go by these accessible names: the desktop bar's, then the mobile bar's. */
function expectLinkNames(desktop: string, mobile: string) {
  expect(within(screen.getByRole('banner')).getByRole('link', { name: desktop }).getAttribute('href')).toBe('/notificaciones');
  const mobileBar = screen.getAllByRole('navigation', { name: 'Navegación principal' }).find((bar) => !bar.closest('header'));
  expect(within(mobileBar!).getByRole('link', { name: mobile }).getAttribute('href')).toBe('/notificaciones');
}
const badges = () => screen.queryAllByTestId('unread-badge').map((badge) => badge.textContent);

describe('the unread badge on Avisos and Notificaciones', () => {
  beforeEach(() => {
    useSessionStore.setState({ user: me, status: 'ready' });
    useUnreadStore.setState({ userId: null, count: 0, revision: 0, listVersion: 0 });
    vi.spyOn(console, 'debug').mockImplementation(() => {});
  });

  it('shows the count read on sign-in, with the count in the links’ names', async () => {
    const fetchMock = unread(3);
    renderNav();
    await waitFor(() => expect(badges()).toEqual(['3', '3']));
    expectLinkNames('Notificaciones, 3 sin leer', 'Avisos, 3 sin leer');
    expect(requestsOf(fetchMock)).toEqual(['GET /api/notifications/unread']);
  });

  it('shows no badge at 0, and plain names', async () => {
    const fetchMock = unread(0);
    renderNav();
    await waitFor(() => expect(requestsOf(fetchMock)).toEqual(['GET /api/notifications/unread']));
    expect(badges()).toEqual([]);
    expectLinkNames('Notificaciones', 'Avisos');
  });

  it("shows '9+' above 9, while the name keeps the exact count", async () => {
    unread(12);
    renderNav();
    await waitFor(() => expect(badges()).toEqual(['9+', '9+']));
    expectLinkNames('Notificaciones, 12 sin leer', 'Avisos, 12 sin leer');
  });

  it("watches the user's own topic and follows the live count, up and down to nothing", async () => {
    unread(1);
    const spy = spyLive();
    renderNav();
    await waitFor(() => expect(badges()).toEqual(['1', '1']));
    expect(spy.topics()).toEqual([topic]);

    spy.deliver(live(2));
    expect(badges()).toEqual(['2', '2']);
    expectLinkNames('Notificaciones, 2 sin leer', 'Avisos, 2 sin leer');

    // Read on another tab: the same topic says so.
    spy.deliver(live(0, 'read'));
    expect(badges()).toEqual([]);
    expectLinkNames('Notificaciones', 'Avisos');
  });

  it('reads the count again after a reconnect (messages may have been lost)', async () => {
    const fetchMock = unread(1, 4);
    const spy = spyLive();
    renderNav();
    await waitFor(() => expect(badges()).toEqual(['1', '1']));
    await spy.resync(topic);
    expect(badges()).toEqual(['4', '4']);
    expect(requestsOf(fetchMock)).toEqual(['GET /api/notifications/unread', 'GET /api/notifications/unread']);
  });

  it('keeps a live count that arrives while the first read is still on its way', async () => {
    let answer: (response: Response) => void = () => {};
    stubApi({ 'GET /api/notifications/unread': () => new Promise<Response>((resolve) => (answer = resolve)) });
    const spy = spyLive();
    renderNav();
    spy.deliver(live(5));
    await act(async () => answer(jsonResponse(200, { unreadCount: 4 })));
    expect(badges()).toEqual(['5', '5']);
  });

  it('gets its messages through the one live connection', async () => {
    unread(0);
    renderNav();
    const socket = FakeWebSocket.last;
    act(() => socket.open());
    expect(socket.sent).toContainEqual({ type: 'subscribe', topic });
    act(() => socket.receive(live(7)));
    expect(badges()).toEqual(['7', '7']);
    // Another user's topic never changes this badge.
    act(() => socket.receive({ ...live(9), topic: 'user:00000000-0000-4000-8000-0000000000bb' }));
    expect(badges()).toEqual(['7', '7']);
  });

  it('neither loads nor watches anything signed out, and forgets the count on sign-out', async () => {
    unread(3);
    const spy = spyLive();
    renderNav();
    await waitFor(() => expect(badges()).toEqual(['3', '3']));
    act(() => useSessionStore.setState({ user: null }));
    expect(spy.topics()).toEqual([]);
    expect(useUnreadStore.getState().count).toBe(0);
  });
});
