import { Type, type Static } from '@sinclair/typebox';
import { REPORT_PERIODS } from '../../reportRules.ts';
import { IsoDate } from '../common.ts';
import { defineRoutes } from '../../route.ts';

const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', maxLength: 10 });

/**
 * GET /api/admin/reports: a period of spec §7, computed on the server in SHOW_TIMEZONE (today =
 * midnight to now; yesterday; week = the last 7 days, today included; month, 3 and 6 months back),
 * or `custom` with both `from` and `to` (YYYY-MM-DD, inclusive).
 */
export const ReportQuery = Type.Object(
  {
    period: Type.Union(REPORT_PERIODS.map((p) => Type.Literal(p))),
    from: Type.Optional(Day),
    to: Type.Optional(Day),
  },
  { additionalProperties: false },
);
export type ReportQuery = Static<typeof ReportQuery>;

export const ReportFigures = Type.Object({
  activeUsers: Type.Integer({ minimum: 0 }),
  newUsers: Type.Integer({ minimum: 0 }),
  totalVotes: Type.Integer({ minimum: 0 }),
  pageViews: Type.Integer({ minimum: 0 }),
});
export type ReportFigures = Static<typeof ReportFigures>;

export const ReportDay = Type.Composite([Type.Object({ day: Day }), ReportFigures]);
export type ReportDay = Static<typeof ReportDay>;

export const Report = Type.Object({
  from: Day,
  to: Day,
  timeZone: Type.String(),
  /** Totals of the period; activeUsers counts each person once over the whole period (not a sum of days). */
  totals: ReportFigures,
  /** Every day of the period, newest first (zeros for days without activity). */
  days: Type.Array(ReportDay),
  /** When the worker last refreshed the aggregates of this period (null: never). */
  updatedAt: Type.Union([IsoDate, Type.Null()]),
});
export type Report = Static<typeof Report>;

/** POST /api/admin/reports/recompute: a full recompute of the aggregates, as a worker job. */
export const RecomputeAccepted = Type.Object({ jobId: Type.String() });
export type RecomputeAccepted = Static<typeof RecomputeAccepted>;

export const ADMIN_REPORT_ROUTES = defineRoutes({
  adminReport: {
    method: 'GET',
    path: '/api/admin/reports',
    status: 200,
    tags: ['admin'],
    summary: 'Usage report of a period in SHOW_TIMEZONE, from the worker’s daily aggregates (exact distinct active users)',
    querystring: ReportQuery,
    response: Report,
    errors: [400, 401, 403, 429],
    rateLimit: 'admin.read',
  },
  recomputeReports: {
    method: 'POST',
    path: '/api/admin/reports/recompute',
    status: 202,
    tags: ['admin'],
    summary: 'Recompute every day’s aggregates (a worker job; repeated requests join the pending one)',
    response: RecomputeAccepted,
    errors: [401, 403, 429, 503],
    rateLimit: 'admin.write',
  },
});
