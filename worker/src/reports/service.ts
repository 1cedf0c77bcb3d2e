import type { JobContext } from '../context.ts';
import { recentRange, recomputeAllDays, recomputeDays, refreshToday, type DailyReport, type FullRecompute } from './repository.ts';

export { isCalendarDay, MAX_RECENT_DAYS } from '@tribuna/contracts/jobs';

/** One day's report_daily row and report_active_users rows, recomputed together. */
export async function aggregateDay(ctx: JobContext, day: string): Promise<DailyReport> {
  const [report] = await recomputeDays(ctx.db, day, day, ctx.config.showTimezone);
  ctx.logger.debug({ report }, 'daily report aggregated');
  return report!;
}

/**
 * Today and the `days - 1` days before it, "today" being decided now, in SHOW_TIMEZONE: {days: 1}
 * every few minutes keeps today fresh (incrementally for its active users, see refreshToday),
 * {days: 2} just after midnight finalises yesterday (a full recompute, as for any other count).
 */
export async function aggregateRecentDays(ctx: JobContext, days: number): Promise<DailyReport[]> {
  const timeZone = ctx.config.showTimezone;
  let reports: DailyReport[];
  if (days === 1) {
    reports = await refreshToday(ctx.db, timeZone);
  } else {
    const { from, to } = await recentRange(ctx.db, timeZone, days);
    reports = await recomputeDays(ctx.db, from, to, timeZone);
  }
  ctx.logger.info({ days: reports.map((r) => r.day) }, 'recent daily reports aggregated');
  return reports;
}

/** Every day from the first vote, page view or profile to today (the reports screen's recompute button). */
export async function recomputeAll(ctx: JobContext): Promise<FullRecompute> {
  const startedAt = performance.now();
  const result = await recomputeAllDays(ctx.db, ctx.config.showTimezone);
  ctx.logger.info({ ...result, ms: Math.round(performance.now() - startedAt) }, 'report aggregates recomputed');
  return result;
}
