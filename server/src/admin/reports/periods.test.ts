import { describe, expect, it } from 'vitest';
import { REPORT_MESSAGES } from '@tribuna/contracts/reportRules';
import { HttpError } from '../../http/errors.ts';
import { dayIn, daysIn, resolvePeriod } from './periods.ts';

const TZ = 'America/Mexico_City';

function refusal(run: () => unknown): { status: number; message: string } {
  try {
    run();
  } catch (err) {
    if (err instanceof HttpError) return { status: err.statusCode, message: err.message };
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('report periods in SHOW_TIMEZONE, at a fixed now', () => {
  // 2025-03-01T05:30Z is still 2025-02-28 23:30 in Mexico City (UTC-6): "today" is the 28th there.
  const lateEvening = new Date('2025-03-01T05:30:00Z');

  it('decides today in the show time zone, not in UTC', () => {
    expect(dayIn(TZ, lateEvening)).toBe('2025-02-28');
    expect(dayIn(TZ, new Date('2025-03-01T06:00:00Z'))).toBe('2025-03-01');
    expect(dayIn('UTC', lateEvening)).toBe('2025-03-01');
  });

  it.each([
    ['today', '2025-02-28', '2025-02-28'],
    ['yesterday', '2025-02-27', '2025-02-27'],
    ['week', '2025-02-22', '2025-02-28'],
    ['month', '2025-01-28', '2025-02-28'],
    ['3months', '2024-11-28', '2025-02-28'],
    ['6months', '2024-08-28', '2025-02-28'],
  ] as const)('%s → %s .. %s', (period, from, to) => {
    expect(resolvePeriod({ period }, TZ, lateEvening)).toEqual({ from, to });
  });

  it('week is seven days, today included', () => {
    expect(daysIn(resolvePeriod({ period: 'week' }, TZ, lateEvening))).toBe(7);
  });

  it('a month back from the 31st lands on the last day of a shorter month (leap years included)', () => {
    const march31 = new Date('2025-03-31T18:00:00Z');
    expect(resolvePeriod({ period: 'month' }, TZ, march31)).toEqual({ from: '2025-02-28', to: '2025-03-31' });
    expect(resolvePeriod({ period: '3months' }, TZ, march31)).toEqual({ from: '2024-12-31', to: '2025-03-31' });
    expect(resolvePeriod({ period: '6months' }, TZ, march31)).toEqual({ from: '2024-09-30', to: '2025-03-31' });
    expect(resolvePeriod({ period: 'month' }, TZ, new Date('2024-03-30T18:00:00Z'))).toEqual({ from: '2024-02-29', to: '2024-03-30' });
    // January 1st: a month back is December of the year before.
    expect(resolvePeriod({ period: 'month' }, TZ, new Date('2025-01-01T18:00:00Z'))).toEqual({ from: '2024-12-01', to: '2025-01-01' });
  });

  it('yesterday across a year boundary', () => {
    expect(resolvePeriod({ period: 'yesterday' }, TZ, new Date('2025-01-01T07:00:00Z'))).toEqual({ from: '2024-12-31', to: '2024-12-31' });
  });

  it('custom: both days included, as given', () => {
    expect(resolvePeriod({ period: 'custom', from: '2025-01-10', to: '2025-01-10' }, TZ, lateEvening)).toEqual({ from: '2025-01-10', to: '2025-01-10' });
    const year = resolvePeriod({ period: 'custom', from: '2024-01-01', to: '2024-12-31' }, TZ, lateEvening);
    expect(daysIn(year)).toBe(366);
  });

  it('custom: both dates required (missing, empty or not a calendar day)', () => {
    const required = { status: 400, message: REPORT_MESSAGES.customDatesRequired };
    expect(refusal(() => resolvePeriod({ period: 'custom' }, TZ, lateEvening))).toEqual(required);
    expect(refusal(() => resolvePeriod({ period: 'custom', from: '2025-01-01' }, TZ, lateEvening))).toEqual(required);
    expect(refusal(() => resolvePeriod({ period: 'custom', to: '2025-01-01' }, TZ, lateEvening))).toEqual(required);
    expect(refusal(() => resolvePeriod({ period: 'custom', from: '', to: '2025-01-01' }, TZ, lateEvening))).toEqual(required);
    expect(refusal(() => resolvePeriod({ period: 'custom', from: '2025-02-30', to: '2025-03-01' }, TZ, lateEvening))).toEqual(required);
  });

  it('custom: Desde after Hasta is refused', () => {
    expect(refusal(() => resolvePeriod({ period: 'custom', from: '2025-01-02', to: '2025-01-01' }, TZ, lateEvening))).toEqual({
      status: 400,
      message: REPORT_MESSAGES.customOrder,
    });
  });

  it('custom: at most 400 days', () => {
    expect(daysIn(resolvePeriod({ period: 'custom', from: '2024-01-01', to: '2025-02-03' }, TZ, lateEvening))).toBe(400);
    expect(refusal(() => resolvePeriod({ period: 'custom', from: '2024-01-01', to: '2025-02-04' }, TZ, lateEvening))).toEqual({
      status: 400,
      message: REPORT_MESSAGES.customTooLong,
    });
  });
});
