import type { CommittedVotes } from '@tribuna/contracts/live';
import type { PollStatus } from '@tribuna/contracts/api/polls';

/**
 * What the votes (and, later, admin polls) domain calls after a commit. The live plugin (name 'live')
 * decorates `app.live` with an implementation: Redis live totals, the `votes` LiveEvent, fan-out.
 * Callers never let a rejection fail work that is already committed.
 */
export interface LiveRecorder {
  /** One call per poll per committed vote batch. */
  recordVotes(committed: CommittedVotes): Promise<void>;
  publishPollStatus(pollId: string, status: PollStatus, isFeatured: boolean): Promise<void>;
}
