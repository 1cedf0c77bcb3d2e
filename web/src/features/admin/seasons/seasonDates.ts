// Season dates are calendar dates (YYYY-MM-DD), compared as such in the admin's own time zone.

export type SeasonPhase = 'upcoming' | 'current' | 'finished';

export const SEASON_PHASE_LABELS: Record<SeasonPhase, string> = { upcoming: 'Próxima', current: 'En curso', finished: 'Finalizada' };

const DAY = 86_400_000;

/** "2025-03-07" as a local date (new Date("2025-03-07") would be UTC midnight, a day early west of Greenwich). */
export function parseCalendarDate(value: string): Date {
  const [y, m, d] = value.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d);
}

/** Today's calendar date, YYYY-MM-DD, in local time. */
export function calendarToday(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** Whole days from calendar date `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((parseCalendarDate(to).getTime() - parseCalendarDate(from).getTime()) / DAY);
}

/**
 * Spec §2: 'Próxima' before the start date, 'Finalizada' after the end date, otherwise 'En curso'.
 * A season without dates has no phase.
 */
export function seasonPhase(startDate: string | null, endDate: string | null, today: string = calendarToday()): SeasonPhase | null {
  if (!startDate && !endDate) return null;
  if (startDate && today < startDate) return 'upcoming';
  if (endDate && today > endDate) return 'finished';
  return 'current';
}

const days = (n: number) => `${n} ${n === 1 ? 'día' : 'días'}`;

/** The remaining-time hint: 'Faltan 5 días' (to the start), 'Termina en 3 días' / 'Termina hoy'; none once finished. */
export function remainingHint(startDate: string | null, endDate: string | null, today: string = calendarToday()): string | null {
  const phase = seasonPhase(startDate, endDate, today);
  if (phase === 'upcoming' && startDate) {
    const n = daysBetween(today, startDate);
    return n === 1 ? 'Falta 1 día' : `Faltan ${days(n)}`;
  }
  if (phase === 'current' && endDate) {
    const n = daysBetween(today, endDate);
    return n === 0 ? 'Termina hoy' : `Termina en ${days(n)}`;
  }
  return null;
}

const shortDate = new Intl.DateTimeFormat('es-ES', { day: 'numeric', month: 'short', year: 'numeric' });

/** "7 mar 2025 – 30 may 2025"; an open end reads "Desde …" / "Hasta …"; no dates: "Sin fechas". */
export function formatDateRange(startDate: string | null, endDate: string | null): string {
  const f = (value: string) => shortDate.format(parseCalendarDate(value));
  if (startDate && endDate) return `${f(startDate)} – ${f(endDate)}`;
  if (startDate) return `Desde ${f(startDate)}`;
  if (endDate) return `Hasta ${f(endDate)}`;
  return 'Sin fechas';
}
