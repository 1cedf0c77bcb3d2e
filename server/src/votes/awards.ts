import { MAX_AWARD_VOTES_PER_JOB, pointsJobIds } from '@tribuna/contracts/jobs';
import { QueueUnavailableError, type Enqueue } from '../plugins/queues.ts';
import type { VoterKey } from './repository.ts';
import { showDayOf } from '@tribuna/contracts/showDay';

/** Award keys remembered as already enqueued by this instance (a user votes many times a day). */
const REMEMBERED_AWARDS = 200_000;

/**
 * Enqueues the vote awards of a committed batch as ONE `points.award-votes` job (one Redis round
 * trip, and one transaction in the worker, however many first votes the batch holds), skipping
 * the (user, poll, day) keys this instance already enqueued. The worker grants each key at most
 * once (a unique index), so a duplicate from another instance costs nothing. A Redis failure
 * rejects (the caller logs it), at once while the queue connection is down (nothing waits in
 * memory for Redis): the worker's sweep awards whatever was missed.
 */
export class VoteAwardEnqueuer {
  private readonly recent = new Set<string>();

  constructor(
    /** app.enqueue: typed by the job's name, on the queue the contract assigns it, with its timeout. */
    private readonly enqueueJob: Enqueue,
    private readonly timeZone: string,
    /** Whether the queue's Redis connection is ready (app.queuesReady). */
    private readonly queueReady: () => boolean,
  ) {}

  async enqueue(voters: VoterKey[], votedAt: Date): Promise<number> {
    if (!this.queueReady()) throw new QueueUnavailableError('enqueue vote awards');
    const day = showDayOf(this.timeZone, votedAt);
    const fresh: VoterKey[] = [];
    const keys: string[] = [];
    for (const { userId, pollId } of voters) {
      const key = pointsJobIds.awardVote({ userId, pollId, day });
      if (this.recent.has(key)) continue;
      this.remember(key);
      keys.push(key);
      fresh.push({ userId, pollId });
    }
    if (fresh.length === 0) return 0;
    try {
      for (let start = 0; start < fresh.length; start += MAX_AWARD_VOTES_PER_JOB) {
        await this.enqueueJob('points.award-votes', { day, voters: fresh.slice(start, start + MAX_AWARD_VOTES_PER_JOB) });
      }
    } catch (err) {
      for (const key of keys) this.recent.delete(key);
      throw err;
    }
    return fresh.length;
  }

  private remember(jobId: string): void {
    if (this.recent.size >= REMEMBERED_AWARDS) {
      // Oldest first (insertion order): forgetting only costs a duplicate add that BullMQ ignores.
      const oldest = this.recent.values().next().value;
      if (oldest !== undefined) this.recent.delete(oldest);
    }
    this.recent.add(jobId);
  }
}
