import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RouterProvider, createMemoryRouter } from 'react-router-dom';
import type { AvailablePoints, MyVotesResponse } from '@tribuna/contracts/api/votes';
import type { Poll } from '@tribuna/contracts/api/polls';
import { bodyOf, requestsOf, stubApi, type Handler } from '../../test/apiStub';
import { buildPoll, buildProfile, buildResults, jsonResponse } from '../../test/fixtures';
import { useSessionStore } from '../../lib/session/sessionStore';
import { useLiveResultsStore } from './liveResultsStore';
import { FINGERPRINT_PATTERN } from './deviceFingerprint';
import { PollCard } from './PollCard';

const singlePoll = buildPoll();
const pointsPoll = buildPoll({ pointsConfig: { pointsPerVote: 1, maxPointsPerUser: 10, dailyReset: true, bonusForSharing: 5 } });
const [carla, nadie] = singlePoll.options as [Poll['options'][number], Poll['options'][number]];
const [pCarla, pNadie] = pointsPoll.options as [Poll['options'][number], Poll['options'][number]];

function availablePoints(poll: Poll, overrides: Partial<AvailablePoints> = {}): AvailablePoints {
  const maxPoints = poll.pointsConfig.maxPointsPerUser;
  return { pollId: poll.id, maxPoints, spent: 0, available: maxPoints, dailyReset: poll.pointsConfig.dailyReset, resetsAt: null, ...overrides };
}

function myVotes(poll: Poll, votes: Array<{ optionId: string; points: number }>, overrides: Partial<AvailablePoints> = {}): MyVotesResponse {
  return {
    votes: votes.map((vote) => ({ ...vote, createdAt: '2025-01-05T12:00:00.000Z' })),
    availablePoints: availablePoints(poll, overrides),
  };
}

const errorBody = (status: number, message: string) => jsonResponse(status, { statusCode: status, error: 'Error', message });

