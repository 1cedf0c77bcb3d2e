import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ADMIN_MESSAGES } from '@tribuna/contracts/adminRules';
import type { AdminPollView } from '@tribuna/contracts/api/admin/polls';
import { bodyOf, requestsOf, stubApi, type Handler } from '../../../test/apiStub';
import { jsonResponse } from '../../../test/fixtures';
import { buildAdminPoll, buildContestant, buildOption, buildSeason } from '../catalogFixtures';
import { isoOf } from './pollForm';
import { PollFormModal } from './PollFormModal';

const season = buildSeason({ realityName: 'La Casa', number: 3 });
const empty = buildSeason({ realityName: 'La Casa', number: 4 });
const ana = buildContestant(season, { fullName: 'Ana', status: 'active' });
const beto = buildContestant(season, { fullName: 'Beto', status: 'eliminated' });
const ciro = buildContestant(season, { fullName: 'Ciro', status: 'finalist' });
const dora = buildContestant(season, { fullName: 'Dora', status: 'winner' });
const eva = buildContestant(season, { fullName: 'Eva', status: 'active' });

const contestantsApi: Record<string, Handler> = {
  [`GET /api/admin/contestants?seasonId=${season.id}`]: () => jsonResponse(200, { contestants: [ana, beto, ciro, dora, eva] }),
  [`GET /api/admin/contestants?seasonId=${empty.id}`]: () => jsonResponse(200, { contestants: [ciro] }),
};

function renderForm(poll: AdminPollView | null = null, onSaved = vi.fn()) {
  render(<PollFormModal poll={poll} seasons={[season, empty]} defaultSeasonId="" onSaved={onSaved} onClose={() => {}} />);
  return { onSaved, dialog: screen.getByRole('dialog') };
}

const submit = (dialog: HTMLElement, name = 'Crear encuesta') => userEvent.click(within(dialog).getByRole('button', { name }));
const optionInputs = (dialog: HTMLElement) => within(dialog).queryAllByRole('textbox', { name: /^Opción \d+$/ });

