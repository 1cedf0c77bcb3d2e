import type { Queue } from 'bullmq';
import { pointsJobIds, type JobPayloads } from '@tribuna/contracts/jobs';
import { withTimeout } from '../http/timeout.ts';
import { ENQUEUE_TIMEOUT_MS } from '../plugins/queues.ts';
import type { VoterKey } from './repository.ts';
import { showDayOf } from './showDay.ts';

/** Award keys remembered as already enqueued by this instance (a user votes many times a day). */
const REMEMBERED_AWARDS = 200_000;

/**
 * Enqueues `points.award-vote` jobs for a committed batch with one `addBulk` (one Redis round trip
 * per batch, not per vote). Job ids are deterministic, so BullMQ collapses duplicates across
 * batches and instances; this instance also skips keys it already enqueued today. A Redis failure
 * rejects (the caller logs it): the worker's sweep awards whatever was missed.
 */
export class VoteAwardEnqueuer {
  private readonly recent = new Set<string>();

  constructor(
    private readonly queue: Queue,
    private readonly timeZone: string,
  ) {}

  async enqueue(voters: VoterKey[], votedAt: Date): Promise<number> {
    const day = showDayOf(this.timeZone, votedAt);
    const jobs: { name: 'points.award-vote'; data: JobPayloads['points.award-vote']; opts: { jobId: string } }[] = [];
    for (const { userId, pollId } of voters) {
      const data = { userId, pollId, day };
      const jobId = pointsJobIds.awardVote(data);
      if (this.recent.has(jobId)) continue;
      this.remember(jobId);
      jobs.push({ name: 'points.award-vote', data, opts: { jobId } });
    }
    if (jobs.length === 0) return 0;
    try {
      await withTimeout(this.queue.addBulk(jobs), ENQUEUE_TIMEOUT_MS, 'enqueue vote awards');
    } catch (err) {
      for (const job of jobs) this.recent.delete(job.opts.jobId);
      throw err;
    }
    return jobs.length;
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
