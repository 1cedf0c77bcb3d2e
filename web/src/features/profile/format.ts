// Dates of the profile screen, in Mexican Spanish.
const LOCALE = 'es-MX';

const monthFormat = new Intl.DateTimeFormat(LOCALE, { month: 'long' });
const yearFormat = new Intl.DateTimeFormat(LOCALE, { year: 'numeric' });
const dateTimeFormat = new Intl.DateTimeFormat(LOCALE, { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });
const dateFormat = new Intl.DateTimeFormat(LOCALE, { day: 'numeric', month: 'short', year: 'numeric' });

/** "noviembre 2026" (the spec's {month year}, without "de"). */
export function monthYear(iso: string): string {
  const date = new Date(iso);
  return `${monthFormat.format(date)} ${yearFormat.format(date)}`;
}

/** "Miembro desde noviembre 2026" */
export const memberSinceText = (iso: string) => `Miembro desde ${monthYear(iso)}`;

/** "5 ene 2025, 14:30" */
export const dateTimeText = (iso: string) => dateTimeFormat.format(new Date(iso));

/** "5 ene 2025" */
export const dateText = (iso: string) => dateFormat.format(new Date(iso));
