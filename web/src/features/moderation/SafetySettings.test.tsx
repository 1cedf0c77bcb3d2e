import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import type { SafetyEntry } from '@tribuna/contracts/api/moderation';
import { MODERATION_MESSAGES, SAFETY_UI } from '@tribuna/contracts/moderationRules';
import { useSessionStore } from '../../lib/session/sessionStore';
import { requestsOf, stubApi, type Handler } from '../../test/apiStub';
import { buildProfile, jsonResponse } from '../../test/fixtures';
import { SafetySettings } from './SafetySettings';

let sequence = 0;
function entry(displayName: string, username: string | null = null): SafetyEntry {
  return {
    user: { id: `60000000-0000-4000-8000-${String(++sequence).padStart(12, '0')}`, displayName, username, avatarUrl: null },
    since: '2026-03-01T12:00:00.000Z',
  };
}
const page = (items: SafetyEntry[], nextCursor: string | null = null) => jsonResponse(200, { items, nextCursor });
const empty = () => page([]);
const state = (muted: boolean, blocked: boolean) => jsonResponse(200, { muted, blocked });

function renderSettings(handlers: Record<string, Handler>) {
  const fetchMock = stubApi({ 'GET /api/me/muted': empty, 'GET /api/me/blocked': empty, ...handlers });
  render(
    <MemoryRouter>
      <SafetySettings />
    </MemoryRouter>,
  );
  return fetchMock;
}

const list = (title: string) => screen.getByRole('region', { name: title });

describe('SafetySettings', () => {
  beforeEach(() => {
    useSessionStore.setState({ user: buildProfile(), status: 'ready' });
  });

  it('says when nobody is muted or blocked', async () => {
    renderSettings({});
    expect(await within(list(SAFETY_UI.mutedListTitle)).findByText(MODERATION_MESSAGES.mutedListEmpty)).toBeTruthy();
    expect(await within(list(SAFETY_UI.blockedListTitle)).findByText(MODERATION_MESSAGES.blockedListEmpty)).toBeTruthy();
  });

  it('lists the muted people with links to their profiles, pages with Cargar más, and unmutes with Quitar', async () => {
    const carla = entry('Carla Ruiz', 'carla');
    const luis = entry('Luis Pérez');
    const pepe = entry('Pepe');
    const fetchMock = renderSettings({
      'GET /api/me/muted': () => page([carla, luis], 'next1'),
      'GET /api/me/muted?cursor=next1': () => page([luis, pepe]),
      [`DELETE /api/profiles/${luis.user.id}/mute`]: () => state(false, false),
    });
    const muted = list(SAFETY_UI.mutedListTitle);
    const rows = await within(muted).findAllByRole('listitem');
    expect(rows.map((row) => within(row).getByRole('link').textContent)).toEqual(['Carla Ruiz', 'Luis Pérez']);
    expect(within(rows[0]!).getByRole('link').getAttribute('href')).toBe(`/perfil/${carla.user.id}`);
    expect(within(rows[0]!).getByText('@carla')).toBeTruthy();

    const user = userEvent.setup();
    await user.click(within(muted).getByRole('button', { name: 'Cargar más' }));
    await waitFor(() => expect(within(muted).getAllByRole('listitem')).toHaveLength(3));
    expect(within(muted).queryByRole('button', { name: 'Cargar más' })).toBeNull();

    await user.click(within(muted).getByRole('button', { name: SAFETY_UI.removeMuted('Luis Pérez') }));
    await waitFor(() => expect(within(muted).getAllByRole('listitem')).toHaveLength(2));
    expect(within(muted).queryByText('Luis Pérez')).toBeNull();
    expect(within(muted).getByRole('status').textContent).toBe(SAFETY_UI.unmuted);
    expect(requestsOf(fetchMock)).toContain(`DELETE /api/profiles/${luis.user.id}/mute`);
  });

  it('unblocks with Quitar and shows the empty text once the last one is gone', async () => {
    const ana = entry('Ana');
    const fetchMock = renderSettings({
      'GET /api/me/blocked': () => page([ana]),
      [`DELETE /api/profiles/${ana.user.id}/block`]: () => state(false, false),
    });
    const blocked = list(SAFETY_UI.blockedListTitle);
    const quitar = await within(blocked).findByRole('button', { name: SAFETY_UI.removeBlocked('Ana') });
    expect(quitar.textContent).toBe(SAFETY_UI.remove);
    await userEvent.setup().click(quitar);
    expect(await within(blocked).findByText(MODERATION_MESSAGES.blockedListEmpty)).toBeTruthy();
    expect(within(blocked).getByRole('status').textContent).toBe(SAFETY_UI.unblocked);
    expect(requestsOf(fetchMock)).toContain(`DELETE /api/profiles/${ana.user.id}/block`);
  });

  it('keeps the row and says why when Quitar fails', async () => {
    vi.spyOn(console, 'debug').mockImplementation(() => {});
    const ana = entry('Ana');
    renderSettings({
      'GET /api/me/muted': () => page([ana]),
      [`DELETE /api/profiles/${ana.user.id}/mute`]: () => new Response('', { status: 500 }),
    });
    const muted = list(SAFETY_UI.mutedListTitle);
    await userEvent.setup().click(await within(muted).findByRole('button', { name: SAFETY_UI.removeMuted('Ana') }));
    expect((await within(muted).findByRole('alert')).textContent).toBe(SAFETY_UI.changeFailed);
    expect(within(muted).getByText('Ana')).toBeTruthy();
  });

  it('shows a load error with Reintentar', async () => {
    let fail = true;
    renderSettings({
      'GET /api/me/blocked': () =>
        fail ? jsonResponse(500, { statusCode: 500, error: 'Internal Server Error', message: 'Algo falló' }) : page([entry('Carla Ruiz')]),
    });
    const blocked = list(SAFETY_UI.blockedListTitle);
    expect((await within(blocked).findByRole('alert')).textContent).toContain('Algo falló');
    fail = false;
    await userEvent.setup().click(within(blocked).getByRole('button', { name: 'Reintentar' }));
    expect(await within(blocked).findByText('Carla Ruiz')).toBeTruthy();
  });
});
