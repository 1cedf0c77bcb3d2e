import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import type { AdminDashboardMessage } from '@tribuna/contracts/api/admin/polls';
import { ADMIN_MESSAGES } from '@tribuna/contracts/adminRules';
import { stubApi, requestsOf } from '../../../test/apiStub';
import { jsonResponse } from '../../../test/fixtures';
import { spyLive } from '../../../test/liveSpy';
import { apiError, bareFailure, buildActivity, buildDashboard, buildRecentPoll } from '../adminFixtures';
import { activityTime } from './activityTime';
import { DashboardPage } from './DashboardPage';

const NOW = new Date('2025-06-15T12:00:00.000Z').getTime();
const ago = (ms: number) => new Date(NOW - ms).toISOString();
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

function renderDashboard() {
  return render(
    <MemoryRouter initialEntries={['/admin']}>
      <DashboardPage />
    </MemoryRouter>,
  );
}

const counter = (key: string) => screen.getByTestId(`counter-${key}`).textContent;

describe('activityTime', () => {
  it.each([
    [0, 'Hace 0 min'],
    [5 * MIN + 30_000, 'Hace 5 min'],
    [59 * MIN, 'Hace 59 min'],
    [60 * MIN, 'Hace 1h'],
    [23 * HOUR + 59 * MIN, 'Hace 23h'],
    [DAY, 'Hace 1d'],
    [6 * DAY + 23 * HOUR, 'Hace 6d'],
  ])('%i ms ago reads %s', (elapsed, expected) => {
    expect(activityTime(ago(elapsed), NOW)).toBe(expected);
  });

  it('shows a short Spanish date from 7 days on', () => {
    expect(activityTime('2025-06-08T12:00:00.000Z', NOW)).toMatch(/^8 jun 2025$/);
    expect(activityTime('2025-01-05T12:00:00.000Z', NOW)).toMatch(/^5 ene 2025$/);
  });

  it('treats a time slightly in the future (clock skew) as just now', () => {
    expect(activityTime(new Date(NOW + 30_000).toISOString(), NOW)).toBe('Hace 0 min');
  });
});

