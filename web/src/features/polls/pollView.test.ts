import { describe, expect, it } from 'vitest';
import { buildPoll, buildResults } from '../../test/fixtures';
import { buildOptionRows, displayStatus, formatPercent, isPointsMode, optionLabel, pointsLabel, seasonLabel, votesLabel } from './pollView';

describe('poll view helpers', () => {
  it('names an option by its contestant, else its text', () => {
    const poll = buildPoll();
    expect(optionLabel(poll.options[0]!)).toBe('Carla Ruiz');
    expect(optionLabel(poll.options[1]!)).toBe('Nadie');
  });

  it('labels the season and pluralises counts in Spanish', () => {
    expect(seasonLabel(buildPoll())).toBe('La Casa · Temporada 3 (2025)');
    expect(votesLabel(1)).toBe('1 voto');
    expect(votesLabel(1234)).toBe('1,234 votos');
    expect(pointsLabel(0)).toBe('0 puntos');
    expect(pointsLabel(1)).toBe('1 punto');
    expect(formatPercent(3 / 7)).toBe('42.9%');
  });

  it('detects points mode from maxPointsPerUser', () => {
    expect(isPointsMode(buildPoll())).toBe(false);
    expect(isPointsMode(buildPoll({ pointsConfig: { pointsPerVote: 1, maxPointsPerUser: 10, dailyReset: true, bonusForSharing: 5 } }))).toBe(true);
  });

  it('shows an active poll as closed once its end is reached', () => {
    expect(displayStatus(buildPoll({ status: 'active' }), false)).toBe('active');
    expect(displayStatus(buildPoll({ status: 'active' }), true)).toBe('closed');
    expect(displayStatus(buildPoll({ status: 'closed' }), false)).toBe('closed');
  });

  it('orders options and computes each share of the total points', () => {
    const poll = buildPoll();
    const results = buildResults(poll, [
      { votes: 2, points: 6 },
      { votes: 1, points: 2 },
    ]);
    // The API's array order must not matter: `order` does.
    const rows = buildOptionRows({ ...poll, options: [...poll.options].reverse() }, results);

    expect(rows.map((row) => row.label)).toEqual(['Carla Ruiz', 'Nadie']);
    expect(rows.map((row) => row.share)).toEqual([0.75, 0.25]);
    expect(rows[0]?.result?.totalVotes).toBe(2);
  });

  it('gives zero shares when nobody voted, and no result without results', () => {
    const poll = buildPoll();
    expect(buildOptionRows(poll, buildResults(poll, [])).map((row) => row.share)).toEqual([0, 0]);
    expect(buildOptionRows(poll, null).every((row) => row.result === null && row.share === 0)).toBe(true);
  });
});
