import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ResultsSnapshot } from '@tribuna/contracts/live';
import { requestsOf, stubApi } from '../../test/apiStub';
import { FakeWebSocket } from '../../test/fakeWebSocket';
import { buildPoll, buildProfile, buildResults, jsonResponse } from '../../test/fixtures';
import { useSessionStore } from '../../lib/session/sessionStore';
import { useSiteStore } from '../../lib/siteStore';
import { HomePage } from './HomePage';

/** The first reconnect waits at most 500 ms (see backoffDelay). */
const BACKOFF_MAX_FIRST_MS = 500;

const poll = buildPoll();
const [carla, nadie] = poll.options.map((o) => o.id) as [string, string];
const results = buildResults(poll, [
  { votes: 1, points: 1, voters: [{ userId: 'u-luis', displayName: 'Luis', avatarUrl: null }] },
  { votes: 1, points: 1, voters: [{ userId: 'u-marta', displayName: 'Marta', avatarUrl: null }] },
]);

function snapshot(seq: number, carlaVotes: number, nadieVotes: number): ResultsSnapshot {
  return {
    type: 'results',
    topic: `poll:${poll.id}`,
    pollId: poll.id,
    seq,
    totalVotes: carlaVotes + nadieVotes,
    totalPoints: carlaVotes + nadieVotes,
    totalVoters: carlaVotes + nadieVotes,
    options: [
      { optionId: carla, totalVotes: carlaVotes, totalPoints: carlaVotes },
      { optionId: nadie, totalVotes: nadieVotes, totalPoints: nadieVotes },
    ],
    committedAt: Date.now(),
  };
}

function renderHome(path = '/') {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/" element={<HomePage />} />
      </Routes>
    </MemoryRouter>,
  );
}

const percentOf = (name: string) => screen.getByRole('progressbar', { name: `Porcentaje de ${name}` }).getAttribute('aria-valuetext');
/** Runs a socket event inside act(): it updates the store, which re-renders the page. */
const onSocket = (fn: () => void) => act(fn);