function renderCard(poll: Poll) {
  const router = createMemoryRouter(
    [
      { path: '/', element: <PollCard poll={poll} results={buildResults(poll, [])} /> },
      { path: '/login', element: <p>login page</p> },
    ],
    { initialEntries: ['/'] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

const signIn = () => useSessionStore.setState({ user: buildProfile(), status: 'ready' });
const votePath = (poll: Poll) => `POST /api/polls/${poll.id}/votes`;
const myVotesPath = (poll: Poll) => `GET /api/polls/${poll.id}/my-votes`;

describe('vote form, single choice', () => {
  beforeEach(() => {
    useSessionStore.setState({ user: null, status: 'ready' });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.spyOn(console, 'debug').mockImplementation(() => {});
  });

  it('sends visitors who press Votar to /login', async () => {
    const fetchMock = stubApi({});
    const user = userEvent.setup();
    const router = renderCard(singlePoll);

    // The form is there for visitors too, next to the invitation.
    expect(screen.getByRole('link', { name: 'Inicia sesión para votar' })).toBeTruthy();
    await user.click(screen.getByRole('radio', { name: 'Carla Ruiz' }));
    await user.click(screen.getByRole('button', { name: 'Votar' }));

    expect(await screen.findByText('login page')).toBeTruthy();
    expect(router.state.location.state).toEqual({ from: `/?encuesta=${singlePoll.id}` });
    expect(requestsOf(fetchMock).some((r) => r.startsWith('POST'))).toBe(false);
  });

  it('asks to select an option when none is', async () => {
    signIn();
    const fetchMock = stubApi({ [myVotesPath(singlePoll)]: () => jsonResponse(200, myVotes(singlePoll, [])) });
    const user = userEvent.setup();
    renderCard(singlePoll);

    await user.click(await screen.findByRole('button', { name: 'Votar' }));
    expect(screen.getByRole('alert').textContent).toBe('Por favor selecciona una opción');
    expect(requestsOf(fetchMock)).not.toContain(votePath(singlePoll));
  });

  it('casts the vote, then shows success and the current choice, which can be changed', async () => {
    signIn();
    let current: MyVotesResponse = myVotes(singlePoll, []);
    const fetchMock = stubApi({
      [myVotesPath(singlePoll)]: () => jsonResponse(200, current),
      [votePath(singlePoll)]: (init) => {
        const { optionId } = JSON.parse(init.body as string) as { optionId: string };
        current = myVotes(singlePoll, [{ optionId, points: 1 }], { spent: 1, available: 0 });
        return jsonResponse(201, current);
      },
    });
    const user = userEvent.setup();
    renderCard(singlePoll);

    const group = await screen.findByRole('group', { name: 'Elige a tu favorito' });
    await user.click(within(group).getByRole('radio', { name: 'Carla Ruiz' }));
    await user.click(screen.getByRole('button', { name: 'Votar' }));

    expect(await screen.findByText('¡Voto registrado!')).toBeTruthy();
    const body = bodyOf(fetchMock, votePath(singlePoll)) as { optionId: string; deviceFingerprint: string };
    expect(body.optionId).toBe(carla.id);
    expect(body.deviceFingerprint).toMatch(FINGERPRINT_PATTERN);

    // The choice is shown locked, highlighted in the form and in the results.
    const locked = screen.getByRole('group', { name: 'Tu voto' });
    const carlaRadio = within(locked).getByRole<HTMLInputElement>('radio', { name: /Carla Ruiz/ });
    expect(carlaRadio.checked).toBe(true);
    expect(carlaRadio.matches(':disabled')).toBe(true);
    expect(screen.getAllByText('Tu voto').length).toBeGreaterThanOrEqual(2);
    expect(screen.queryByRole('button', { name: 'Votar' })).toBeNull();

    // Change the vote.
    await user.click(screen.getByRole('button', { name: 'Cambiar voto' }));
    expect(screen.queryByText('¡Voto registrado!')).toBeNull();
    await user.click(screen.getByRole('radio', { name: 'Nadie' }));
    await user.click(screen.getByRole('button', { name: 'Votar' }));
    expect(await screen.findByText('¡Voto registrado!')).toBeTruthy();
    expect(within(screen.getByRole('group', { name: 'Tu voto' })).getByRole<HTMLInputElement>('radio', { name: /Nadie/ }).checked).toBe(true);
    expect(fetchMock.mock.calls.filter(([path, init]) => `${init?.method} ${path}` === votePath(singlePoll))).toHaveLength(2);
  });

  it('sends a new Idempotency-Key with each press of Votar, and the same one when it retries after a network failure', async () => {
    signIn();
    let current: MyVotesResponse = myVotes(singlePoll, []);
    let failNext = true;
    const fetchMock = stubApi({
      [myVotesPath(singlePoll)]: () => jsonResponse(200, current),
      [votePath(singlePoll)]: (init) => {
        // The first attempt is counted but its answer is lost on the way back.
        const { optionId } = JSON.parse(init.body as string) as { optionId: string };
        current = myVotes(singlePoll, [{ optionId, points: 1 }], { spent: 1, available: 0 });
        if (failNext) {
          failNext = false;
          throw new TypeError('Failed to fetch');
        }
        return jsonResponse(201, current);
      },
    });
    const user = userEvent.setup();
    renderCard(singlePoll);

    const group = await screen.findByRole('group', { name: 'Elige a tu favorito' });
    await user.click(within(group).getByRole('radio', { name: 'Carla Ruiz' }));
    await user.click(screen.getByRole('button', { name: 'Votar' }));
    expect(await screen.findByText('¡Voto registrado!')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Cambiar voto' }));
    await user.click(screen.getByRole('radio', { name: 'Nadie' }));
    await user.click(screen.getByRole('button', { name: 'Votar' }));
    expect(await screen.findByText('¡Voto registrado!')).toBeTruthy();

    const keys = fetchMock.mock.calls
      .filter(([path, init]) => `${init?.method} ${path}` === votePath(singlePoll))
      .map(([, init]) => (init?.headers as Record<string, string>)['Idempotency-Key']);
    expect(keys).toHaveLength(3);
    for (const key of keys) expect(key).toMatch(/^[A-Za-z0-9_-]{8,100}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[0]);
  });

  it('shows the current vote loaded from my-votes', async () => {
    signIn();
    stubApi({ [myVotesPath(singlePoll)]: () => jsonResponse(200, myVotes(singlePoll, [{ optionId: nadie.id, points: 1 }])) });
    renderCard(singlePoll);
    const locked = await screen.findByRole('group', { name: 'Tu voto' });
    expect(within(locked).getByRole<HTMLInputElement>('radio', { name: /Nadie/ }).checked).toBe(true);
    expect(screen.getByRole('button', { name: 'Cambiar voto' })).toBeTruthy();
  });

  it.each([
    ['the server message', () => errorBody(403, 'Tu cuenta está suspendida'), 'Tu cuenta está suspendida'],
    ['the closed-poll message', () => errorBody(409, 'La encuesta está cerrada'), 'La encuesta está cerrada'],
    ['Error al votar when the answer has no message', () => new Response('<html>Bad Gateway</html>', { status: 502 }), 'Error al votar'],
  ] as Array<[string, Handler, string]>)('shows %s when the vote fails', async (_, handler, message) => {
    signIn();
    stubApi({ [myVotesPath(singlePoll)]: () => jsonResponse(200, myVotes(singlePoll, [])), [votePath(singlePoll)]: handler });
    const user = userEvent.setup();
    renderCard(singlePoll);

    await user.click(await screen.findByRole('radio', { name: 'Carla Ruiz' }));
    await user.click(screen.getByRole('button', { name: 'Votar' }));
    expect((await screen.findByRole('alert')).textContent).toBe(message);
    expect(screen.queryByText('¡Voto registrado!')).toBeNull();
  });

  it('sends a user whose session ended to /login', async () => {
    signIn();
    stubApi({
      [myVotesPath(singlePoll)]: () => jsonResponse(200, myVotes(singlePoll, [])),
      [votePath(singlePoll)]: () => errorBody(401, 'User not authenticated'),
    });
    const user = userEvent.setup();
    renderCard(singlePoll);
    await user.click(await screen.findByRole('radio', { name: 'Carla Ruiz' }));
    await user.click(screen.getByRole('button', { name: 'Votar' }));
    expect(await screen.findByText('login page')).toBeTruthy();
    expect(useSessionStore.getState().user).toBeNull();
  });

  it('shows the rate limit message at the form and lets the fan vote again', async () => {
    signIn();
    stubApi({
      [myVotesPath(singlePoll)]: () => jsonResponse(200, myVotes(singlePoll, [])),
      [votePath(singlePoll)]: () => errorBody(429, 'Demasiadas solicitudes. Intenta de nuevo en unos segundos.'),
    });
    const user = userEvent.setup();
    renderCard(singlePoll);
    await user.click(await screen.findByRole('radio', { name: 'Carla Ruiz' }));
    await user.click(screen.getByRole('button', { name: 'Votar' }));

    expect((await screen.findByRole('alert')).textContent).toBe('Demasiadas solicitudes. Intenta de nuevo en unos segundos.');
    expect(screen.getByRole<HTMLInputElement>('radio', { name: 'Carla Ruiz' }).checked).toBe(true);
    expect(screen.getByRole('button', { name: 'Votar' })).toHaveProperty('disabled', false);
  });

  it('shows no form on a closed poll', () => {
    stubApi({});
    renderCard({ ...singlePoll, status: 'closed' });
    expect(screen.getByText('Votación cerrada')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Votar' })).toBeNull();
    expect(screen.queryByRole('radio')).toBeNull();
  });

  it('hides the form when the live channel says the poll closed', async () => {
    stubApi({});
    renderCard(singlePoll);
    expect(screen.getByRole('button', { name: 'Votar' })).toBeTruthy();
    useLiveResultsStore
      .getState()
      .applyPollStatus({ type: 'poll-status', topic: `poll:${singlePoll.id}`, pollId: singlePoll.id, status: 'closed', isFeatured: true });
    expect(await screen.findByText('Votación cerrada')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Votar' })).toBeNull();
  });
});

describe('vote form, points mode', () => {
  beforeEach(() => {
    signIn();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.spyOn(console, 'debug').mockImplementation(() => {});
  });

  it('counts the points left as they are assigned with the steppers and the number fields', async () => {
    stubApi({ [myVotesPath(pointsPoll)]: () => jsonResponse(200, myVotes(pointsPoll, [{ optionId: pNadie.id, points: 3 }], { spent: 3, available: 7 })) });
    const user = userEvent.setup();
    renderCard(pointsPoll);

    expect(await screen.findByText('Te quedan 7 puntos')).toBeTruthy();
    expect(screen.getByText('Ya le diste 3 puntos')).toBeTruthy();
    expect(screen.getByText('Tus puntos: 3')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Sumar un punto a Carla Ruiz' }));
    await user.click(screen.getByRole('button', { name: 'Sumar un punto a Carla Ruiz' }));
    expect(screen.getByText('Te quedan 5 puntos')).toBeTruthy();
    expect(screen.getByRole<HTMLInputElement>('spinbutton', { name: 'Puntos para Carla Ruiz' }).value).toBe('2');

    await user.click(screen.getByRole('button', { name: 'Quitar un punto a Carla Ruiz' }));
    expect(screen.getByText('Te quedan 6 puntos')).toBeTruthy();

    await user.type(screen.getByRole('spinbutton', { name: 'Puntos para Nadie' }), '6');
    expect(screen.getByText('Te quedan 0 puntos')).toBeTruthy();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Sumar un punto a Nadie' }).disabled).toBe(true);
  });

  it('asks for at least one point', async () => {
    const fetchMock = stubApi({ [myVotesPath(pointsPoll)]: () => jsonResponse(200, myVotes(pointsPoll, [])) });
    const user = userEvent.setup();
    renderCard(pointsPoll);
    await screen.findByText('Te quedan 10 puntos');
    await user.click(screen.getByRole('button', { name: 'Votar' }));
    expect(screen.getByRole('alert').textContent).toBe('Por favor asigna al menos 1 punto');
    expect(requestsOf(fetchMock)).not.toContain(votePath(pointsPoll));
  });

  it('refuses more points than available', async () => {
    const fetchMock = stubApi({ [myVotesPath(pointsPoll)]: () => jsonResponse(200, myVotes(pointsPoll, [], { spent: 6, available: 4 })) });
    const user = userEvent.setup();
    renderCard(pointsPoll);
    await screen.findByText('Te quedan 4 puntos');

    await user.type(screen.getByRole('spinbutton', { name: 'Puntos para Carla Ruiz' }), '6');
    expect(screen.getByText('Te pasaste por 2 puntos')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Votar' }));
    expect(screen.getByRole('alert').textContent).toBe('No puedes asignar más de 4 puntos');
    expect(requestsOf(fetchMock)).not.toContain(votePath(pointsPoll));
  });

  it('sends the allocations and updates the points left', async () => {
    const fetchMock = stubApi({
      [myVotesPath(pointsPoll)]: () => jsonResponse(200, myVotes(pointsPoll, [])),
      [votePath(pointsPoll)]: () =>
        jsonResponse(
          201,
          myVotes(
            pointsPoll,
            [
              { optionId: pCarla.id, points: 3 },
              { optionId: pNadie.id, points: 1 },
            ],
            { spent: 4, available: 6 },
          ),
        ),
    });
    const user = userEvent.setup();
    renderCard(pointsPoll);
    await screen.findByText('Te quedan 10 puntos');

    await user.type(screen.getByRole('spinbutton', { name: 'Puntos para Carla Ruiz' }), '3');
    await user.click(screen.getByRole('button', { name: 'Sumar un punto a Nadie' }));
    await user.click(screen.getByRole('button', { name: 'Votar' }));

    expect(await screen.findByText('¡Voto registrado!')).toBeTruthy();
    const body = bodyOf(fetchMock, votePath(pointsPoll)) as { allocations: unknown; deviceFingerprint: string };
    expect(body.allocations).toEqual([
      { optionId: pCarla.id, points: 3 },
      { optionId: pNadie.id, points: 1 },
    ]);
    expect(body.deviceFingerprint).toMatch(FINGERPRINT_PATTERN);
    expect(screen.getByText('Te quedan 6 puntos')).toBeTruthy();
    expect(screen.getByText('Tus puntos: 3')).toBeTruthy();
    expect(screen.getByRole<HTMLInputElement>('spinbutton', { name: 'Puntos para Carla Ruiz' }).value).toBe('');
  });

  it('says when all points are spent, and reads them again after the daily reset', async () => {
    let available = 0;
    const fetchMock = stubApi({
      [myVotesPath(pointsPoll)]: () =>
        jsonResponse(200, myVotes(pointsPoll, [{ optionId: pCarla.id, points: 10 }], { spent: 10, available: 0, resetsAt: '2025-01-06T06:00:00.000Z' })),
      [`GET /api/polls/${pointsPoll.id}/available-points`]: () => jsonResponse(200, availablePoints(pointsPoll, { available })),
    });
    renderCard(pointsPoll);
    expect(await screen.findByText('Ya repartiste todos tus puntos en esta encuesta.')).toBeTruthy();
    expect(screen.getByText(/^Tendrás 10 puntos de nuevo el /)).toBeTruthy();

    available = 10;
    useLiveResultsStore.getState().notePointsReset();
    expect(await screen.findByText('Te quedan 10 puntos')).toBeTruthy();
    expect(requestsOf(fetchMock)).toContain(`GET /api/polls/${pointsPoll.id}/available-points`);
  });

  it('lets visitors spread the poll maximum, then sends them to /login', async () => {
    useSessionStore.setState({ user: null, status: 'ready' });
    stubApi({});
    const user = userEvent.setup();
    renderCard(pointsPoll);
    expect(screen.getByText('Te quedan 10 puntos')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Sumar un punto a Carla Ruiz' }));
    await user.click(screen.getByRole('button', { name: 'Votar' }));
    expect(await screen.findByText('login page')).toBeTruthy();
  });
});
