import type { JobHandlers } from '../registry.ts';
import { deleteVoteRequestsBefore } from './repository.ts';

const HOUR_MS = 3_600_000;
/** Rows per DELETE: short statements, whatever backlog a stopped worker left. */
export const PURGE_CHUNK = 10_000;
const PURGE_MAX_ROUNDS = 100;

export const voteJobs: Pick<JobHandlers, 'votes.purge-requests'> = {
  // Idempotency keys only matter while a client may still retry (minutes); 24 hours is the promise.
  'votes.purge-requests': async (payload, ctx) => {
    const hours = payload.olderThanHours; // 1 to MAX_VOTE_REQUEST_RETENTION_HOURS (the registry checked)
    const cutoff = new Date(Date.now() - hours * HOUR_MS);
    let deleted = 0;
    for (let round = 0; round < PURGE_MAX_ROUNDS; round++) {
      const removed = await deleteVoteRequestsBefore(ctx.db, cutoff, PURGE_CHUNK);
      deleted += removed;
      if (removed < PURGE_CHUNK) break;
    }
    if (deleted > 0) ctx.logger.info({ deleted, olderThanHours: hours }, 'vote idempotency keys purged');
    return { deleted };
  },
};
