import { beforeEach, describe, expect, it, vi } from 'vitest';
import { buildProfile, jsonResponse } from '../../test/fixtures';
import { useSessionStore } from './sessionStore';

const profile = buildProfile();
describe('session store', () => {
  beforeEach(() => {
    useSessionStore.setState({ user: null, status: 'loading' });
    vi.spyOn(console, 'debug').mockImplementation(() => {});
  });

  it('starts loading and keeps the profile answered by GET /api/me', async () => {
    const fetchMock = vi.fn().mockResolvedValue(jsonResponse(200, profile));
    vi.stubGlobal('fetch', fetchMock);
    expect(useSessionStore.getState().status).toBe('loading');

    await useSessionStore.getState().load();

    expect(fetchMock).toHaveBeenCalledWith('/api/me', expect.objectContaining({ method: 'GET' }));
    expect(useSessionStore.getState()).toMatchObject({ user: profile, status: 'ready' });
  });

  it('treats 401 as signed out', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(jsonResponse(401, { statusCode: 401, error: 'Unauthorized', message: 'Unauthorized' })));

    await useSessionStore.getState().load();

    expect(useSessionStore.getState()).toMatchObject({ user: null, status: 'ready' });
  });

  it('treats a network failure as signed out', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('offline')));

    await useSessionStore.getState().load();

    expect(useSessionStore.getState()).toMatchObject({ user: null, status: 'ready' });
  });

  it('signs out with POST /auth/logout and forgets the user, even when the call fails', async () => {
    useSessionStore.setState({ user: profile, status: 'ready' });
    const fetchMock = vi.fn().mockResolvedValue(new Response('', { status: 404 }));
    vi.stubGlobal('fetch', fetchMock);

    await useSessionStore.getState().signOut();

    expect(fetchMock).toHaveBeenCalledWith(
      '/auth/logout',
      expect.objectContaining({ method: 'POST', headers: expect.objectContaining({ 'X-Requested-With': 'tribuna' }) }),
    );
    expect(useSessionStore.getState().user).toBeNull();
  });
});
