/** Dates are shown in Spanish (es-ES), as the spec says. */
const LOCALE = 'es-ES';

type DateInput = Date | string | number;

const toDate = (value: DateInput): Date => (value instanceof Date ? value : new Date(value));

const dateFormat = new Intl.DateTimeFormat(LOCALE, { day: 'numeric', month: 'long', year: 'numeric' });
const dateTimeFormat = new Intl.DateTimeFormat(LOCALE, {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});
const monthYearFormat = new Intl.DateTimeFormat(LOCALE, { month: 'long', year: 'numeric' });
const relativeFormat = new Intl.RelativeTimeFormat('es', { numeric: 'always' });

/** "5 de enero de 2025" */
export function formatDate(value: DateInput): string {
  return dateFormat.format(toDate(value));
}

/** "5 ene 2025, 14:30" */
export function formatDateTime(value: DateInput): string {
  return dateTimeFormat.format(toDate(value));
}

/** "enero de 2025" */
export function formatMonthYear(value: DateInput): string {
  return monthYearFormat.format(toDate(value));
}

/** "Miembro desde enero de 2025" */
export function memberSince(value: DateInput): string {
  return `Miembro desde ${formatMonthYear(value)}`;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** "hace 5 minutos", "hace 2 horas", "hace 3 días"…; "ahora" under a minute or in the future. */
export function relativeTime(value: DateInput, now: DateInput = Date.now()): string {
  const elapsed = toDate(now).getTime() - toDate(value).getTime();
  if (!(elapsed >= MINUTE)) return 'ahora';
  if (elapsed < HOUR) return relativeFormat.format(-Math.floor(elapsed / MINUTE), 'minute');
  if (elapsed < DAY) return relativeFormat.format(-Math.floor(elapsed / HOUR), 'hour');
  if (elapsed < 7 * DAY) return relativeFormat.format(-Math.floor(elapsed / DAY), 'day');
  if (elapsed < 30 * DAY) return relativeFormat.format(-Math.floor(elapsed / (7 * DAY)), 'week');
  if (elapsed < 365 * DAY) return relativeFormat.format(-Math.floor(elapsed / (30 * DAY)), 'month');
  return relativeFormat.format(-Math.floor(elapsed / (365 * DAY)), 'year');
}

export interface CountdownParts {
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
}

/** Splits a remaining duration (negative counts as zero) into whole days, hours, minutes and seconds. */
export function countdownParts(remainingMs: number): CountdownParts {
  const total = Math.max(0, Math.floor(remainingMs / 1000));
  return {
    days: Math.floor(total / 86_400),
    hours: Math.floor((total % 86_400) / 3_600),
    minutes: Math.floor((total % 3_600) / 60),
    seconds: total % 60,
  };
}
