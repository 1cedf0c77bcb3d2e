import type { JobHandlers } from '../registry.ts';
import { aggregateDay, aggregateRecentDays, recomputeAll } from './service.ts';

type ReportJobs = Pick<JobHandlers, 'reports.aggregate-day' | 'reports.aggregate-recent-days' | 'reports.recompute-all'>;

export const reportJobs: ReportJobs = {
  // A real calendar day; 1 to MAX_RECENT_DAYS days (contracts/src/jobs.ts, checked by the registry).
  'reports.aggregate-day': async (payload, ctx) => aggregateDay(ctx, payload.day),
  'reports.aggregate-recent-days': async (payload, ctx) => aggregateRecentDays(ctx, payload.days),
  // Full recompute on demand (POST /api/admin/reports/recompute); the job returns a summary, not every day.
  'reports.recompute-all': async (_payload, ctx) => recomputeAll(ctx),
};
