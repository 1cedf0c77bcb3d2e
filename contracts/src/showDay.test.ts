import { describe, expect, it } from 'vitest';
import { addDays, nextMidnight, showDayOf, startOfShowDay, startOfToday } from './showDay.ts';

describe('show days', () => {
  it('counts days in the show time zone, not UTC', () => {
    // 2025-01-16 05:59 UTC is still the 15th in Mexico City (UTC-6).
    expect(showDayOf('America/Mexico_City', new Date('2025-01-16T05:59:59Z'))).toBe('2025-01-15');
    expect(showDayOf('America/Mexico_City', new Date('2025-01-16T06:00:00Z'))).toBe('2025-01-16');
  });

  it('finds 00:00 of a day and the next one', () => {
    expect(startOfShowDay('America/Mexico_City', '2025-01-15').toISOString()).toBe('2025-01-15T06:00:00.000Z');
    const now = new Date('2025-01-15T23:00:00Z');
    expect(startOfToday('America/Mexico_City', now).toISOString()).toBe('2025-01-15T06:00:00.000Z');
    expect(nextMidnight('America/Mexico_City', now).toISOString()).toBe('2025-01-16T06:00:00.000Z');
    expect(nextMidnight('America/Mexico_City', new Date('2025-01-16T05:59:59.999Z')).toISOString()).toBe('2025-01-16T06:00:00.000Z');
    expect(addDays('2024-12-31', 1)).toBe('2025-01-01');
  });

  it('follows daylight saving changes', () => {
    // Madrid: 00:00 is UTC+1 before the March change and UTC+2 after it.
    expect(startOfShowDay('Europe/Madrid', '2025-03-30').toISOString()).toBe('2025-03-29T23:00:00.000Z');
    expect(startOfShowDay('Europe/Madrid', '2025-03-31').toISOString()).toBe('2025-03-30T22:00:00.000Z');
    // Santiago skipped 00:00 on 2024-09-08 (clocks went to 01:00): the day starts at 01:00 local.
    expect(startOfShowDay('America/Santiago', '2024-09-08').toISOString()).toBe('2024-09-08T04:00:00.000Z');
    expect(showDayOf('America/Santiago', new Date('2024-09-08T03:59:59Z'))).toBe('2024-09-07');
  });
});
