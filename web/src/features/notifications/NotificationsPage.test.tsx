import { beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import type { NotificationEntry, NotificationPage } from '@tribuna/contracts/api/notifications';
import { MODERATION_MESSAGES } from '@tribuna/contracts/moderationRules';
import { NOTIFICATION_MESSAGES } from '@tribuna/contracts/notificationRules';
import { useSessionStore } from '../../lib/session/sessionStore';
import { NavBar } from '../../app/navigation/NavBar';
import { bodyOf, requestsOf, stubApi, type Handler } from '../../test/apiStub';
import { buildProfile, jsonResponse } from '../../test/fixtures';
import { spyLive } from '../../test/liveSpy';
import { pinClock } from '../../test/clock';
import { WALL_NOW, buildAuthor, wallId } from '../../test/wallFixtures';
import { NotificationsPage } from './NotificationsPage';
import { useUnreadStore } from './unreadStore';

const me = buildProfile({ id: '00000000-0000-4000-8000-0000000000cc' });
const minutesAgo = (n: number) => new Date(WALL_NOW - n * 60_000).toISOString();

let sequence = 0;
function buildEntry(overrides: Partial<NotificationEntry> = {}): NotificationEntry {
  return {
    id: `entry-${++sequence}`,
    type: 'post_comment',
    actor: buildAuthor({ displayName: 'Luis Pérez', username: 'luis' }),
    othersCount: 0,
    reactionTypes: [],
    postId: wallId(),
    commentId: null,
    excerpt: null,
    createdAt: minutesAgo(5),
    read: false,
    ...overrides,
  };
}

const page = (items: NotificationEntry[], nextCursor: string | null = null, unreadCount = items.filter((i) => !i.read).length): NotificationPage => ({
  items,
  nextCursor,
  unreadCount,
});

const serverError = () => jsonResponse(500, { statusCode: 500, error: 'Internal Server Error', message: 'boom' });
const readAnswer =
  (unreadCount = 0) =>
  () =>
    jsonResponse(200, { unreadCount });

function renderPage(handlers: Record<string, Handler>) {
  const fetchMock = stubApi(handlers);
  render(
    <MemoryRouter initialEntries={['/notificaciones']}>
      <NotificationsPage />
    </MemoryRouter>,
  );
  return fetchMock;
}

const entries = () => within(screen.getByRole('list', { name: 'Notificaciones' })).getAllByRole('listitem');

describe('NotificationsPage', () => {
  beforeEach(() => {
    useSessionStore.setState({ user: me, status: 'ready' });
    useUnreadStore.setState({ userId: me.id, count: 3, revision: 0, listVersion: 0 });
    vi.spyOn(console, 'debug').mockImplementation(() => {});
  });

  it('shows skeletons, then the entries newest first with avatar, sentence, excerpt, time and a link to the post', async () => {
    pinClock(WALL_NOW);
    const grouped = buildEntry({
      type: 'post_reaction',
      actor: buildAuthor({ displayName: 'Ana', avatarUrl: 'https://media.tribuna.test/ana.webp' }),
      othersCount: 3,
      reactionTypes: ['love'],
      excerpt: 'Qué gala la de anoche',
      createdAt: minutesAgo(2),
    });
    const reply = buildEntry({ type: 'comment_reply', actor: buildAuthor({ displayName: null, username: 'luis' }), createdAt: minutesAgo(120), read: true });
    const gone = buildEntry({
      type: 'comment_mention',
      actor: buildAuthor({ displayName: 'Usuario eliminado', username: null }),
      createdAt: minutesAgo(3 * 24 * 60),
      read: true,
    });
    const nameless = buildEntry({
      type: 'post_mention',
      actor: buildAuthor({ displayName: null, username: null }),
      createdAt: minutesAgo(4 * 24 * 60),
      read: true,
    });
    renderPage({ 'GET /api/notifications': () => jsonResponse(200, page([grouped, reply, gone, nameless])), 'POST /api/notifications/read': readAnswer() });

    expect(screen.getByRole('heading', { level: 1, name: 'Notificaciones' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toContain('Cargando notificaciones');
    await screen.findByRole('list', { name: 'Notificaciones' });

    const [first, second, third, fourth] = entries();
    expect(first!.textContent).toContain('A Ana y 3 personas más les encanta tu publicación');
    expect(first!.textContent).toContain('“Qué gala la de anoche”');
    expect(within(first!).getByText('No leída')).toBeTruthy();
    expect(first!.querySelector('img')?.getAttribute('src')).toBe('https://media.tribuna.test/ana.webp');
    expect(within(first!).getByRole('link').getAttribute('href')).toBe(`/wall?post=${grouped.postId}`);
    const time = first!.querySelector('time');
    expect(time?.getAttribute('dateTime')).toBe(grouped.createdAt);
    expect(time?.textContent).toBe('hace 2 minutos');

    expect(second!.textContent).toContain('luis respondió a tu comentario');
    expect(second!.querySelector('time')?.textContent).toBe('hace 2 horas');
    expect(within(second!).queryByText('No leída')).toBeNull();
    expect(third!.textContent).toContain('Usuario eliminado te mencionó en un comentario');
    expect(third!.querySelector('time')?.textContent).toBe('hace 3 días');
    expect(fourth!.textContent).toContain('Usuario te mencionó en una publicación');
  });

  it("shows a follow as 'X empezó a seguirte', leading to the follower's profile", async () => {
    const follower = buildAuthor({ displayName: 'Carla Ruiz', username: 'carla' });
    const follow = buildEntry({ type: 'follow', actor: follower, postId: null, commentId: null, excerpt: null, read: true });
    renderPage({ 'GET /api/notifications': () => jsonResponse(200, page([follow])) });
    await screen.findByRole('list', { name: 'Notificaciones' });
    const [entry] = entries();
    expect(entry!.textContent).toContain('Carla Ruiz empezó a seguirte');
    expect(within(entry!).getByText('Carla Ruiz').tagName).toBe('STRONG');
    expect(entry!.textContent).not.toContain('“');
    expect(within(entry!).getByRole('link').getAttribute('href')).toBe(`/perfil/${follower.id}`);
  });

  it("shows a report's outcome without the moderator: no name, no avatar, no link", async () => {
    const moderator = buildAuthor({ displayName: 'Mod Marta', username: 'mod', avatarUrl: '/media/mod.webp' });
    const outcome = { actor: moderator, postId: null, commentId: null, excerpt: null, read: true };
    renderPage({
      'GET /api/notifications': () =>
        jsonResponse(200, page([buildEntry({ type: 'report_actioned', ...outcome }), buildEntry({ type: 'report_dismissed', ...outcome })])),
    });
    await screen.findByRole('list', { name: 'Notificaciones' });
    const [actioned, dismissed] = entries();
    expect(actioned!.textContent).toContain(MODERATION_MESSAGES.outcomeActioned);
    expect(dismissed!.textContent).toContain(MODERATION_MESSAGES.outcomeDismissed);
    for (const entry of [actioned!, dismissed!]) {
      expect(entry.textContent).not.toContain('Mod Marta');
      expect(entry.querySelector('img')).toBeNull();
      expect(within(entry).queryByRole('link')).toBeNull();
    }
  });

  it('marks what it shows as read, up to its newest entry, and the badge takes the answer', async () => {
    // The server's times carry microseconds: upTo must be that very string (a Date would cut it to
    // milliseconds, and the newest entry would stay unread).
    const newest = buildEntry({ createdAt: minutesAgo(1).replace('Z', '789Z') });
    const older = buildEntry({ createdAt: minutesAgo(10) });
    const fetchMock = renderPage({ 'GET /api/notifications': () => jsonResponse(200, page([newest, older])), 'POST /api/notifications/read': readAnswer(0) });
    await screen.findByRole('list', { name: 'Notificaciones' });
    await waitFor(() => expect(useUnreadStore.getState().count).toBe(0));
    expect(requestsOf(fetchMock)).toEqual(['GET /api/notifications', 'POST /api/notifications/read']);
    expect(bodyOf(fetchMock, 'POST /api/notifications/read')).toEqual({ upTo: newest.createdAt });
    // The entries keep their highlight for this visit.
    expect(screen.getAllByText('No leída')).toHaveLength(2);
  });

  it('marks nothing when nothing is unread', async () => {
    const fetchMock = renderPage({ 'GET /api/notifications': () => jsonResponse(200, page([buildEntry({ read: true })])) });
    await screen.findByRole('list', { name: 'Notificaciones' });
    expect(requestsOf(fetchMock)).toEqual(['GET /api/notifications']);
  });

  it('shows the empty state of the spec', async () => {
    const fetchMock = renderPage({ 'GET /api/notifications': () => jsonResponse(200, page([])) });
    expect(await screen.findByRole('heading', { name: NOTIFICATION_MESSAGES.empty })).toBeTruthy();
    expect(screen.getByText(/reaccione, comente o te mencione/)).toBeTruthy();
    expect(screen.queryByRole('list')).toBeNull();
    expect(requestsOf(fetchMock)).toEqual(['GET /api/notifications']);
  });

  it('shows the error with Reintentar, which loads again', async () => {
    let fail = true;
    renderPage({
      'GET /api/notifications': () => (fail ? serverError() : jsonResponse(200, page([buildEntry({ read: true })]))),
    });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Error al cargar las notificaciones');
    fail = false;
    await userEvent.setup().click(within(alert).getByRole('button', { name: 'Reintentar' }));
    expect(await screen.findByText('Luis Pérez')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("loads the next pages with 'Cargar más'", async () => {
    const a = buildEntry({ createdAt: minutesAgo(1), read: true });
    const b = buildEntry({ createdAt: minutesAgo(2), read: true });
    const c = buildEntry({ createdAt: minutesAgo(3), read: true, type: 'post_mention' });
    const fetchMock = renderPage({
      'GET /api/notifications': () => jsonResponse(200, page([a, b], 'c1')),
      'GET /api/notifications?cursor=c1': () => jsonResponse(200, page([b, c], null)),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Cargar más' }));
    await waitFor(() => expect(entries()).toHaveLength(3));
    expect(entries()[2]!.textContent).toContain('te mencionó en una publicación');
    expect(screen.queryByRole('button', { name: 'Cargar más' })).toBeNull();
    expect(requestsOf(fetchMock)).toEqual(['GET /api/notifications', 'GET /api/notifications?cursor=c1']);
  });

  it('offers Reintentar when a later page fails, keeping the entries shown', async () => {
    let fail = true;
    renderPage({
      'GET /api/notifications': () => jsonResponse(200, page([buildEntry({ read: true })], 'c1')),
      'GET /api/notifications?cursor=c1': () => (fail ? serverError() : jsonResponse(200, page([buildEntry({ read: true, createdAt: minutesAgo(9) })]))),
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Cargar más' }));
    const alert = await screen.findByRole('alert');
    expect(entries()).toHaveLength(1);
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Reintentar' }));
    await waitFor(() => expect(entries()).toHaveLength(2));
  });

  it('reloads the first page on a live change while open, keeping the later pages', async () => {
    const a = buildEntry({ createdAt: minutesAgo(10), read: true, excerpt: 'A' });
    const b = buildEntry({ createdAt: minutesAgo(20), read: true, excerpt: 'B' });
    const c = buildEntry({ createdAt: minutesAgo(30), read: true, excerpt: 'C' });
    const fresh = buildEntry({ createdAt: minutesAgo(0), type: 'comment_reaction', reactionTypes: ['haha'], excerpt: 'Nuevo' });
    let firstPage = page([a, b], 'c1');
    const fetchMock = stubApi({
      'GET /api/notifications/unread': () => jsonResponse(200, { unreadCount: 0 }),
      'GET /api/notifications': () => jsonResponse(200, firstPage),
      'GET /api/notifications?cursor=c1': () => jsonResponse(200, page([c])),
      'POST /api/notifications/read': readAnswer(0),
    });
    const live = spyLive();
    const user = userEvent.setup();
    render(
      <MemoryRouter initialEntries={['/notificaciones']}>
        <NavBar />
        <NotificationsPage />
      </MemoryRouter>,
    );
    await user.click(await screen.findByRole('button', { name: 'Cargar más' }));
    await waitFor(() => expect(entries()).toHaveLength(3));

    // A reaction arrives and one is taken back: the server's first page now starts with the new
    // entry, and a (newer than b) is gone.
    firstPage = page([fresh, b], 'c2');
    live.deliver({ type: 'notifications', topic: `user:${me.id}`, unreadCount: 1, reason: 'new' });
    await waitFor(() => expect(entries().map((e) => e.textContent?.match(/“(.*)”/)?.[1])).toEqual(['Nuevo', 'B', 'C']));
    expect(entries()[0]!.textContent).toContain('A Luis Pérez le divierte tu comentario');
    // What is now shown is read at once: the badge goes back to the server's count.
    await waitFor(() => expect(bodyOf(fetchMock, 'POST /api/notifications/read')).toEqual({ upTo: fresh.createdAt }));
    await waitFor(() => expect(useUnreadStore.getState().count).toBe(0));

    // A count read elsewhere changes nothing in the list.
    const before = requestsOf(fetchMock).length;
    live.deliver({ type: 'notifications', topic: `user:${me.id}`, unreadCount: 0, reason: 'read' });
    await act(async () => {});
    expect(requestsOf(fetchMock)).toHaveLength(before);
  });
});
