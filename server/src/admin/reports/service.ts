import type { Job, Queue } from 'bullmq';
import type { ReportFigures, ReportQuery, Report, RecomputeAccepted } from '@tribuna/contracts/api/admin/reports';
import type { Db, DbOrTx } from '@tribuna/drizzle/client';
import { recordAudit } from '../audit.ts';
import type { Enqueue } from '../../plugins/queues.ts';
import type { ReportCache } from './cache.ts';
import { resolvePeriod, type DayRange } from './periods.ts';
import * as repo from './repository.ts';

/**
 * GET /api/admin/reports: the period resolved in `timeZone` at `now`, read from the worker's
 * aggregates only (report_daily for the days, report_active_users for the exact number of people
 * active over the whole period), never from the raw votes and page views.
 */
export async function getReport(db: DbOrTx, query: ReportQuery, timeZone: string, now = new Date()): Promise<Report> {
  return readReport(db, resolvePeriod(query, timeZone, now), timeZone);
}

/**
 * The same answer through `cache`: one lookup of the aggregates' version, then the period's answer
 * as read under that version (read once per version and period per instance). The version is read
 * before the figures, so a cached answer is never older than the version it is filed under.
 */
export async function getCachedReport(db: DbOrTx, cache: ReportCache, query: ReportQuery, timeZone: string, now = new Date()): Promise<Report> {
  const range = resolvePeriod(query, timeZone, now);
  const version = await repo.readVersion(db);
  if (version === null) return readReport(db, range, timeZone);
  return cache.get(version, `${timeZone}|${range.from}|${range.to}`, () => readReport(db, range, timeZone));
}

async function readReport(db: DbOrTx, range: DayRange, timeZone: string): Promise<Report> {
  const [days, activeUsers] = await Promise.all([repo.listDays(db, range), repo.countActiveUsers(db, range)]);
  const totals: ReportFigures = { activeUsers, newUsers: 0, totalVotes: 0, pageViews: 0 };
  let updatedAt: Date | null = null;
  for (const day of days) {
    totals.newUsers += day.newUsers;
    totals.totalVotes += day.totalVotes;
    totals.pageViews += day.pageViews;
    if (day.computedAt && (!updatedAt || day.computedAt > updatedAt)) updatedAt = day.computedAt;
  }
  return {
    from: range.from,
    to: range.to,
    timeZone,
    totals,
    days: days.map(({ day, activeUsers: a, newUsers, totalVotes, pageViews }) => ({ day, activeUsers: a, newUsers, totalVotes, pageViews })),
    updatedAt: updatedAt ? updatedAt.toISOString() : null,
  };
}

/**
 * One id for every recompute request: while one is waiting, delayed or running, another click
 * adds nothing (BullMQ keeps the existing job; ids may not contain ':').
 */
export const RECOMPUTE_JOB_ID = 'reports.recompute-all';

export interface RecomputeContext {
  db: Db;
  enqueue: Enqueue;
  /** The queue of 'reports.recompute-all' (maintenance), to clear a finished run's id. */
  queue: Queue;
}

/**
 * POST /api/admin/reports/recompute: enqueues the full recompute and records who asked. A
 * finished run (completed or failed, kept for inspection) is removed first, so its id does not
 * swallow the new request; a pending one is kept and the request joins it. The job is enqueued
 * before the audit row is written so the log never names a request that did not reach the queue.
 */
export async function requestRecompute(ctx: RecomputeContext, adminId: string): Promise<RecomputeAccepted> {
  const previous: Job | undefined = await ctx.queue.getJob(RECOMPUTE_JOB_ID);
  if (previous) {
    const state = await previous.getState();
    if (state === 'completed' || state === 'failed') await previous.remove().catch(() => {});
  }
  const job = await ctx.enqueue('reports.recompute-all', {}, { jobId: RECOMPUTE_JOB_ID });
  const jobId = job.id ?? RECOMPUTE_JOB_ID;
  await ctx.db.transaction(async (tx) => {
    await recordAudit(tx, adminId, { action: 'reports.recompute', entityType: 'report', entityId: null, before: null, after: { jobId } });
  });
  return { jobId };
}