describe('DashboardPage', () => {
  let live: ReturnType<typeof spyLive>;
  beforeEach(() => {
    live = spyLive();
    vi.spyOn(Date, 'now').mockReturnValue(NOW);
  });
  afterEach(() => vi.useRealTimers());

  it('shows skeletons, then the four counters, quick actions, recent polls and activity', async () => {
    stubApi({
      'GET /api/admin/dashboard': () =>
        jsonResponse(
          200,
          buildDashboard({
            stats: { activePolls: 3, totalVotes: 1234567, totalUsers: 89, pageViews24h: 4321 },
            recentPolls: [
              buildRecentPoll({ title: 'Gala 1', status: 'active', voteCount: 15000 }),
              buildRecentPoll({ title: 'Borrador X', status: 'draft', voteCount: 0 }),
              buildRecentPoll({ title: 'Final', status: 'closed', voteCount: 1 }),
              buildRecentPoll({ title: 'Rara', status: 'archived', voteCount: 7 }),
            ],
            recentActivity: [
              buildActivity({ type: 'vote', description: 'Ana votó en Gala 1', createdAt: ago(5 * MIN) }),
              buildActivity({ type: 'user', description: 'Nuevo usuario: luis', createdAt: ago(3 * HOUR) }),
              buildActivity({ type: 'poll', description: 'Encuesta creada: Final', createdAt: ago(2 * DAY) }),
              buildActivity({ type: 'vote', description: 'Voto antiguo', createdAt: '2025-05-01T12:00:00.000Z' }),
            ],
          }),
        ),
    });
    renderDashboard();
    expect(screen.getByRole('heading', { level: 2, name: 'Dashboard' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('Cargando datos del dashboard…');
    expect(document.querySelectorAll('.animate-pulse').length).toBeGreaterThan(0);

    expect(await screen.findByText('Gala 1')).toBeTruthy();
    for (const label of ['Encuestas Activas', 'Total Votos', 'Usuarios', 'Vistas 24h']) expect(screen.getByText(label)).toBeTruthy();
    expect(counter('activePolls')).toBe('3');
    expect(counter('totalVotes')).toBe('1.234.567');
    expect(counter('totalUsers')).toBe('89');
    expect(counter('pageViews24h')).toBe('4321');

    const actions = ['Nueva encuesta', 'Nuevo concursante', 'Nueva temporada'].map((name) => screen.getByRole('link', { name }).getAttribute('href'));
    expect(actions).toEqual(['/admin/encuestas?nuevo=1', '/admin/concursantes?nuevo=1', '/admin/temporadas?nuevo=1']);

    const polls = within(screen.getByRole('list', { name: 'Encuestas recientes' })).getAllByRole('listitem');
    expect(polls.map((li) => li.textContent)).toEqual([
      'Gala 115.000 votosActiva',
      'Borrador X0 votosBorrador',
      'Final1 votoFinalizada',
      'Rara7 votosSin estado',
    ]);

    const activity = within(screen.getByRole('list', { name: 'Actividad reciente' })).getAllByRole('listitem');
    expect(activity.map((li) => li.getAttribute('data-activity-type'))).toEqual(['vote', 'user', 'poll', 'vote']);
    expect(activity.map((li) => li.querySelector('time')?.textContent)).toEqual(['Hace 5 min', 'Hace 3h', 'Hace 2d', '1 may 2025']);
    expect(within(activity[1]!).getByText('Usuario')).toBeTruthy();
  });

  it('keeps to 5 recent polls and 10 activities', async () => {
    stubApi({
      'GET /api/admin/dashboard': () =>
        jsonResponse(
          200,
          buildDashboard({
            recentPolls: Array.from({ length: 7 }, (_, i) => buildRecentPoll({ title: `Encuesta ${i}` })),
            recentActivity: Array.from({ length: 12 }, (_, i) => buildActivity({ description: `Actividad ${i}`, createdAt: ago(i * MIN) })),
          }),
        ),
    });
    renderDashboard();
    await screen.findByText('Encuesta 0');
    expect(within(screen.getByRole('list', { name: 'Encuestas recientes' })).getAllByRole('listitem')).toHaveLength(5);
    expect(within(screen.getByRole('list', { name: 'Actividad reciente' })).getAllByRole('listitem')).toHaveLength(10);
  });

  it('applies the admin topic’s live messages to the counters and the activity, and leaves the topic on unmount', async () => {
    stubApi({
      'GET /api/admin/dashboard': () =>
        jsonResponse(
          200,
          buildDashboard({
            recentPolls: [buildRecentPoll({ title: 'Gala 1' })],
            recentActivity: [buildActivity({ description: 'Primero', createdAt: ago(10 * MIN) })],
          }),
        ),
    });
    const view = renderDashboard();
    await screen.findByText('Primero');
    expect(live.topics()).toEqual(['admin']);

    const message: AdminDashboardMessage = {
      type: 'admin-dashboard',
      topic: 'admin',
      stats: { activePolls: 4, totalVotes: 20000, totalUsers: 322, pageViews24h: 46 },
      recentActivity: [
        buildActivity({ type: 'user', description: 'Nuevo usuario: eva', createdAt: ago(0) }),
        buildActivity({ description: 'Primero', createdAt: ago(10 * MIN) }),
      ],
    };
    live.deliver(message);
    expect(counter('activePolls')).toBe('4');
    expect(counter('totalVotes')).toBe('20.000');
    expect(counter('totalUsers')).toBe('322');
    expect(counter('pageViews24h')).toBe('46');
    expect(screen.getByText('Nuevo usuario: eva')).toBeTruthy();
    // The recent polls stay as loaded.
    expect(screen.getByText('Gala 1')).toBeTruthy();

    view.unmount();
    expect(live.topics()).toEqual([]);
  });

  it('reads the dashboard again after the live connection was lost', async () => {
    let calls = 0;
    const fetchMock = stubApi({
      'GET /api/admin/dashboard': () => {
        calls += 1;
        return jsonResponse(200, buildDashboard({ stats: { activePolls: calls, totalVotes: 0, totalUsers: 0, pageViews24h: 0 } }));
      },
    });
    renderDashboard();
    await screen.findByText('Encuestas Activas');
    await live.resync('admin');
    await vi.waitFor(() => expect(counter('activePolls')).toBe('2'));
    expect(requestsOf(fetchMock)).toEqual(['GET /api/admin/dashboard', 'GET /api/admin/dashboard']);
  });

  it('shows the server message, or the fallback, in a red banner and retries', async () => {
    let answer = () => apiError(503, 'Servicio no disponible');
    stubApi({ 'GET /api/admin/dashboard': () => answer() });
    const user = userEvent.setup();
    const view = renderDashboard();
    expect((await screen.findByRole('alert')).textContent).toContain('Servicio no disponible');
    view.unmount();

    answer = bareFailure;
    renderDashboard();
    expect((await screen.findByRole('alert')).textContent).toContain(ADMIN_MESSAGES.loadDashboardFailed);

    answer = () => jsonResponse(200, buildDashboard());
    await user.click(screen.getByRole('button', { name: 'Reintentar' }));
    expect(await screen.findByTestId('counter-totalVotes')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
