import { beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import type { HomePollResponse } from '@tribuna/contracts/api/polls';
import { useSessionStore } from '../../lib/session/sessionStore';
import { useSiteStore } from '../../lib/siteStore';
import { buildPoll, buildProfile, buildResults, jsonResponse } from '../../test/fixtures';
import { HomePage } from './HomePage';
import { useLiveResultsStore } from './liveResultsStore';

const poll = buildPoll({ description: 'La gala del domingo' });
const voters = [
  { userId: '10000000-0000-4000-8000-000000000001', displayName: 'Luis', avatarUrl: null },
  { userId: '10000000-0000-4000-8000-000000000002', displayName: 'Marta', avatarUrl: 'https://img.example/m.png' },
];
const results = buildResults(poll, [
  { votes: 2, points: 2, voters },
  { votes: 0, points: 0 },
]);

/** Answers /api/polls/home with each given response in turn (the last one repeats). */
function serveHome(...responses: Array<HomePollResponse | number>) {
  const queue = [...responses];
  const fetchMock = vi.fn(async (path: string) => {
    if (!path.startsWith('/api/polls/home')) return jsonResponse(404, { statusCode: 404, error: 'Not Found', message: 'Not Found' });
    const next = queue.length > 1 ? queue.shift() : queue[0];
    return typeof next === 'number' ? jsonResponse(next, { statusCode: next, error: 'Error', message: 'boom' }) : jsonResponse(200, next);
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function renderHome() {
  return render(
    <MemoryRouter initialEntries={['/']}>
      <Routes>
        <Route path="/" element={<HomePage />} />
        <Route path="/login" element={<p>login page</p>} />
      </Routes>
    </MemoryRouter>,
  );
}

describe('HomePage', () => {
  beforeEach(() => {
    useSessionStore.setState({ user: null, status: 'ready' });
    useSiteStore.setState({ config: null, status: 'idle' });
    vi.spyOn(console, 'debug').mockImplementation(() => {});
  });

  it('shows a loading state, then the poll with its results', async () => {
    const fetchMock = serveHome({ poll, results });
    renderHome();
    expect(screen.getByRole('status').textContent).toContain('Cargando encuesta');

    expect(await screen.findByRole('heading', { level: 1, name: poll.title })).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledWith('/api/polls/home', expect.objectContaining({ method: 'GET' }));
    expect(screen.getByText('La Casa · Temporada 3 (2025)')).toBeTruthy();
    expect(screen.getByText('La gala del domingo')).toBeTruthy();
    expect(screen.getByText('Activa')).toBeTruthy();
    expect(screen.getByText('2 votos · 2 puntos · 2 votantes')).toBeTruthy();

    const carla = screen.getByRole('progressbar', { name: 'Porcentaje de Carla Ruiz' });
    expect(carla.getAttribute('aria-valuetext')).toBe('100%');
    expect(screen.getByRole('progressbar', { name: 'Porcentaje de Nadie' }).getAttribute('aria-valuetext')).toBe('0%');
    // No end date: no countdown.
    expect(screen.queryByRole('timer')).toBeNull();
  });

  it('shows the spec error with a working retry', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    serveHome(500, { poll, results });
    const user = userEvent.setup();
    renderHome();

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Error loading polls');

    await user.click(within(alert).getByRole('button', { name: 'Reintentar' }));
    expect(await screen.findByRole('heading', { level: 1, name: poll.title })).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says when there is no active poll', async () => {
    serveHome({ poll: null, results: null });
    renderHome();
    expect(await screen.findByText('No hay encuestas activas')).toBeTruthy();
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('lists the voters of an option (names, no points) to a signed-in reader in a dialog that Escape closes', async () => {
    useSessionStore.setState({ user: buildProfile(), status: 'ready' });
    serveHome({ poll, results });
    const user = userEvent.setup();
    renderHome();

    await user.click(await screen.findByRole('button', { name: 'Ver votantes de Carla Ruiz (2)' }));
    const dialog = screen.getByRole('dialog', { name: 'Votantes de Carla Ruiz' });
    const names = within(dialog)
      .getAllByRole('link')
      .map((link) => [link.textContent, link.getAttribute('href')]);
    expect(names).toEqual([
      ['Luis', `/perfil/${voters[0]!.userId}`],
      ['Marta', `/perfil/${voters[1]!.userId}`],
    ]);
    expect(within(dialog).queryByText(/punto/)).toBeNull();

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Ver votantes de Nadie (0)' }));
    expect(within(screen.getByRole('dialog', { name: 'Votantes de Nadie' })).getByText('No hay votos aún')).toBeTruthy();
  });

  it('shows a visitor how many voted for an option, not who, and invites them to sign in', async () => {
    serveHome({
      poll,
      results: buildResults(
        poll,
        [
          { votes: 2, points: 2, totalVoters: 2 },
          { votes: 0, points: 0 },
        ],
        false,
      ),
    });
    const user = userEvent.setup();
    renderHome();

    await user.click(await screen.findByRole('button', { name: 'Ver votantes de Carla Ruiz (2)' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Votantes de Carla Ruiz' }));
    expect(dialog.getByText('2 votantes')).toBeTruthy();
    expect(dialog.queryByText('Luis')).toBeNull();
    await user.click(dialog.getByRole('link', { name: 'Inicia sesión para ver quién votó' }));
    expect(screen.getByText('login page')).toBeTruthy();
  });

  it('invites visitors to sign in to vote', async () => {
    serveHome({ poll, results });
    const user = userEvent.setup();
    renderHome();

    await user.click(await screen.findByRole('link', { name: 'Inicia sesión para votar' }));
    expect(screen.getByText('login page')).toBeTruthy();
  });

  it('shows no sign-in invitation to signed-in users, nor on a closed poll', async () => {
    useSessionStore.setState({ user: buildProfile(), status: 'ready' });
    serveHome({ poll, results });
    renderHome();
    await screen.findByRole('heading', { level: 1, name: poll.title });
    expect(screen.queryByRole('link', { name: 'Inicia sesión para votar' })).toBeNull();
  });

  it('shows a closed poll as Cerrada without the invitation', async () => {
    serveHome({ poll: { ...poll, status: 'closed' }, results });
    renderHome();
    expect(await screen.findByText('Cerrada')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Inicia sesión para votar' })).toBeNull();
  });

  it('shows a featured closed poll (after an elimination) with Votación cerrada and its final results, no vote form', async () => {
    const closedAt = '2025-01-12T03:00:00.000Z';
    const featuredClosed = { ...poll, status: 'closed' as const, isFeatured: true, endDate: closedAt };
    serveHome({ poll: featuredClosed, results });
    renderHome();

    expect(await screen.findByRole('heading', { level: 1, name: poll.title })).toBeTruthy();
    expect(screen.getByText('Cerrada')).toBeTruthy();
    expect(screen.getByText('Votación cerrada')).toBeTruthy();
    expect(screen.getByText(/^Votación cerrada el /)).toBeTruthy();
    // The final results, without the live marker nor the countdown.
    expect(screen.getByRole('heading', { level: 2, name: 'Resultados finales' })).toBeTruthy();
    expect(screen.getByText('2 votos · 2 puntos · 2 votantes')).toBeTruthy();
    expect(screen.getByRole('progressbar', { name: 'Porcentaje de Carla Ruiz' }).getAttribute('aria-valuetext')).toBe('100%');
    expect(screen.getByRole('progressbar', { name: 'Porcentaje de Nadie' }).getAttribute('aria-valuetext')).toBe('0%');
    expect(screen.queryByText('En vivo')).toBeNull();
    expect(screen.queryByRole('timer')).toBeNull();
    // Nothing to vote with, and no invitation to sign in to vote.
    expect(screen.queryByRole('region', { name: 'Votar' })).toBeNull();
    expect(screen.queryByRole('radio')).toBeNull();
    expect(screen.queryByRole('link', { name: 'Inicia sesión para votar' })).toBeNull();
    // The voters stay one tap away.
    expect(screen.getByRole('button', { name: 'Ver votantes de Carla Ruiz (2)' })).toBeTruthy();
  });

  it('loads the home poll again when the poll shown stops being the featured one (another was featured)', async () => {
    const featured = { ...poll, isFeatured: true };
    const next = buildPoll({ id: '20000000-0000-4000-8000-000000000009', title: 'La nueva encuesta principal', isFeatured: true });
    useLiveResultsStore.setState({ statuses: {} });
    const fetchMock = serveHome(
      { poll: featured, results },
      {
        poll: next,
        results: buildResults(next, [
          { votes: 0, points: 0 },
          { votes: 0, points: 0 },
        ]),
      },
    );
    const homeLoads = () => fetchMock.mock.calls.filter(([path]) => path.startsWith('/api/polls/home')).length;
    renderHome();
    await screen.findByRole('heading', { level: 1, name: poll.title });
    expect(homeLoads()).toBe(1);

    // The poll is closed while still featured: shown closed, not replaced.
    act(() =>
      useLiveResultsStore.getState().applyPollStatus({ type: 'poll-status', topic: `poll:${poll.id}`, pollId: poll.id, status: 'closed', isFeatured: true }),
    );
    expect(homeLoads()).toBe(1);
    act(() =>
      useLiveResultsStore.getState().applyPollStatus({ type: 'poll-status', topic: `poll:${poll.id}`, pollId: poll.id, status: 'closed', isFeatured: false }),
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'La nueva encuesta principal' })).toBeTruthy();
    expect(homeLoads()).toBe(2);
  });
});
