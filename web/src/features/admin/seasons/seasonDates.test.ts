import { describe, expect, it } from 'vitest';
import { ADMIN_MESSAGES } from '@tribuna/contracts/adminRules';
import { buildReality, buildSeason } from '../adminFixtures';
import { calendarToday, daysBetween, formatDateRange, remainingHint, seasonPhase } from './seasonDates';
import { NUMBER_INVALID, nextSeasonNumber, seasonInput, validateSeasonForm, type SeasonForm } from './seasonForm';

const TODAY = '2025-06-15';

describe('season dates', () => {
  it.each([
    ['2025-06-20', '2025-08-01', 'upcoming'],
    ['2025-06-15', '2025-08-01', 'current'],
    ['2025-05-01', '2025-06-15', 'current'],
    ['2025-05-01', '2025-06-14', 'finished'],
    ['2025-06-16', null, 'upcoming'],
    ['2025-06-01', null, 'current'],
    [null, '2025-06-14', 'finished'],
    [null, null, null],
  ] as const)('from %s to %s is %s', (start, end, phase) => {
    expect(seasonPhase(start, end, TODAY)).toBe(phase);
  });

  it('hints at the time left', () => {
    expect(remainingHint('2025-06-20', '2025-08-01', TODAY)).toBe('Faltan 5 días');
    expect(remainingHint('2025-06-16', null, TODAY)).toBe('Falta 1 día');
    expect(remainingHint('2025-06-01', '2025-06-18', TODAY)).toBe('Termina en 3 días');
    expect(remainingHint('2025-06-01', '2025-06-16', TODAY)).toBe('Termina en 1 día');
    expect(remainingHint('2025-06-01', '2025-06-15', TODAY)).toBe('Termina hoy');
    expect(remainingHint('2025-06-01', null, TODAY)).toBeNull();
    expect(remainingHint('2025-05-01', '2025-06-01', TODAY)).toBeNull();
  });

  it('counts calendar days across a daylight-saving change', () => {
    expect(daysBetween('2025-03-29', '2025-03-31')).toBe(2);
    expect(daysBetween('2025-10-25', '2025-10-27')).toBe(2);
  });

  it('formats the range in Spanish', () => {
    expect(formatDateRange('2025-03-07', '2025-05-30')).toBe('7 mar 2025 – 30 may 2025');
    expect(formatDateRange('2025-03-07', null)).toBe('Desde 7 mar 2025');
    expect(formatDateRange(null, '2025-05-30')).toBe('Hasta 30 may 2025');
    expect(formatDateRange(null, null)).toBe('Sin fechas');
  });

  it('reads today in local time', () => {
    expect(calendarToday(new Date(2025, 0, 5, 23, 59))).toBe('2025-01-05');
  });
});

describe('season form', () => {
  const valid: SeasonForm = { realityId: 'r1', number: '2', year: '2025', startDate: '2025-01-01', endDate: '2025-02-01', active: true };

  it('accepts a valid form and sends empty dates as null and an empty number not at all', () => {
    expect(validateSeasonForm(valid)).toEqual({});
    expect(seasonInput({ ...valid, number: '', startDate: '', endDate: '' })).toEqual({
      realityId: 'r1',
      year: 2025,
      startDate: null,
      endDate: null,
      active: true,
    });
  });

  it('applies the rules of §5', () => {
    expect(validateSeasonForm({ ...valid, realityId: '' })).toEqual({ realityId: ADMIN_MESSAGES.realityRequired });
    for (const year of ['', '1999', '2101', '20.5', 'abc']) expect(validateSeasonForm({ ...valid, year })).toEqual({ year: ADMIN_MESSAGES.yearRange });
    for (const year of ['2000', '2100']) expect(validateSeasonForm({ ...valid, year })).toEqual({});
    expect(validateSeasonForm({ ...valid, startDate: '2025-02-02' })).toEqual({ endDate: ADMIN_MESSAGES.seasonDates });
    expect(validateSeasonForm({ ...valid, startDate: '2025-02-01' })).toEqual({});
    expect(validateSeasonForm({ ...valid, number: '0' })).toEqual({ number: NUMBER_INVALID });
  });

  it('numbers a new season after the highest of its reality', () => {
    const casa = buildReality();
    const isla = buildReality();
    const seasons = [buildSeason(casa, { number: 1 }), buildSeason(casa, { number: 4 }), buildSeason(isla, { number: 9 })];
    expect(nextSeasonNumber(seasons, casa.id)).toBe(5);
    expect(nextSeasonNumber(seasons, isla.id)).toBe(10);
    expect(nextSeasonNumber(seasons, 'nueva')).toBe(1);
  });
});
