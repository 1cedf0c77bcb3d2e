import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Link, MemoryRouter } from 'react-router-dom';
import type { PageViewInput } from '@tribuna/contracts/api/pageViews';
import { usePageViews } from './usePageViews';

function Tracked() {
  usePageViews();
  return <Link to="/wall">Muro</Link>;
}

const sentBodies = (fetchMock: ReturnType<typeof vi.fn>) =>
  fetchMock.mock.calls.map(([, init]) => JSON.parse((init as RequestInit).body as string) as PageViewInput);

describe('usePageViews', () => {
  it('posts a view per path change, with the previous in-app page as referrer', async () => {
    const fetchMock = vi.fn().mockResolvedValue(new Response(null, { status: 204 }));
    vi.stubGlobal('fetch', fetchMock);
    const user = userEvent.setup();

    render(
      <MemoryRouter initialEntries={['/']}>
        <Tracked />
      </MemoryRouter>,
    );
    await user.click(screen.getByRole('link', { name: 'Muro' }));

    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/page-views');
    const [first, second] = sentBodies(fetchMock);
    expect(first).toMatchObject({ path: '/', referrer: null, deviceType: 'desktop' });
    expect(first?.sessionId).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
    expect(second).toMatchObject({ path: '/wall', referrer: `${window.location.origin}/`, sessionId: first?.sessionId });
  });

  it('only logs a failure', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('offline')));
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => {});

    render(
      <MemoryRouter>
        <Tracked />
      </MemoryRouter>,
    );

    await waitFor(() => expect(debug).toHaveBeenCalledWith('No se pudo registrar la visita', expect.anything()));
  });
});
