import type { DbOrTx } from '@tribuna/drizzle/client';
import type { TopicHandler } from '../live/topics.ts';
import { DashboardSnapshots } from './dashboard/live.ts';
import { holdsAdminPowers } from '../access/policy.ts';

/**
 * `admin`: the back-office dashboard's live counters and activity, for administrators only (others,
 * suspended admins included: `forbidden`), and with REQUIRE_ADMIN_MFA only on a session verified
 * with the second factor, as the HTTP guard of /api/admin (identity/adminGuard.ts; holdsAdminPowers in access/policy.ts). A subscriber gets the current dashboard at once,
 * then a new one whenever it changed (admin/dashboard/plugin.ts says when, at most every 2 s).
 */
export function adminTopic(db: DbOrTx, requireMfa: boolean): TopicHandler {
  const snapshots = new DashboardSnapshots(db);
  return {
    family: 'admin',
    normalizeKey: (key) => (key === null ? null : undefined),
    authorize: async (_key, user) => (holdsAdminPowers(user, requireMfa) ? { ok: true, snapshots: true } : { ok: false, code: 'forbidden' }),
    readSnapshot: () => snapshots.read(),
  };
}
