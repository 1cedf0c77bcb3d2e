import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import type { Profile } from '@tribuna/contracts/api/me';
import type { PublicProfile } from '@tribuna/contracts/api/profiles';
import { MODERATION_MESSAGES, SAFETY_UI } from '@tribuna/contracts/moderationRules';
import { ReportHost } from '../../app/ReportHost';
import { ProfileRoute } from '../../app/ProfileRoute';
import { useReportStore } from '../../lib/reports';
import { useSessionStore } from '../../lib/session/sessionStore';
import { bodyOf, requestsOf, stubApi, type Handler } from '../../test/apiStub';
import { buildProfile, jsonResponse } from '../../test/fixtures';
import { feedPage } from '../../test/wallFixtures';
import { buildPublicProfile } from './profileFixtures';

const me: Profile = buildProfile({ id: '40000000-0000-4000-8000-00000000a201', displayName: 'Ana López', username: 'ana' });
const mine = buildPublicProfile({ id: me.id, displayName: 'Ana López' });
const luis = buildPublicProfile({ id: '40000000-0000-4000-8000-00000000b202', displayName: 'Luis Pérez', username: 'luis', followersCount: 41 });
const base = `/api/profiles/${luis.id}`;
const safetyState = (muted: boolean, blocked: boolean) => () => jsonResponse(200, { muted, blocked });

function profileApi(profile: PublicProfile, extra: Record<string, Handler> = {}) {
  const path = `/api/profiles/${profile.id}`;
  return stubApi({
    [`GET ${path}`]: () => jsonResponse(200, profile),
    [`GET ${path}/stats`]: () => jsonResponse(200, { votes: 0, posts: 0, comments: 0 }),
    [`GET ${path}/votes`]: () => jsonResponse(200, { items: [] }),
    'GET /api/auth/factors': () => jsonResponse(200, { factors: [] }),
    'GET /api/me/muted': () => jsonResponse(200, { items: [], nextCursor: null }),
    'GET /api/me/blocked': () => jsonResponse(200, { items: [], nextCursor: null }),
    ...extra,
  });
}

function renderAt(path: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/login" element={<h1>Login</h1>} />
        <Route path="/perfil" element={<ProfileRoute />} />
        <Route path="/perfil/:userId" element={<ProfileRoute />} />
      </Routes>
      <ReportHost />
    </MemoryRouter>,
  );
}

async function openMenu(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByRole('button', { name: SAFETY_UI.profileMenu }));
  return screen.getAllByRole('menuitem').map((item) => item.textContent);
}

const followButton = () => screen.queryByRole('button', { name: /^(Seguir|Siguiendo)$/ });
const followersCount = () => screen.getByRole('button', { name: /Seguidores$/ }).textContent;

