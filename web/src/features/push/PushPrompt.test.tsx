import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { PUSH_TEXTS } from '@tribuna/contracts/pushRules';
import { PushPromptHost } from '../../app/PushPromptHost';
import { PUSH_PROMPT_ASKED_KEY, offerPushAfterVote, usePushPromptStore } from '../../lib/pushPrompt';
import { requestsOf, stubApi, type Handler } from '../../test/apiStub';
import { jsonResponse } from '../../test/fixtures';
import { FAKE_ENDPOINT, buildDevice, configResponse, installFakePush, removeFakePush } from './pushFixtures';

function renderHost(handlers: Record<string, Handler> = {}) {
  const fetchMock = stubApi({ 'GET /api/push/config': configResponse(), ...handlers });
  render(
    <MemoryRouter>
      <button type="button">Votar</button>
      <PushPromptHost />
    </MemoryRouter>,
  );
  return fetchMock;
}

const prompt = () => screen.findByRole('dialog', { name: PUSH_TEXTS.promptTitle });

describe('the push prompt after a vote', () => {
  beforeEach(() => {
    vi.spyOn(console, 'debug').mockImplementation(() => {});
  });
  afterEach(() => {
    removeFakePush();
    usePushPromptStore.setState({ offered: false });
  });

  it('asks once per device: Ahora no closes it, and later votes do not ask again', async () => {
    const push = installFakePush();
    renderHost();
    screen.getByRole('button', { name: 'Votar' }).focus();
    act(() => offerPushAfterVote());
    const dialog = await prompt();
    expect(dialog.textContent).toContain(PUSH_TEXTS.promptBody);
    // Focus moves in an effect after the dialog is shown: waited for, not assumed at once.
    await waitFor(() => expect(document.activeElement).toBe(dialog));
    expect(localStorage.getItem(PUSH_PROMPT_ASKED_KEY)).toBe('1');
    // The browser's own question only ever comes from 'Sí, avísame'.
    expect(push.requestPermission).not.toHaveBeenCalled();

    await userEvent.setup().click(screen.getByRole('button', { name: PUSH_TEXTS.promptDismiss }));
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Votar'));

    act(() => offerPushAfterVote());
    expect(usePushPromptStore.getState().offered).toBe(false);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('Escape is Ahora no', async () => {
    installFakePush();
    renderHost();
    act(() => offerPushAfterVote());
    await prompt();
    await userEvent.setup().keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(localStorage.getItem(PUSH_PROMPT_ASKED_KEY)).toBe('1');
  });

  it('Sí, avísame asks for permission, subscribes and says it is done', async () => {
    const push = installFakePush();
    const fetchMock = renderHost({ 'POST /api/me/push/subscriptions': () => jsonResponse(201, buildDevice()) });
    act(() => offerPushAfterVote());
    await prompt();
    await userEvent.setup().click(screen.getByRole('button', { name: PUSH_TEXTS.promptAccept }));
    expect(await screen.findByRole('dialog', { name: PUSH_TEXTS.promptDone })).toBeTruthy();
    expect(push.requestPermission).toHaveBeenCalledTimes(1);
    expect(push.state.subscription?.endpoint).toBe(FAKE_ENDPOINT);
    expect(requestsOf(fetchMock)).toContain('POST /api/me/push/subscriptions');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Cerrar' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('explains a refusal in the browser', async () => {
    installFakePush({ answer: 'denied' });
    renderHost();
    act(() => offerPushAfterVote());
    await prompt();
    await userEvent.setup().click(screen.getByRole('button', { name: PUSH_TEXTS.promptAccept }));
    expect((await screen.findByRole('alert')).textContent).toBe(PUSH_TEXTS.denied);
  });

  it.each([
    ['the browser has no push', { unsupported: true }, true],
    ['notifications were refused before', { permission: 'denied' as const }, true],
    ['this device is already subscribed', { permission: 'granted' as const, subscribed: true }, true],
    ['the server sends no pushes', {}, false],
  ])('does not ask when %s', async (_, options, serverEnabled) => {
    installFakePush(options);
    const fetchMock = renderHost({ 'GET /api/push/config': configResponse(serverEnabled) });
    act(() => offerPushAfterVote());
    await waitFor(() => expect(usePushPromptStore.getState().offered).toBe(false));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(requestsOf(fetchMock)).not.toContain('POST /api/me/push/subscriptions');
  });
});
