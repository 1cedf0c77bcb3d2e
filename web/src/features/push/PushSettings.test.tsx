import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PUSH_ERRORS, PUSH_KIND_DEFAULTS, PUSH_KIND_LABELS, PUSH_TEXTS } from '@tribuna/contracts/pushRules';
import { bodyOf, requestsOf, stubApi, type Handler } from '../../test/apiStub';
import { jsonResponse } from '../../test/fixtures';
import { PUSH_OFF_TEXT, PushSettings } from './PushSettings';
import {
  AUTH,
  FAKE_ENDPOINT,
  P256DH,
  VAPID_KEY,
  buildDevice,
  configResponse,
  installFakePush,
  keyBytes,
  removeFakePush,
  settingsResponse,
} from './pushFixtures';
import { DEVICE_ID_KEY } from './pushState';

function renderSettings(handlers: Record<string, Handler> = {}) {
  const fetchMock = stubApi({ 'GET /api/me/push': settingsResponse(), 'GET /api/push/config': configResponse(), ...handlers });
  render(<PushSettings />);
  return fetchMock;
}

const devicesList = () => screen.getByRole('list', { name: PUSH_TEXTS.devicesTitle });

describe('PushSettings', () => {
  beforeEach(() => {
    vi.spyOn(console, 'debug').mockImplementation(() => {});
  });
  afterEach(() => {
    removeFakePush();
  });

  it('asks for permission only on Activar, subscribes with the server key, sends the subscription and marks this device', async () => {
    const push = installFakePush();
    const phone = buildDevice({ browser: 'Chrome en Android' });
    const laptop = buildDevice({ browser: 'Firefox en Windows' });
    const fetchMock = renderSettings({
      'GET /api/me/push': settingsResponse([laptop]),
      'POST /api/me/push/subscriptions': () => jsonResponse(201, phone),
    });
    const enable = await screen.findByRole('button', { name: PUSH_TEXTS.enable });
    expect(push.requestPermission).not.toHaveBeenCalled();
    expect(
      within(devicesList())
        .getAllByRole('listitem')
        .map((row) => row.textContent),
    ).toEqual([expect.stringContaining('Firefox en Windows')]);

    await userEvent.setup().click(enable);
    expect(await screen.findByText(PUSH_TEXTS.enabled, { selector: 'p:not([role])' })).toBeTruthy();
    expect(push.requestPermission).toHaveBeenCalledTimes(1);
    expect(push.subscribe).toHaveBeenCalledTimes(1);
    const options = push.subscribe.mock.calls[0]![0] as { applicationServerKey: Uint8Array; userVisibleOnly: boolean };
    expect(options.userVisibleOnly).toBe(true);
    expect(Array.from(options.applicationServerKey)).toEqual(Array.from(new Uint8Array(keyBytes(VAPID_KEY))));
    expect(bodyOf(fetchMock, 'POST /api/me/push/subscriptions')).toEqual({ endpoint: FAKE_ENDPOINT, keys: { p256dh: P256DH, auth: AUTH } });

    const rows = within(devicesList()).getAllByRole('listitem');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByText(PUSH_TEXTS.thisDevice)).toBeTruthy();
    expect(within(rows[1]!).queryByText(PUSH_TEXTS.thisDevice)).toBeNull();
    expect(localStorage.getItem(DEVICE_ID_KEY)).toBe(phone.id);
    expect(screen.getByRole('button', { name: PUSH_TEXTS.disable })).toBeTruthy();
  });

  it('marks the device this browser subscribed as, and Desactivar removes it and unsubscribes', async () => {
    const push = installFakePush({ permission: 'granted', subscribed: true });
    const phone = buildDevice({ browser: 'Safari en iPhone' });
    localStorage.setItem(DEVICE_ID_KEY, phone.id);
    const fetchMock = renderSettings({
      'GET /api/me/push': settingsResponse([phone]),
      [`DELETE /api/me/push/subscriptions/${phone.id}`]: () => jsonResponse(200, { devices: [], preferences: PUSH_KIND_DEFAULTS }),
    });
    expect(await screen.findByText(PUSH_TEXTS.thisDevice)).toBeTruthy();
    await userEvent.setup().click(screen.getByRole('button', { name: PUSH_TEXTS.disable }));
    expect(await screen.findByText(PUSH_TEXTS.devicesEmpty)).toBeTruthy();
    expect(screen.getAllByRole('status').map((status) => status.textContent)).toContain(PUSH_TEXTS.removed);
    expect(requestsOf(fetchMock)).toContain(`DELETE /api/me/push/subscriptions/${phone.id}`);
    expect(push.state.subscription).toBeNull();
    expect(localStorage.getItem(DEVICE_ID_KEY)).toBeNull();
    expect(screen.getByRole('button', { name: PUSH_TEXTS.enable })).toBeTruthy();
  });

  it("removes another device with Quitar without touching this browser's subscription", async () => {
    const push = installFakePush({ permission: 'granted', subscribed: true });
    const here = buildDevice({ browser: 'Chrome en Android' });
    const other = buildDevice({ browser: 'Edge en Windows' });
    localStorage.setItem(DEVICE_ID_KEY, here.id);
    renderSettings({
      'GET /api/me/push': settingsResponse([here, other]),
      [`DELETE /api/me/push/subscriptions/${other.id}`]: () => jsonResponse(200, { devices: [here], preferences: PUSH_KIND_DEFAULTS }),
    });
    await userEvent.setup().click(await screen.findByRole('button', { name: `${PUSH_TEXTS.remove} Edge en Windows` }));
    await waitFor(() => expect(within(devicesList()).getAllByRole('listitem')).toHaveLength(1));
    expect(push.state.subscription).not.toBeNull();
    expect(localStorage.getItem(DEVICE_ID_KEY)).toBe(here.id);
    // Focus goes to the list's title, not to the page's start.
    await waitFor(() => expect(document.activeElement?.textContent).toBe(PUSH_TEXTS.devicesTitle));
  });

  it("shows the server's refusal (too many devices) and keeps Activar", async () => {
    installFakePush();
    renderSettings({ 'POST /api/me/push/subscriptions': () => jsonResponse(409, { statusCode: 409, error: 'Conflict', message: PUSH_ERRORS.tooManyDevices }) });
    await userEvent.setup().click(await screen.findByRole('button', { name: PUSH_TEXTS.enable }));
    expect((await screen.findByRole('alert')).textContent).toBe(PUSH_ERRORS.tooManyDevices);
    expect(screen.getByRole('button', { name: PUSH_TEXTS.enable })).toBeTruthy();
  });

  it('explains a refused permission, before and after asking', async () => {
    installFakePush({ answer: 'denied' });
    renderSettings();
    await userEvent.setup().click(await screen.findByRole('button', { name: PUSH_TEXTS.enable }));
    expect(await screen.findByText(PUSH_TEXTS.denied)).toBeTruthy();
    expect(screen.queryByRole('button', { name: PUSH_TEXTS.enable })).toBeNull();
  });

  it('explains a browser without push, and an iPhone outside the home screen', async () => {
    installFakePush({ unsupported: true });
    renderSettings();
    expect(await screen.findByText(PUSH_TEXTS.unsupported)).toBeTruthy();
    expect(screen.queryByRole('button', { name: PUSH_TEXTS.enable })).toBeNull();
    // The preferences still work (for the fan's other devices).
    expect(screen.getByRole('switch', { name: PUSH_KIND_LABELS.poll_opened })).toBeTruthy();
  });

  it('tells an iPhone to add Tribuna to the home screen first', async () => {
    installFakePush();
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 Version/17.4 Mobile Safari/604.1',
    );
    renderSettings();
    expect(await screen.findByText(PUSH_TEXTS.ios)).toBeTruthy();
    expect(screen.queryByRole('button', { name: PUSH_TEXTS.enable })).toBeNull();
  });

  it('says so when the server sends no pushes', async () => {
    installFakePush();
    renderSettings({ 'GET /api/push/config': configResponse(false) });
    expect(await screen.findByText(PUSH_OFF_TEXT)).toBeTruthy();
    expect(screen.queryByRole('button', { name: PUSH_TEXTS.enable })).toBeNull();
    expect(screen.queryByRole('switch')).toBeNull();
  });

  it('saves each switch at once (PUT of every kind) and puts it back when saving fails', async () => {
    installFakePush();
    let fail = false;
    const fetchMock = renderSettings({
      'PUT /api/me/push/preferences': (init) =>
        fail ? jsonResponse(500, { statusCode: 500, error: 'Internal Server Error', message: 'Algo falló' }) : jsonResponse(200, JSON.parse(String(init.body))),
    });
    const reactions = await screen.findByRole('switch', { name: PUSH_KIND_LABELS.reactions });
    expect((reactions as HTMLInputElement).checked).toBe(false);
    expect(reactions.getAttribute('aria-describedby')).toBeTruthy();
    const user = userEvent.setup();
    await user.click(reactions);
    expect(await screen.findByText(PUSH_TEXTS.saved)).toBeTruthy();
    expect(bodyOf(fetchMock, 'PUT /api/me/push/preferences')).toEqual({ ...PUSH_KIND_DEFAULTS, reactions: true });
    expect((reactions as HTMLInputElement).checked).toBe(true);

    fail = true;
    const mentions = screen.getByRole('switch', { name: PUSH_KIND_LABELS.mentions });
    await user.click(mentions);
    expect((await screen.findByRole('alert')).textContent).toBe('Algo falló');
    expect((mentions as HTMLInputElement).checked).toBe(true);
    expect((reactions as HTMLInputElement).checked).toBe(true);
  });

  it('shows a load error with Reintentar', async () => {
    let fail = true;
    renderSettings({
      'GET /api/me/push': () => (fail ? jsonResponse(500, { statusCode: 500, error: 'Internal Server Error', message: 'Algo falló' }) : settingsResponse()()),
    });
    expect((await screen.findByRole('alert')).textContent).toContain('Algo falló');
    fail = false;
    installFakePush();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Reintentar' }));
    expect(await screen.findByText(PUSH_TEXTS.devicesEmpty)).toBeTruthy();
  });
});
