import { describe, expect, it } from 'vitest';
import { countdownParts, formatDate, formatDateTime, memberSince, relativeTime } from './dates';

// Dates are built from local components so the assertions hold in any time zone.
const jan5 = new Date(2025, 0, 5, 14, 30);

describe('formatDate / formatDateTime', () => {
  it('formats a date in Spanish', () => {
    expect(formatDate(jan5)).toBe('5 de enero de 2025');
    expect(formatDate(new Date(2024, 11, 31, 12).toISOString())).toBe('31 de diciembre de 2024');
  });

  it('formats a date with its time', () => {
    const text = formatDateTime(jan5);
    expect(text).toContain('5 ene 2025');
    expect(text).toContain('14:30');
  });
});

describe('memberSince', () => {
  it('reads "Miembro desde {month year}"', () => {
    expect(memberSince(jan5)).toBe('Miembro desde enero de 2025');
    expect(memberSince(new Date(2024, 8, 15).getTime())).toBe('Miembro desde septiembre de 2024');
  });
});

describe('relativeTime', () => {
  const now = new Date(2025, 0, 10, 12, 0, 0);
  const ago = (ms: number) => new Date(now.getTime() - ms);

  it('says "ahora" under a minute and for future dates', () => {
    expect(relativeTime(ago(0), now)).toBe('ahora');
    expect(relativeTime(ago(59_000), now)).toBe('ahora');
    expect(relativeTime(ago(-3_600_000), now)).toBe('ahora');
  });

  it('counts minutes, hours, days, weeks, months and years', () => {
    expect(relativeTime(ago(60_000), now)).toBe('hace 1 minuto');
    expect(relativeTime(ago(5 * 60_000), now)).toBe('hace 5 minutos');
    expect(relativeTime(ago(2 * 3_600_000 + 59 * 60_000), now)).toBe('hace 2 horas');
    expect(relativeTime(ago(3 * 86_400_000), now)).toBe('hace 3 días');
    expect(relativeTime(ago(14 * 86_400_000), now)).toBe('hace 2 semanas');
    expect(relativeTime(ago(65 * 86_400_000), now)).toBe('hace 2 meses');
    expect(relativeTime(ago(800 * 86_400_000), now)).toBe('hace 2 años');
  });

  it('accepts ISO strings', () => {
    expect(relativeTime('2025-01-10T10:00:00.000Z', '2025-01-10T11:00:00.000Z')).toBe('hace 1 hora');
  });
});

describe('countdownParts', () => {
  it('splits milliseconds into days, hours, minutes and seconds', () => {
    const ms = ((2 * 24 + 3) * 3600 + 4 * 60 + 5) * 1000 + 999;
    expect(countdownParts(ms)).toEqual({ days: 2, hours: 3, minutes: 4, seconds: 5 });
  });

  it('never goes below zero', () => {
    expect(countdownParts(-5000)).toEqual({ days: 0, hours: 0, minutes: 0, seconds: 0 });
  });
});
