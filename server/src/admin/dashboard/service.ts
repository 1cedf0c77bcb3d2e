import { ADMIN_LIMITS } from '@tribuna/contracts/adminRules';
import type { ActivityItem, Dashboard, DashboardStats } from '@tribuna/contracts/api/admin/polls';
import type { DbOrTx } from '@tribuna/drizzle/client';
import { effectiveStatus } from '../../polls/rules.ts';
import * as repo from './repository.ts';

/** Votes and page views count for the dashboard over this window (spec §9). */
export const ACTIVITY_WINDOW_MS = 24 * 60 * 60 * 1000;

const ANONYMOUS = 'Anónimo';

/** The activity line, in Spanish as the dashboard shows it. */
export function describeActivity(type: ActivityItem['type'], label: string | null): string {
  if (type === 'vote') return `Nuevo voto en "${label ?? ''}"`;
  if (type === 'user') return `Nuevo usuario: ${label ?? ANONYMOUS}`;
  return `Nueva encuesta: ${label ?? ''}`;
}

export async function readStats(db: DbOrTx, now = new Date()): Promise<DashboardStats> {
  return repo.readStats(db, now, new Date(now.getTime() - ACTIVITY_WINDOW_MS));
}

export async function readRecentActivity(db: DbOrTx, now = new Date()): Promise<ActivityItem[]> {
  const rows = await repo.listRecentActivity(db, new Date(now.getTime() - ACTIVITY_WINDOW_MS), ADMIN_LIMITS.recentActivity);
  return rows.map((row) => ({
    id: `${row.type}:${row.id}`,
    type: row.type,
    description: describeActivity(row.type, row.label),
    createdAt: row.createdAt.toISOString(),
  }));
}

/** GET /api/admin/dashboard: the four counters, the newest polls and the newest activity (three statements, side by side). */
export async function getDashboard(db: DbOrTx, now = new Date()): Promise<Dashboard> {
  const [stats, polls, recentActivity] = await Promise.all([
    readStats(db, now),
    repo.listRecentPolls(db, ADMIN_LIMITS.recentPolls),
    readRecentActivity(db, now),
  ]);
  return {
    stats,
    recentPolls: polls.map((p) => ({
      id: p.id,
      title: p.title,
      status: effectiveStatus(p, now),
      voteCount: p.voteCount,
      createdAt: p.createdAt.toISOString(),
    })),
    recentActivity,
  };
}