describe('PollFormModal: creating', () => {
  beforeEach(() => {
    vi.spyOn(console, 'debug').mockImplementation(() => {});
  });

  it('requires a title, a season and 2 contestants', async () => {
    const fetchMock = stubApi({ ...contestantsApi });
    const { dialog } = renderForm();
    await submit(dialog);
    expect(within(dialog).getByText(ADMIN_MESSAGES.pollTitleRequired)).toBeTruthy();
    expect(within(dialog).getByText(ADMIN_MESSAGES.pollSeasonRequired)).toBeTruthy();
    expect(within(dialog).getByText(ADMIN_MESSAGES.minContestants)).toBeTruthy();
    expect(requestsOf(fetchMock).filter((r) => r.startsWith('POST'))).toEqual([]);
  });

  it('offers only active and eliminated contestants, says when there are none, and sends the chosen ones in order', async () => {
    const created = buildAdminPoll(season);
    const fetchMock = stubApi({ ...contestantsApi, 'POST /api/admin/polls': () => jsonResponse(201, created) });
    const user = userEvent.setup();
    const { dialog, onSaved } = renderForm();
    await user.selectOptions(within(dialog).getByLabelText(/Temporada/), empty.id);
    expect(await within(dialog).findByText(ADMIN_MESSAGES.noContestantsAvailable)).toBeTruthy();

    await user.selectOptions(within(dialog).getByLabelText(/Temporada/), season.id);
    await within(dialog).findByRole('checkbox', { name: /Ana/ });
    const offered = within(within(dialog).getByRole('group', { name: 'Opciones' })).getAllByRole('checkbox');
    expect(offered).toEqual(['Ana', 'Beto', 'Eva'].map((name) => within(dialog).getByRole('checkbox', { name })));

    await user.type(within(dialog).getByLabelText(/Título/), '  ¿Quién se salva?  ');
    await user.click(within(dialog).getByRole('checkbox', { name: /Eva/ }));
    await submit(dialog);
    expect(within(dialog).getByText(ADMIN_MESSAGES.minContestants)).toBeTruthy();
    await user.click(within(dialog).getByRole('checkbox', { name: /Ana/ }));
    await submit(dialog);
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith(created, true));
    expect(bodyOf(fetchMock, 'POST /api/admin/polls')).toEqual({
      title: '¿Quién se salva?',
      description: null,
      endDate: null,
      seasonId: season.id,
      voteMode: 'single',
      optionType: 'contestants',
      status: 'active',
      options: [{ contestantId: eva.id }, { contestantId: ana.id }],
    });
  });

  it('custom options start with 2 blank inputs, can grow, and are removable only above 2', async () => {
    stubApi({ ...contestantsApi });
    const user = userEvent.setup();
    const { dialog } = renderForm();
    await user.click(within(dialog).getByRole('radio', { name: 'Opciones personalizadas' }));
    expect(optionInputs(dialog).map((i) => (i as HTMLInputElement).value)).toEqual(['', '']);
    expect(within(dialog).queryByRole('button', { name: /Quitar opción/ })).toBeNull();

    await user.type(optionInputs(dialog)[0]!, 'Sí');
    await submit(dialog);
    expect(within(dialog).getByText(ADMIN_MESSAGES.minOptions)).toBeTruthy();

    await user.click(within(dialog).getByRole('button', { name: 'Agregar opción' }));
    expect(optionInputs(dialog)).toHaveLength(3);
    expect(document.activeElement).toBe(optionInputs(dialog)[2]);
    expect(within(dialog).getAllByRole('button', { name: /Quitar opción/ })).toHaveLength(3);
    await user.click(within(dialog).getByRole('button', { name: 'Quitar opción 2' }));
    expect(optionInputs(dialog).map((i) => (i as HTMLInputElement).value)).toEqual(['Sí', '']);
    expect(within(dialog).queryByRole('button', { name: /Quitar opción/ })).toBeNull();
  });

  it('needs a closing date with the countdown on, and switching it off clears the date', async () => {
    stubApi({ ...contestantsApi });
    const user = userEvent.setup();
    const { dialog } = renderForm();
    expect(within(dialog).queryByLabelText(/Fecha de cierre/)).toBeNull();
    await user.click(within(dialog).getByRole('checkbox', { name: 'Cuenta regresiva' }));
    await submit(dialog);
    expect(within(dialog).getByText(ADMIN_MESSAGES.endDateRequired)).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText(/Fecha de cierre/), { target: { value: '2030-05-01' } });
    fireEvent.change(within(dialog).getByLabelText(/Hora de cierre/), { target: { value: '21:30' } });
    await user.click(within(dialog).getByRole('checkbox', { name: 'Cuenta regresiva' }));
    await user.click(within(dialog).getByRole('checkbox', { name: 'Cuenta regresiva' }));
    expect((within(dialog).getByLabelText(/Fecha de cierre/) as HTMLInputElement).value).toBe('');
    expect((within(dialog).getByLabelText(/Hora de cierre/) as HTMLInputElement).value).toBe('');
  });

  it('points mode: total 10 by default (at least 2), daily reset ticked; sends a draft with its closing date', async () => {
    const created = buildAdminPoll(season, { status: 'draft' });
    const fetchMock = stubApi({ ...contestantsApi, 'POST /api/admin/polls': () => jsonResponse(201, created) });
    const user = userEvent.setup();
    const { dialog, onSaved } = renderForm();
    await user.type(within(dialog).getByLabelText(/Título/), 'Reparte tus puntos');
    await user.selectOptions(within(dialog).getByLabelText(/Temporada/), season.id);
    await user.click(within(dialog).getByRole('radio', { name: 'Opciones personalizadas' }));
    await user.type(optionInputs(dialog)[0]!, 'Uno');
    await user.type(optionInputs(dialog)[1]!, 'Dos');
    expect(within(dialog).queryByLabelText(/Total de puntos/)).toBeNull();
    await user.click(within(dialog).getByRole('radio', { name: 'Por puntos' }));
    const total = within(dialog).getByLabelText(/Total de puntos/) as HTMLInputElement;
    expect(total.value).toBe('10');
    expect((within(dialog).getByRole('checkbox', { name: 'Reinicio diario' }) as HTMLInputElement).checked).toBe(true);
    fireEvent.change(total, { target: { value: '1' } });
    await submit(dialog);
    expect(within(dialog).getByText(ADMIN_MESSAGES.totalPointsMin)).toBeTruthy();
    fireEvent.change(total, { target: { value: '20' } });
    await user.click(within(dialog).getByRole('checkbox', { name: 'Reinicio diario' }));
    await user.click(within(dialog).getByRole('checkbox', { name: 'Cuenta regresiva' }));
    fireEvent.change(within(dialog).getByLabelText(/Fecha de cierre/), { target: { value: '2030-05-01' } });
    fireEvent.change(within(dialog).getByLabelText(/Hora de cierre/), { target: { value: '21:30' } });
    await user.click(within(dialog).getByRole('radio', { name: 'Borrador' }));
    await submit(dialog);
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(bodyOf(fetchMock, 'POST /api/admin/polls')).toEqual({
      title: 'Reparte tus puntos',
      description: null,
      endDate: isoOf('2030-05-01', '21:30'),
      maxPointsPerUser: 20,
      dailyReset: false,
      seasonId: season.id,
      voteMode: 'points',
      optionType: 'custom',
      status: 'draft',
      options: [{ text: 'Uno' }, { text: 'Dos' }],
    });
  });
});