describe('live results on the home page', () => {
  beforeEach(() => {
    useSessionStore.setState({ user: null, status: 'ready' });
    useSiteStore.setState({ config: null, status: 'idle' });
    vi.spyOn(console, 'debug').mockImplementation(() => {});
  });

  it('subscribes to the poll, shows En vivo and applies snapshots to the percentages', async () => {
    stubApi({ 'GET /api/polls/home': () => jsonResponse(200, { poll, results }) });
    renderHome();
    await screen.findByRole('heading', { level: 1, name: poll.title });
    expect(percentOf('Carla Ruiz')).toBe('50%');
    expect(screen.getByText('Conectando…')).toBeTruthy();

    const socket = FakeWebSocket.last;
    expect(socket.url).toBe(`ws://${window.location.host}/ws`);
    onSocket(() => socket.open());
    expect(socket.sent).toEqual([{ type: 'subscribe', topic: `poll:${poll.id}` }]);
    expect(screen.getByText('En vivo')).toBeTruthy();

    onSocket(() => socket.receive(snapshot(10, 3, 1)));
    expect(percentOf('Carla Ruiz')).toBe('75%');
    expect(percentOf('Nadie')).toBe('25%');
    expect(screen.getByText('4 votos · 4 puntos · 4 votantes')).toBeTruthy();
    expect(screen.getByText('3 votos · 3 puntos')).toBeTruthy();

    // A stale snapshot (seq not above 10) is dropped.
    onSocket(() => socket.receive(snapshot(9, 0, 9)));
    expect(percentOf('Carla Ruiz')).toBe('75%');

    onSocket(() => socket.drop());
    expect(screen.getByText('Reconectando…')).toBeTruthy();
  });

  it('updates the open voters dialog of a signed-in reader as voters arrive and move', async () => {
    useSessionStore.setState({ user: buildProfile(), status: 'ready' });
    stubApi({ 'GET /api/polls/home': () => jsonResponse(200, { poll, results }) });
    const user = userEvent.setup();
    renderHome();
    await screen.findByRole('heading', { level: 1, name: poll.title });
    const socket = FakeWebSocket.last;
    onSocket(() => socket.open());

    await user.click(screen.getByRole('button', { name: 'Ver votantes de Carla Ruiz (1)' }));
    const dialog = screen.getByRole('dialog', { name: 'Votantes de Carla Ruiz' });
    expect(
      within(dialog)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual(['Luis']);

    onSocket(() =>
      socket.receive({
        type: 'voters',
        topic: `poll:${poll.id}`,
        pollId: poll.id,
        seq: 11,
        added: [{ optionId: carla, userId: 'u-marta', displayName: 'Marta', avatarUrl: null }],
        removed: [{ optionId: nadie, userId: 'u-marta' }],
      }),
    );
    expect(
      within(dialog)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual(['Marta', 'Luis']);

    onSocket(() =>
      socket.receive({
        type: 'voters',
        topic: `poll:${poll.id}`,
        pollId: poll.id,
        seq: 12,
        added: [],
        removed: [
          { optionId: carla, userId: 'u-luis' },
          { optionId: carla, userId: 'u-marta' },
        ],
      }),
    );
    expect(within(dialog).getByText('No hay votos aún')).toBeTruthy();
  });

  it('resyncs from the results endpoint after a reconnect', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const fetchMock = stubApi({
        'GET /api/polls/home': () => jsonResponse(200, { poll, results }),
        [`GET /api/polls/${poll.id}/results`]: () =>
          jsonResponse(200, {
            ...buildResults(poll, [
              { votes: 9, points: 9 },
              { votes: 1, points: 1 },
            ]),
            seq: 50,
          }),
      });
      renderHome();
      await screen.findByRole('heading', { level: 1, name: poll.title });
      onSocket(() => FakeWebSocket.last.open());
      onSocket(() => FakeWebSocket.last.drop());
      await act(async () => {
        await vi.advanceTimersByTimeAsync(BACKOFF_MAX_FIRST_MS);
      });
      expect(FakeWebSocket.instances).toHaveLength(2);
      onSocket(() => FakeWebSocket.last.open());
      expect(FakeWebSocket.last.sent).toEqual([{ type: 'subscribe', topic: `poll:${poll.id}` }]);
      await vi.waitFor(() => expect(percentOf('Carla Ruiz')).toBe('90%'));
      expect(requestsOf(fetchMock)).toContain(`GET /api/polls/${poll.id}/results`);
      expect(screen.getByText('En vivo')).toBeTruthy();
    } finally {
      vi.useRealTimers();
    }
  });

  it('announces live result changes politely, at most once every 5 seconds, the latest one', async () => {
    stubApi({ 'GET /api/polls/home': () => jsonResponse(200, { poll, results }) });
    renderHome();
    await screen.findByRole('heading', { level: 1, name: poll.title });
    // From here only the fake clock moves: however slowly the test runs, the 5 s window ends when
    // the test says, not when the machine gets there (shouldAdvanceTime would add the real time).
    vi.useFakeTimers();
    try {
      const region = screen.getByTestId('live-results-announcer');
      expect(region.getAttribute('aria-live')).toBe('polite');
      const socket = FakeWebSocket.last;
      onSocket(() => socket.open());
      // What the page showed on arrival is not announced.
      expect(region.textContent).toBe('');

      onSocket(() => socket.receive(snapshot(10, 3, 1)));
      expect(region.textContent).toMatch(/^Resultados actualizados: Carla Ruiz 75\s?%, Nadie 25\s?%\. 4 votos\.$/);

      // A burst of snapshots within the interval: nothing more is said until the 5 seconds pass…
      onSocket(() => socket.receive(snapshot(11, 4, 1)));
      onSocket(() => socket.receive(snapshot(12, 5, 5)));
      onSocket(() => socket.receive(snapshot(13, 1, 3)));
      expect(percentOf('Carla Ruiz')).toBe('25%');
      await act(async () => {
        await vi.advanceTimersByTimeAsync(4_000);
      });
      expect(region.textContent).toMatch(/Carla Ruiz 75\s?%/);
      // …then only the latest results are announced.
      await act(async () => {
        await vi.advanceTimersByTimeAsync(1_100);
      });
      expect(region.textContent).toMatch(/^Resultados actualizados: Carla Ruiz 25\s?%, Nadie 75\s?%\. 4 votos\.$/);

      // Quiet for the interval, the next change is announced at once.
      await act(async () => {
        await vi.advanceTimersByTimeAsync(6_000);
      });
      onSocket(() => socket.receive(snapshot(14, 2, 2)));
      expect(region.textContent).toMatch(/Carla Ruiz 50\s?%, Nadie 50\s?%/);
    } finally {
      vi.useRealTimers();
    }
  });

  it('loads the shared poll of a ?encuesta= link', async () => {
    const fetchMock = stubApi({ [`GET /api/polls/home?encuesta=${poll.id}`]: () => jsonResponse(200, { poll, results }) });
    renderHome(`/?encuesta=${poll.id}`);
    expect(await screen.findByRole('heading', { level: 1, name: poll.title })).toBeTruthy();
    expect(requestsOf(fetchMock)).toContain(`GET /api/polls/home?encuesta=${poll.id}`);
  });
});
