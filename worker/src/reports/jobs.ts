import { InvalidPayloadError } from '../errors.ts';
import type { JobHandlers } from '../registry.ts';
import { aggregateDay, aggregateRecentDays, isCalendarDay, MAX_RECENT_DAYS, recomputeAll } from './service.ts';

type ReportJobs = Pick<JobHandlers, 'reports.aggregate-day' | 'reports.aggregate-recent-days' | 'reports.recompute-all'>;

export const reportJobs: ReportJobs = {
  'reports.aggregate-day': async (payload, ctx) => {
    if (!isCalendarDay(payload?.day)) {
      throw new InvalidPayloadError('reports.aggregate-day', `day must be a calendar day YYYY-MM-DD, got ${JSON.stringify(payload?.day)}`);
    }
    return aggregateDay(ctx, payload.day);
  },
  'reports.aggregate-recent-days': async (payload, ctx) => {
    const days = payload?.days;
    if (!Number.isInteger(days) || days < 1 || days > MAX_RECENT_DAYS) {
      throw new InvalidPayloadError(
        'reports.aggregate-recent-days',
        `days must be an integer from 1 to ${MAX_RECENT_DAYS}, got ${JSON.stringify(days)}`,
      );
    }
    return aggregateRecentDays(ctx, days);
  },
  // Full recompute on demand (POST /api/admin/reports/recompute); the job returns a summary, not every day.
  'reports.recompute-all': async (_payload, ctx) => recomputeAll(ctx),
};
