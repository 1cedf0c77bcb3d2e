import type { FastifyBaseLogger } from 'fastify';
import type { CommittedVotes } from '@tribuna/contracts/live';
import type { LiveStore } from './store.ts';

/**
 * Applies committed corrections of votes (an admin voided or restored them) to the live totals
 * exactly as a committed vote batch: `removed` rows leave the totals, `added` rows come back, the
 * `poll.votes` event goes out, and every instance sends the poll's viewers a snapshot with the
 * corrected totals. Only rows of options on the ballot belong here (the others are not in the
 * totals). Never throws: when Redis is down the store remembers the poll and drops its totals once
 * Redis is back (they rebuild from PostgreSQL, where the correction is committed).
 */
export async function recordCorrections(store: LiveStore, changes: CommittedVotes[], log: FastifyBaseLogger): Promise<void> {
  await Promise.all(
    changes.map((change) =>
      store.recordVotes(change).catch((err: unknown) => log.warn({ err, pollId: change.pollId }, 'live update of corrected votes failed; the totals rebuild')),
    ),
  );
}
