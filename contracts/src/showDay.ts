// Calendar days of the show's time zone (SHOW_TIMEZONE): daily point resets, once-per-day shares
// and awards all count days there, whatever the server's own time zone.

const dayFormats = new Map<string, Intl.DateTimeFormat>();
const partFormats = new Map<string, Intl.DateTimeFormat>();

function dayFormat(timeZone: string): Intl.DateTimeFormat {
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(timeZone, format);
  }
  return format;
}

function partFormat(timeZone: string): Intl.DateTimeFormat {
  let format = partFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    partFormats.set(timeZone, format);
  }
  return format;
}

/** The calendar day (YYYY-MM-DD) of an instant in `timeZone`. */
export function showDayOf(timeZone: string, instant: Date): string {
  return dayFormat(timeZone).format(instant);
}

/** How far `timeZone`'s wall clock is ahead of UTC at `instant`, in ms. */
function offsetMs(timeZone: string, instant: number): number {
  const parts: Record<string, number> = {};
  for (const part of partFormat(timeZone).formatToParts(new Date(instant))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  const wallClockAsUtc = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!);
  return wallClockAsUtc - Math.floor(instant / 1000) * 1000;
}

/** The first instant of a calendar day (YYYY-MM-DD) in `timeZone`. */
export function startOfShowDay(timeZone: string, day: string): Date {
  const midnightAsUtc = Date.parse(`${day}T00:00:00Z`);
  // A second pass settles the offset when it changes between UTC midnight and local midnight.
  const first = midnightAsUtc - offsetMs(timeZone, midnightAsUtc);
  const second = midnightAsUtc - offsetMs(timeZone, first);
  // Where a DST jump skips 00:00, the day starts at the first instant that belongs to it.
  const instant = [Math.min(first, second), Math.max(first, second)].find((t) => showDayOf(timeZone, new Date(t)) === day) ?? first;
  return new Date(instant);
}

/** YYYY-MM-DD shifted by `days` calendar days. */
export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** 00:00 today in `timeZone` (the start of the daily points window). */
export function startOfToday(timeZone: string, now: Date): Date {
  return startOfShowDay(timeZone, showDayOf(timeZone, now));
}

/** The next 00:00 in `timeZone` (when the daily points window resets). */
export function nextMidnight(timeZone: string, now: Date): Date {
  return startOfShowDay(timeZone, addDays(showDayOf(timeZone, now), 1));
}
