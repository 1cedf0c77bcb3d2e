import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { PUSH_ADMIN_TEXTS, PUSH_ERRORS } from '@tribuna/contracts/pushRules';
import type { PushBroadcastView } from '@tribuna/contracts/api/push';
import { requestsOf, stubApi, type Handler } from '../../../test/apiStub';
import { jsonResponse } from '../../../test/fixtures';
import { buildAdminPoll, buildSeason } from '../catalogFixtures';
import { PollsPage } from './PollsPage';

const season = buildSeason({ realityName: 'La Casa', number: 3 });
const draft = buildAdminPoll(season, { title: 'Gala del domingo', status: 'draft' });
const closed = buildAdminPoll(season, { title: 'Ya cerrada', status: 'closed' });
const other = buildAdminPoll(season, { title: 'Otra activa', status: 'active' });

function broadcast(pollId: string): PushBroadcastView {
  return {
    id: '80000000-0000-4000-8000-000000000001',
    kind: 'poll_opened',
    pollId,
    pollTitle: draft.title,
    status: 'queued',
    total: 0,
    sent: 0,
    gone: 0,
    failed: 0,
    createdBy: 'admin',
    createdAt: '2026-03-01T12:00:00.000Z',
    finishedAt: null,
  };
}

function renderPage(handlers: Record<string, Handler>) {
  const fetchMock = stubApi({
    'GET /api/admin/seasons': () => jsonResponse(200, { seasons: [season] }),
    'GET /api/admin/polls': () => jsonResponse(200, { polls: [draft, closed, other] }),
    [`POST /api/admin/polls/${draft.id}/status`]: () => jsonResponse(200, { ...draft, status: 'active', effectiveStatus: 'active' }),
    ...handlers,
  });
  render(
    <MemoryRouter initialEntries={['/admin/encuestas']}>
      <Routes>
        <Route path="/admin/encuestas" element={<PollsPage />} />
      </Routes>
    </MemoryRouter>,
  );
  return fetchMock;
}

const rowOf = (title: string) => screen.getByRole('cell', { name: title }).closest('tr')!;
const notifyPath = `POST /api/admin/polls/${draft.id}/notify`;

describe("'Notificar a los fans' after Activar or Fijar en Landing", () => {
  beforeEach(() => {
    vi.spyOn(console, 'debug').mockImplementation(() => {});
  });

  it('is offered after Activar, asks for confirmation, and sends only once confirmed', async () => {
    const fetchMock = renderPage({ [notifyPath]: () => jsonResponse(202, broadcast(draft.id)) });
    await screen.findByRole('table', { name: 'Encuestas' });
    expect(screen.queryByRole('button', { name: `${PUSH_ADMIN_TEXTS.notify}: ${draft.title}` })).toBeNull();
    const user = userEvent.setup();
    await user.click(within(rowOf(draft.title)).getByRole('button', { name: `Activar: ${draft.title}` }));
    await user.click(await screen.findByRole('button', { name: `${PUSH_ADMIN_TEXTS.notify}: ${draft.title}` }));

    const dialog = await screen.findByRole('dialog', { name: PUSH_ADMIN_TEXTS.confirmTitle });
    expect(dialog.textContent).toContain(PUSH_ADMIN_TEXTS.confirmBody);
    expect(dialog.textContent).toContain(draft.title);
    await user.click(within(dialog).getByRole('button', { name: PUSH_ADMIN_TEXTS.cancel }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(requestsOf(fetchMock)).not.toContain(notifyPath);

    await user.click(screen.getByRole('button', { name: `${PUSH_ADMIN_TEXTS.notify}: ${draft.title}` }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: PUSH_ADMIN_TEXTS.confirm }));
    expect(await screen.findByText(`${PUSH_ADMIN_TEXTS.queued}: ${draft.title}`)).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(requestsOf(fetchMock).filter((request) => request === notifyPath)).toHaveLength(1);
    expect(screen.queryByRole('button', { name: `${PUSH_ADMIN_TEXTS.notify}: ${draft.title}` })).toBeNull();
  });

  it("shows the server's 409 in the dialog as it comes", async () => {
    renderPage({ [notifyPath]: () => jsonResponse(409, { statusCode: 409, error: 'Conflict', message: PUSH_ERRORS.alreadyNotified }) });
    await screen.findByRole('table', { name: 'Encuestas' });
    const user = userEvent.setup();
    await user.click(within(rowOf(draft.title)).getByRole('button', { name: `Activar: ${draft.title}` }));
    await user.click(await screen.findByRole('button', { name: `${PUSH_ADMIN_TEXTS.notify}: ${draft.title}` }));
    const dialog = await screen.findByRole('dialog', { name: PUSH_ADMIN_TEXTS.confirmTitle });
    await user.click(within(dialog).getByRole('button', { name: PUSH_ADMIN_TEXTS.confirm }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(PUSH_ERRORS.alreadyNotified);
  });

  it('is offered after Fijar en Landing of an active poll, not of a closed one, and Ahora no leaves it', async () => {
    renderPage({
      [`POST /api/admin/polls/${other.id}/feature`]: () => jsonResponse(200, { ...other, isFeatured: true }),
      [`POST /api/admin/polls/${closed.id}/feature`]: () => jsonResponse(200, { ...closed, isFeatured: true, effectiveStatus: 'closed' }),
    });
    await screen.findByRole('table', { name: 'Encuestas' });
    const user = userEvent.setup();
    await user.click(within(rowOf(closed.title)).getByRole('button', { name: `Fijar en Landing: ${closed.title}` }));
    await within(rowOf(closed.title)).findByText('Principal');
    expect(screen.queryByRole('button', { name: new RegExp(PUSH_ADMIN_TEXTS.notify) })).toBeNull();

    await user.click(within(rowOf(other.title)).getByRole('button', { name: `Fijar en Landing: ${other.title}` }));
    expect(await screen.findByText(`«${other.title}» está fijada en Landing.`)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Ahora no' }));
    expect(screen.queryByRole('button', { name: `${PUSH_ADMIN_TEXTS.notify}: ${other.title}` })).toBeNull();
  });
});