describe("The profile's safety menu", () => {
  beforeEach(() => {
    useSessionStore.setState({ user: me, status: 'ready', mfaFactorId: null });
    useReportStore.setState({ subject: null, reported: {} });
  });

  it('offers Reportar, Silenciar and Bloquear on another fan’s profile, and reports the profile', async () => {
    const fetchMock = profileApi(luis, { 'POST /api/reports': () => jsonResponse(201, { id: luis.id, message: MODERATION_MESSAGES.reported }) });
    const user = userEvent.setup();
    renderAt(`/perfil/${luis.id}`);
    expect(await openMenu(user)).toEqual([SAFETY_UI.report, SAFETY_UI.mute, SAFETY_UI.block]);

    await user.click(screen.getByRole('menuitem', { name: SAFETY_UI.report }));
    const dialog = await screen.findByRole('dialog', { name: SAFETY_UI.report });
    expect(within(dialog).getByText('Perfil de Luis Pérez')).toBeTruthy();
    await user.click(within(dialog).getByRole('radio', { name: 'Suplantación de identidad' }));
    await user.click(within(dialog).getByRole('button', { name: SAFETY_UI.reportSubmit }));
    await within(dialog).findByText(MODERATION_MESSAGES.reported);
    expect(bodyOf(fetchMock, 'POST /api/reports')).toEqual({ targetType: 'profile', targetId: luis.id, reason: 'impersonation' });
    await user.click(within(dialog).getByRole('button', { name: 'Listo' }));

    // Focus is back on the menu button, whose menu no longer offers Reportar.
    expect(document.activeElement).toBe(screen.getByRole('button', { name: SAFETY_UI.profileMenu }));
    expect(await openMenu(user)).toEqual([SAFETY_UI.mute, SAFETY_UI.block]);
  });

  it('mutes and unmutes at once, saying so', async () => {
    const fetchMock = profileApi(luis, { [`PUT ${base}/mute`]: safetyState(true, false), [`DELETE ${base}/mute`]: safetyState(false, false) });
    const user = userEvent.setup();
    renderAt(`/perfil/${luis.id}`);
    await openMenu(user);
    await user.click(screen.getByRole('menuitem', { name: SAFETY_UI.mute }));
    await waitFor(() => expect(screen.getByText(MODERATION_MESSAGES.muted)).toBeTruthy());
    expect(screen.getByText(MODERATION_MESSAGES.muted).getAttribute('role')).toBe('status');
    expect(followButton()).toBeTruthy();
    expect(requestsOf(fetchMock)).toContain(`PUT ${base}/mute`);

    expect(await openMenu(user)).toEqual([SAFETY_UI.report, SAFETY_UI.unmute, SAFETY_UI.block]);
    await user.click(screen.getByRole('menuitem', { name: SAFETY_UI.unmute }));
    await waitFor(() => expect(screen.getByText(SAFETY_UI.unmuted)).toBeTruthy());
    expect(requestsOf(fetchMock)).toContain(`DELETE ${base}/mute`);
    expect(await openMenu(user)).toEqual([SAFETY_UI.report, SAFETY_UI.mute, SAFETY_UI.block]);
  });

  it('blocks after a confirmation that explains both ways and the follows ending; Seguir disappears until Desbloquear', async () => {
    const followed = { ...luis, viewerFollows: true, followersCount: 41 };
    const postsPath = `GET /api/posts?sort=recent&userId=${luis.id}`;
    const fetchMock = profileApi(followed, {
      [`PUT ${base}/block`]: safetyState(false, true),
      [`DELETE ${base}/block`]: safetyState(false, false),
      [postsPath]: () => jsonResponse(200, feedPage([])),
    });
    const postsRead = () => requestsOf(fetchMock).filter((request) => request === postsPath).length;
    const user = userEvent.setup();
    renderAt(`/perfil/${luis.id}`);
    expect((await screen.findByRole('button', { name: 'Siguiendo' })).getAttribute('aria-pressed')).toBe('true');

    await openMenu(user);
    await user.click(screen.getByRole('menuitem', { name: SAFETY_UI.block }));
    let dialog = screen.getByRole('dialog', { name: SAFETY_UI.blockTitle('Luis Pérez') });
    expect(within(dialog).getByText(SAFETY_UI.blockBothWays)).toBeTruthy();
    expect(within(dialog).getByText(SAFETY_UI.blockEndsFollows)).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(requestsOf(fetchMock)).not.toContain(`PUT ${base}/block`);

    await openMenu(user);
    await user.click(screen.getByRole('menuitem', { name: SAFETY_UI.block }));
    dialog = screen.getByRole('dialog', { name: SAFETY_UI.blockTitle('Luis Pérez') });
    await user.click(within(dialog).getByRole('button', { name: SAFETY_UI.block }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByText(MODERATION_MESSAGES.blocked)).toBeTruthy();
    expect(followButton()).toBeNull();
    expect(followersCount()).toBe('40 Seguidores');
    expect(requestsOf(fetchMock)).toContain(`PUT ${base}/block`);

    // The tabs are read again (the blocked fan's posts are gone): the Posts tab asks anew.
    await user.click(screen.getByRole('tab', { name: 'Posts' }));
    await waitFor(() => expect(postsRead()).toBe(1));

    expect(await openMenu(user)).toEqual([SAFETY_UI.report, SAFETY_UI.mute, SAFETY_UI.unblock]);
    await user.click(screen.getByRole('menuitem', { name: SAFETY_UI.unblock }));
    await waitFor(() => expect(screen.getByText(SAFETY_UI.unblocked)).toBeTruthy());
    // Unblocking does not bring the follow back.
    expect(screen.getByRole('button', { name: 'Seguir' }).getAttribute('aria-pressed')).toBe('false');
    expect(requestsOf(fetchMock)).toContain(`DELETE ${base}/block`);
    await user.click(screen.getByRole('tab', { name: 'Posts' }));
    await waitFor(() => expect(postsRead()).toBe(2));
  });

  it('keeps the confirmation open with the server’s message when blocking fails', async () => {
    vi.spyOn(console, 'debug').mockImplementation(() => {});
    profileApi(luis, { [`PUT ${base}/block`]: () => jsonResponse(429, { statusCode: 429, error: 'Too Many Requests', message: 'Demasiadas solicitudes' }) });
    const user = userEvent.setup();
    renderAt(`/perfil/${luis.id}`);
    await openMenu(user);
    await user.click(screen.getByRole('menuitem', { name: SAFETY_UI.block }));
    const dialog = screen.getByRole('dialog', { name: SAFETY_UI.blockTitle('Luis Pérez') });
    await user.click(within(dialog).getByRole('button', { name: SAFETY_UI.block }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Demasiadas solicitudes');
    expect(followButton()).toBeTruthy();
  });

  it('says why when muting fails, and keeps the state', async () => {
    vi.spyOn(console, 'debug').mockImplementation(() => {});
    profileApi(luis, { [`PUT ${base}/mute`]: () => new Response('', { status: 503 }) });
    const user = userEvent.setup();
    renderAt(`/perfil/${luis.id}`);
    await openMenu(user);
    await user.click(screen.getByRole('menuitem', { name: SAFETY_UI.mute }));
    expect((await screen.findByRole('alert')).textContent).toBe(SAFETY_UI.changeFailed);
    expect(await openMenu(user)).toEqual([SAFETY_UI.report, SAFETY_UI.mute, SAFETY_UI.block]);
  });

  it('shows a profile the viewer blocked with Desbloquear and no Seguir', async () => {
    profileApi({ ...luis, viewerBlocked: true });
    const user = userEvent.setup();
    renderAt(`/perfil/${luis.id}`);
    expect(await screen.findByText(MODERATION_MESSAGES.blocked)).toBeTruthy();
    expect(followButton()).toBeNull();
    expect(await openMenu(user)).toEqual([SAFETY_UI.report, SAFETY_UI.mute, SAFETY_UI.unblock]);
  });

  it('offers a visitor only Reportar, which asks them to sign in', async () => {
    useSessionStore.setState({ user: null, status: 'ready' });
    profileApi(luis);
    const user = userEvent.setup();
    renderAt(`/perfil/${luis.id}`);
    expect(await openMenu(user)).toEqual([SAFETY_UI.report]);
    expect(screen.getByRole('link', { name: 'Inicia sesión para seguir' })).toBeTruthy();
    await user.click(screen.getByRole('menuitem', { name: SAFETY_UI.report }));
    const dialog = await screen.findByRole('dialog', { name: SAFETY_UI.report });
    expect(within(dialog).getByText(SAFETY_UI.reportSignIn)).toBeTruthy();
  });

  it('has no menu on the own profile, whose settings list the muted and blocked people', async () => {
    profileApi(mine);
    renderAt('/perfil');
    expect(await screen.findByRole('button', { name: 'Editar Perfil' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: SAFETY_UI.profileMenu })).toBeNull();
    expect(screen.getByRole('heading', { level: 3, name: SAFETY_UI.settingsTitle })).toBeTruthy();
    expect(await screen.findByText(MODERATION_MESSAGES.mutedListEmpty)).toBeTruthy();
    expect(await screen.findByText(MODERATION_MESSAGES.blockedListEmpty)).toBeTruthy();
    expect(screen.getByRole('region', { name: SAFETY_UI.mutedListTitle })).toBeTruthy();
    expect(screen.getByRole('region', { name: SAFETY_UI.blockedListTitle })).toBeTruthy();
  });
});
