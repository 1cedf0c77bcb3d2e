import type { JobContext } from '../context.ts';
import { recentDays, upsertDailyReport, type DailyReport } from './repository.ts';

const DAY_FORMAT = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar day written YYYY-MM-DD (2025-02-30 is refused). */
export function isCalendarDay(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const match = DAY_FORMAT.exec(value);
  if (!match) return false;
  const [, y, m, d] = match.map(Number) as [number, number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

export const MAX_RECENT_DAYS = 366;

export async function aggregateDay(ctx: JobContext, day: string): Promise<DailyReport> {
  const report = await upsertDailyReport(ctx.db, day, ctx.config.showTimezone);
  ctx.logger.debug({ report }, 'daily report aggregated');
  return report;
}

/** Aggregates today and the `days - 1` days before it, "today" being decided now, in SHOW_TIMEZONE. */
export async function aggregateRecentDays(ctx: JobContext, days: number): Promise<DailyReport[]> {
  const reports: DailyReport[] = [];
  for (const day of await recentDays(ctx.db, ctx.config.showTimezone, days)) {
    reports.push(await aggregateDay(ctx, day));
  }
  ctx.logger.info({ days: reports.map((r) => r.day) }, 'recent daily reports aggregated');
  return reports;
}
