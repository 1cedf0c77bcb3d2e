import type { JobHandlers } from '../registry.ts';
import { deleteSessionsEndedBefore } from './repository.ts';

const DAY_MS = 86_400_000;

export const sessionJobs: Pick<JobHandlers, 'sessions.purge'> = {
  // Ended sessions are kept a while (support, audits), then removed so the table stays small.
  'sessions.purge': async (payload, ctx) => {
    const days = payload.olderThanDays; // 1 to MAX_SESSION_RETENTION_DAYS (the registry checked)
    const deleted = await deleteSessionsEndedBefore(ctx.db, new Date(Date.now() - days * DAY_MS));
    ctx.logger.info({ deleted, olderThanDays: days }, 'ended sessions purged');
    return { deleted };
  },
};
