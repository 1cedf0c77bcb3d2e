import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import type { Poll } from '@tribuna/contracts/api/polls';
import { useSessionStore } from '../../lib/session/sessionStore';
import { buildPoll, buildResults } from '../../test/fixtures';
import { PollCard } from './PollCard';

const NOW = new Date('2025-01-05T12:00:00.000Z');
const inMs = (ms: number) => new Date(NOW.getTime() + ms).toISOString();

function renderCard(poll: Poll) {
  return render(
    <MemoryRouter>
      <PollCard poll={poll} results={buildResults(poll, [])} />
    </MemoryRouter>,
  );
}

/** The four countdown cells, as "value label" strings. */
const cells = () => Array.from(screen.getByRole('timer').querySelectorAll('li'), (li) => Array.from(li.children, (child) => child.textContent).join(' '));

describe('PollCard countdown', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(NOW);
    useSessionStore.setState({ user: null, status: 'ready' });
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('counts down days, hours, minutes and seconds every second', () => {
    const end = ((1 * 24 + 2) * 3600 + 3 * 60 + 5) * 1000;
    renderCard(buildPoll({ endDate: inMs(end) }));

    expect(cells()).toEqual(['01 días', '02 horas', '03 minutos', '05 segundos']);
    expect(screen.getByRole('timer').getAttribute('aria-label')).toBe('La votación cierra en 1 día, 2 horas, 3 minutos');

    act(() => vi.advanceTimersByTime(1000));
    expect(cells()).toEqual(['01 días', '02 horas', '03 minutos', '04 segundos']);
  });

  it('stops at zero and shows the poll as closed', () => {
    renderCard(buildPoll({ endDate: inMs(2000) }));
    expect(screen.getByText('Activa')).toBeTruthy();

    act(() => vi.advanceTimersByTime(2000));

    expect(screen.queryByRole('timer')).toBeNull();
    expect(screen.getByText('Cerrada')).toBeTruthy();
    expect(screen.getByText('La votación ha cerrado')).toBeTruthy();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('does not tick for a closed poll', () => {
    renderCard(buildPoll({ status: 'closed', endDate: inMs(-60_000) }));
    expect(screen.queryByRole('timer')).toBeNull();
    expect(screen.getByText(/^Votación cerrada el /)).toBeTruthy();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('does not tick for an active poll without an end date', () => {
    renderCard(buildPoll({ endDate: null }));
    expect(screen.queryByRole('timer')).toBeNull();
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('PollCard voided votes', () => {
  beforeEach(() => {
    useSessionStore.setState({ user: null, status: 'ready' });
  });

  function renderWithVoided(voidedVotes: number | undefined) {
    const poll = buildPoll();
    return render(
      <MemoryRouter>
        <PollCard poll={poll} results={{ ...buildResults(poll, []), voidedVotes }} />
      </MemoryRouter>,
    );
  }

  it('says under the totals how many votes moderation voided', () => {
    const view = renderWithVoided(3);
    expect(screen.getByText('3 votos anulados por moderación')).toBeTruthy();
    view.unmount();
    renderWithVoided(1);
    expect(screen.getByText('1 voto anulado por moderación')).toBeTruthy();
  });

  it('says nothing when no vote was voided', () => {
    const view = renderWithVoided(0);
    expect(screen.queryByText(/anulados? por moderación/)).toBeNull();
    view.unmount();
    renderWithVoided(undefined);
    expect(screen.queryByText(/anulados? por moderación/)).toBeNull();
  });
});