describe('PollFormModal: editing', () => {
  beforeEach(() => {
    vi.spyOn(console, 'debug').mockImplementation(() => {});
  });

  const si = buildOption({ text: 'Sí', label: 'Sí', order: 0, voteCount: 12 });
  const no = buildOption({ text: 'No', label: 'No', order: 1, voteCount: 0 });
  const talvez = buildOption({ text: 'Tal vez', label: 'Tal vez', order: 2, voteCount: 3 });
  const custom = buildAdminPoll(season, {
    title: 'Custom',
    optionType: 'custom',
    voteMode: 'points',
    maxPointsPerUser: 15,
    dailyReset: false,
    options: [si, no, talvez],
    endDate: '2030-05-01T18:00:00.000Z',
  });

  it('locks season, vote mode and option type, and keeps the ids of the options that stay', async () => {
    const fetchMock = stubApi({ ...contestantsApi, [`PUT /api/admin/polls/${custom.id}`]: () => jsonResponse(200, custom) });
    const user = userEvent.setup();
    const { dialog, onSaved } = renderForm(custom);
    expect(within(dialog).getByText(`${ADMIN_MESSAGES.pollLocked}.`)).toBeTruthy();
    expect((within(dialog).getByLabelText(/Temporada/) as HTMLSelectElement).disabled).toBe(true);
    expect((within(dialog).getByRole('radio', { name: 'Opciones personalizadas' }) as HTMLInputElement).disabled).toBe(true);
    expect((within(dialog).getByRole('radio', { name: 'Por puntos' }) as HTMLInputElement).disabled).toBe(true);
    expect(within(dialog).queryByRole('radio', { name: 'Borrador' })).toBeNull();
    expect((within(dialog).getByLabelText(/Total de puntos/) as HTMLInputElement).value).toBe('15');
    expect((within(dialog).getByRole('checkbox', { name: 'Cuenta regresiva' }) as HTMLInputElement).checked).toBe(true);

    await user.clear(optionInputs(dialog)[1]!);
    await user.type(optionInputs(dialog)[1]!, 'Nunca');
    await user.click(within(dialog).getByRole('button', { name: 'Agregar opción' }));
    await user.type(optionInputs(dialog)[3]!, 'Quizás');
    await submit(dialog, 'Guardar cambios');
    await waitFor(() => expect(onSaved).toHaveBeenCalledWith(custom, false));
    expect(bodyOf(fetchMock, `PUT /api/admin/polls/${custom.id}`)).toEqual({
      title: 'Custom',
      description: null,
      endDate: '2030-05-01T18:00:00.000Z',
      maxPointsPerUser: 15,
      dailyReset: false,
      options: [{ id: si.id, text: 'Sí' }, { id: no.id, text: 'Nunca' }, { id: talvez.id, text: 'Tal vez' }, { text: 'Quizás' }],
    });
  });

  it('says how many votes removing options affects and saves only after the confirmation', async () => {
    let answer: Handler = () => jsonResponse(400, { statusCode: 400, error: 'Bad Request', message: ADMIN_MESSAGES.reopenNeedsOptions });
    const fetchMock = stubApi({ ...contestantsApi, [`PUT /api/admin/polls/${custom.id}`]: (init) => answer(init) });
    const user = userEvent.setup();
    const { dialog, onSaved } = renderForm(custom);
    expect(within(dialog).getByText('12 votos')).toBeTruthy();

    await user.click(within(dialog).getByRole('button', { name: 'Quitar opción 1' }));
    await submit(dialog, 'Guardar cambios');
    expect(within(dialog).getByText(/afectará/).textContent).toBe(
      'Quitar esta opción afectará 12 votos: saldrán de los resultados y se conservarán en el historial de los votantes como "Opción eliminada".',
    );
    expect(within(dialog).getByRole('listitem').textContent).toBe('Sí: 12 votos');
    expect(requestsOf(fetchMock).some((r) => r.startsWith('PUT'))).toBe(false);
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Quitar y guardar' }));

    await user.click(within(dialog).getByRole('button', { name: 'Volver' }));
    expect(within(dialog).queryByText(/afectará/)).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Agregar opción' }));
    await user.type(optionInputs(dialog)[2]!, 'Otra');
    await user.click(within(dialog).getByRole('button', { name: 'Quitar opción 2' }));
    await submit(dialog, 'Guardar cambios');
    expect(within(dialog).getByText(/afectará/).textContent).toBe(
      'Quitar estas 2 opciones afectará 15 votos: saldrán de los resultados y se conservarán en el historial de los votantes como "Opción eliminada".',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Quitar y guardar' }));
    expect(await within(dialog).findByText(ADMIN_MESSAGES.reopenNeedsOptions)).toBeTruthy();
    expect(bodyOf(fetchMock, `PUT /api/admin/polls/${custom.id}`)).toMatchObject({ options: [{ id: no.id, text: 'No' }, { text: 'Otra' }] });

    answer = () => new Response('', { status: 500 });
    await submit(dialog, 'Guardar cambios');
    await user.click(within(dialog).getByRole('button', { name: 'Quitar y guardar' }));
    expect(await within(dialog).findByText(ADMIN_MESSAGES.savePollFailed)).toBeTruthy();
    expect(onSaved).not.toHaveBeenCalled();
  });

  it('contestant options: keeps ids, offers contestants already on the poll, warns about an unchecked one with votes', async () => {
    const anaOption = buildOption({ contestantId: ana.id, text: null, label: 'Ana', order: 0, voteCount: 4 });
    const ciroOption = buildOption({ contestantId: ciro.id, text: null, label: 'Ciro', order: 1, voteCount: 0 });
    const poll = buildAdminPoll(season, { title: 'Gala', optionType: 'contestants', options: [anaOption, ciroOption] });
    const fetchMock = stubApi({ ...contestantsApi, [`PUT /api/admin/polls/${poll.id}`]: () => jsonResponse(200, poll) });
    const user = userEvent.setup();
    const { dialog, onSaved } = renderForm(poll);
    const anaBox = (await within(dialog).findByRole('checkbox', { name: /Ana/ })) as HTMLInputElement;
    expect(anaBox.checked).toBe(true);
    // Ciro is a finalist now: not offered to new polls, but still shown (checked) on this one.
    expect((within(dialog).getByRole('checkbox', { name: /Ciro/ }) as HTMLInputElement).checked).toBe(true);
    expect(within(dialog).queryByRole('checkbox', { name: /Dora/ })).toBeNull();

    await user.click(within(dialog).getByRole('checkbox', { name: /Beto/ }));
    await user.click(anaBox);
    await submit(dialog, 'Guardar cambios');
    expect(within(dialog).getByText(/afectará/).textContent).toContain('Quitar esta opción afectará 4 votos');
    await user.click(within(dialog).getByRole('button', { name: 'Quitar y guardar' }));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(bodyOf(fetchMock, `PUT /api/admin/polls/${poll.id}`)).toMatchObject({
      options: [{ id: ciroOption.id, contestantId: ciro.id }, { contestantId: beto.id }],
    });
  });
});
