import type { FastifyInstance } from 'fastify';
import type { LiveRecorder } from '../live/types.ts';
import { VoteAwardEnqueuer } from './awards.ts';
import { VoteBatcher, type CommittedBatch } from './batcher.ts';
import { PollCache } from './pollCache.ts';
import type { VotesContext } from './service.ts';

/** The live module when it is registered (plugin 'live' decorating `app.live`). */
function liveRecorder(app: FastifyInstance): LiveRecorder | null {
  return app.hasDecorator('live') ? (app as unknown as { live: LiveRecorder }).live : null;
}

/**
 * The votes domain's long-lived parts: the poll cache, the batching writer and what runs after each
 * committed batch (live totals and events, award jobs). Nothing after COMMIT can fail a vote.
 */
export function createVotesModule(app: FastifyInstance): VotesContext & { close(): Promise<void> } {
  const { config, log } = app;
  const awards = new VoteAwardEnqueuer(app.queues.points, config.showTimezone, app.queuesReady);

  const afterCommit = async (batch: CommittedBatch): Promise<void> => {
    const live = liveRecorder(app);
    const work: Promise<unknown>[] = [];
    if (live) {
      for (const change of batch.changes) {
        work.push(
          Promise.resolve()
            .then(() => live.recordVotes(change))
            .catch((err: unknown) => log.warn({ err, pollId: change.pollId }, 'live update of committed votes failed')),
        );
      }
    }
    work.push(
      awards
        .enqueue(batch.voters, batch.votedAt)
        .catch((err: unknown) => log.warn({ err: { message: (err as Error).message } }, 'vote awards not enqueued; the sweep will award them')),
    );
    await Promise.all(work);
  };

  const polls = new PollCache(app.database.db);
  const writer = new VoteBatcher({
    sql: app.database.sql,
    timeZone: config.showTimezone,
    onCommitted: afterCommit,
    logger: log,
  });
  return {
    db: app.database.db,
    polls,
    writer,
    timeZone: config.showTimezone,
    close: async () => {
      await writer.close();
      log.info({ stats: writer.stats }, 'vote writer closed');
    },
  };
}
