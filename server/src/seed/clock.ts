// Time and randomness for the demo data: relative to "now", days in SHOW_TIMEZONE, reproducible.
import { addDays, showDayOf } from '@tribuna/contracts/showDay';

const HOUR = 3_600_000;

export class DemoClock {
  constructor(
    readonly now: Date,
    readonly timeZone: string,
  ) {}

  hoursAgo(hours: number): Date {
    return new Date(this.now.getTime() - hours * HOUR);
  }

  daysAgo(days: number): Date {
    return this.hoursAgo(days * 24);
  }

  hoursAhead(hours: number): Date {
    return new Date(this.now.getTime() + hours * HOUR);
  }

  /** Calendar day (YYYY-MM-DD) of an instant in the show's time zone. */
  dayOf(date: Date): string {
    return showDayOf(this.timeZone, date);
  }

  /** Today's calendar day shifted by `offset` days (negative = past). */
  dayFromToday(offset: number): string {
    return addDays(this.dayOf(this.now), offset);
  }

  year(): number {
    return Number(this.dayOf(this.now).slice(0, 4));
  }
}

/** mulberry32: small seeded PRNG so every seeded database looks the same. */
export class DemoRandom {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** A uniformly random instant in [from, to]. */
  between(from: Date, to: Date): Date {
    return new Date(from.getTime() + this.next() * Math.max(0, to.getTime() - from.getTime()));
  }

  shuffle<T>(items: readonly T[]): T[] {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [copy[i], copy[j]] = [copy[j]!, copy[i]!];
    }
    return copy;
  }

  hex(length: number): string {
    let out = '';
    while (out.length < length) out += Math.floor(this.next() * 16).toString(16);
    return out;
  }
}
