import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AuthSession } from '@tribuna/contracts/api/auth';
import { buildProfile, jsonResponse } from '../../test/fixtures';
import { useSessionStore } from './sessionStore';

const profile = buildProfile();
const factorId = '00000000-0000-4000-8000-0000000000ff';
const session = (overrides: Partial<AuthSession>): AuthSession => ({ status: 'signed_out', user: null, factorId: null, ...overrides });

describe('session store', () => {
  beforeEach(() => {
    useSessionStore.setState({ user: null, status: 'loading', mfaFactorId: null });
    vi.spyOn(console, 'debug').mockImplementation(() => {});
  });

  it('starts loading and keeps the profile of a signed-in session from GET /api/auth/session', async () => {
    const fetchMock = vi.fn().mockResolvedValue(jsonResponse(200, session({ status: 'signed_in', user: profile })));
    vi.stubGlobal('fetch', fetchMock);
    expect(useSessionStore.getState().status).toBe('loading');

    await useSessionStore.getState().load();

    expect(fetchMock).toHaveBeenCalledWith('/api/auth/session', expect.objectContaining({ method: 'GET' }));
    expect(useSessionStore.getState()).toMatchObject({ user: profile, status: 'ready', mfaFactorId: null });
  });

  it('keeps no user but remembers the factor while the second step is pending', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(jsonResponse(200, session({ status: 'mfa_required', factorId }))));

    await useSessionStore.getState().load();

    expect(useSessionStore.getState()).toMatchObject({ user: null, status: 'ready', mfaFactorId: factorId });
  });

  it('treats signed_out as no user', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(jsonResponse(200, session({}))));

    await useSessionStore.getState().load();

    expect(useSessionStore.getState()).toMatchObject({ user: null, status: 'ready', mfaFactorId: null });
  });

  it('treats a network failure as signed out', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('offline')));

    await useSessionStore.getState().load();

    expect(useSessionStore.getState()).toMatchObject({ user: null, status: 'ready' });
  });

  it('adopts a session set while an older read was still on its way', async () => {
    let answer: (response: Response) => void = () => {};
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>((resolve) => (answer = resolve))),
    );

    const loading = useSessionStore.getState().load();
    useSessionStore.getState().setFromAuthSession(session({ status: 'signed_in', user: profile }));
    answer(jsonResponse(200, session({ status: 'mfa_required', factorId })));
    await loading;

    expect(useSessionStore.getState()).toMatchObject({ user: profile, status: 'ready', mfaFactorId: null });
  });

  it('signs out with POST /auth/logout and forgets the user, even when the call fails', async () => {
    useSessionStore.setState({ user: profile, status: 'ready', mfaFactorId: factorId });
    const fetchMock = vi.fn().mockResolvedValue(new Response('', { status: 404 }));
    vi.stubGlobal('fetch', fetchMock);

    await useSessionStore.getState().signOut();

    expect(fetchMock).toHaveBeenCalledWith(
      '/auth/logout',
      expect.objectContaining({ method: 'POST', headers: expect.objectContaining({ 'X-Requested-With': 'tribuna' }) }),
    );
    expect(useSessionStore.getState()).toMatchObject({ user: null, mfaFactorId: null });
  });

  it('replaces the signed-in profile with a fresher copy, but never adopts somebody else', () => {
    useSessionStore.setState({ user: profile, status: 'ready' });
    const saved = { ...profile, displayName: 'Ana Editada', avatarUrl: '/media/nuevo.webp' };
    useSessionStore.getState().replaceProfile(saved);
    expect(useSessionStore.getState().user).toEqual(saved);

    useSessionStore.getState().replaceProfile(buildProfile({ displayName: 'Otra persona' }));
    expect(useSessionStore.getState().user).toEqual(saved);

    useSessionStore.setState({ user: null });
    useSessionStore.getState().replaceProfile(saved);
    expect(useSessionStore.getState().user).toBeNull();
  });

  it('forgets the session locally without asking the server (after deleting the account)', () => {
    useSessionStore.setState({ user: profile, email: 'ana@example.com', status: 'ready', mfaFactorId: null });
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    useSessionStore.getState().clearLocally();
    expect(useSessionStore.getState()).toMatchObject({ user: null, email: null, mfaFactorId: null, status: 'ready' });
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
