import type { AdminDashboardMessage } from '@tribuna/contracts/api/admin/polls';
import type { DbOrTx } from '@tribuna/drizzle/client';
import { readRecentActivity, readStats } from './service.ts';

/** The live dashboard is read again at most this often while an admin watches (and not at all otherwise). */
export const DASHBOARD_PUSH_MS = 2000;

/**
 * The `admin` topic's snapshots: the counters and the newest activity. A snapshot equal to the
 * previous one keeps its seq, so the hub sends nothing new to the viewers.
 */
export class DashboardSnapshots {
  private last: { body: string; seq: number } | null = null;

  constructor(private readonly db: DbOrTx) {}

  async read(now = new Date()): Promise<AdminDashboardMessage & { seq: number }> {
    const [stats, recentActivity] = await Promise.all([readStats(this.db, now), readRecentActivity(this.db, now)]);
    const body = JSON.stringify([stats, recentActivity]);
    if (this.last?.body !== body) this.last = { body, seq: Math.max((this.last?.seq ?? 0) + 1, Date.now()) };
    return { type: 'admin-dashboard', topic: 'admin', stats, recentActivity, seq: this.last.seq };
  }
}

/**
 * Coalesces "the dashboard may have changed" into at most one `changed` every DASHBOARD_PUSH_MS:
 * the first after a quiet spell at once, the rest at the end of the period.
 */
export function coalesce(run: () => void, periodMs = DASHBOARD_PUSH_MS): { poke(): void; stop(): void } {
  let lastAt = -Infinity;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  const fire = () => {
    timer = null;
    lastAt = Date.now();
    run();
  };
  return {
    poke() {
      if (stopped || timer !== null) return;
      const wait = lastAt + periodMs - Date.now();
      if (wait <= 0) fire();
      else {
        timer = setTimeout(fire, wait);
        timer.unref();
      }
    },
    stop() {
      stopped = true;
      if (timer !== null) clearTimeout(timer);
    },
  };
}
