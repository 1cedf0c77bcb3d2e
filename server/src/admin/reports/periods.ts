import { REPORT_MAX_DAYS, REPORT_MESSAGES, type ReportPeriod } from '@tribuna/contracts/reportRules';
import { badRequest } from '../../http/errors.ts';

/** A range of calendar days of SHOW_TIMEZONE, both ends included, as YYYY-MM-DD. */
export interface DayRange {
  from: string;
  to: string;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const MS_PER_DAY = 24 * 60 * 60 * 1000;

/** The calendar day `now` falls on in `timeZone` (the runtime's tz database, DST included). */
export function dayIn(timeZone: string, now: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

/** Parses a real calendar day (2025-02-30 is not one) to its UTC midnight in ms, else null. */
function parseDay(value: string): number | null {
  const match = DAY.exec(value);
  if (!match) return null;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const ms = Date.UTC(y, m - 1, d);
  const date = new Date(ms);
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d ? ms : null;
}

const format = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export function addDays(day: string, days: number): string {
  return format(parseDay(day)! + days * MS_PER_DAY);
}

/** The same day `months` months earlier, clamped to the end of a shorter month (03-31 → 02-28). */
export function monthsBefore(day: string, months: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const first = new Date(Date.UTC(y, m - 1 - months, 1));
  const lastDay = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  return format(Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), Math.min(d, lastDay)));
}

/** Number of days of a range, both ends included. */
export function daysIn(range: DayRange): number {
  return Math.round((parseDay(range.to)! - parseDay(range.from)!) / MS_PER_DAY) + 1;
}

/**
 * The days a period covers (spec §7), decided on the server in SHOW_TIMEZONE at `now`: today;
 * yesterday; week = the last 7 days, today included; month, 3 and 6 months = the same day that
 * many months back through today; custom = from..to, both required, in order, at most
 * REPORT_MAX_DAYS days (400 with the screen's message otherwise).
 */
export function resolvePeriod(query: { period: ReportPeriod; from?: string; to?: string }, timeZone: string, now: Date): DayRange {
  const today = dayIn(timeZone, now);
  switch (query.period) {
    case 'today':
      return { from: today, to: today };
    case 'yesterday': {
      const yesterday = addDays(today, -1);
      return { from: yesterday, to: yesterday };
    }
    case 'week':
      return { from: addDays(today, -6), to: today };
    case 'month':
      return { from: monthsBefore(today, 1), to: today };
    case '3months':
      return { from: monthsBefore(today, 3), to: today };
    case '6months':
      return { from: monthsBefore(today, 6), to: today };
    case 'custom': {
      const from = query.from ? parseDay(query.from) : null;
      const to = query.to ? parseDay(query.to) : null;
      if (from === null || to === null) throw badRequest(REPORT_MESSAGES.customDatesRequired);
      if (from > to) throw badRequest(REPORT_MESSAGES.customOrder);
      const range = { from: query.from!, to: query.to! };
      if (daysIn(range) > REPORT_MAX_DAYS) throw badRequest(REPORT_MESSAGES.customTooLong);
      return range;
    }
  }
}
