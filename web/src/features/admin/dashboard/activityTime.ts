const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const shortDate = new Intl.DateTimeFormat('es-ES', { day: 'numeric', month: 'short', year: 'numeric' });

/**
 * The dashboard's activity time (spec §2): 'Hace N min' under 60 minutes, 'Hace Nh' under 24
 * hours, 'Hace Nd' under 7 days, otherwise a short Spanish date ("5 ene 2025").
 */
export function activityTime(value: string | Date, now: number = Date.now()): string {
  const date = value instanceof Date ? value : new Date(value);
  const elapsed = Math.max(0, now - date.getTime());
  if (elapsed < HOUR) return `Hace ${Math.floor(elapsed / MINUTE)} min`;
  if (elapsed < DAY) return `Hace ${Math.floor(elapsed / HOUR)}h`;
  if (elapsed < 7 * DAY) return `Hace ${Math.floor(elapsed / DAY)}d`;
  return shortDate.format(date);
}
