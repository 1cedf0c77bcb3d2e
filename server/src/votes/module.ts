import type { FastifyInstance } from 'fastify';
import { VoteAwardEnqueuer } from './awards.ts';
import { VoteBatcher, type CommittedBatch } from './batcher.ts';
import type { VotesContext } from './service.ts';

declare module '../events/bus.ts' {
  interface DomainEvents {
    /** A vote batch committed (this instance only): live totals and award jobs follow it. */
    'votes.committed': CommittedBatch;
  }
}

/**
 * The votes domain's long-lived parts: the batching writer, whose committed batches go out as the
 * `votes.committed` event (the polls' live totals subscribe in polls/plugin.ts, the award jobs
 * here), and the daily points reset told to every socket. Nothing after COMMIT can fail a vote.
 */
export function createVotesModule(app: FastifyInstance): VotesContext & { close(): Promise<void> } {
  const { config, log, events } = app;
  const awards = new VoteAwardEnqueuer(app.enqueue, config.showTimezone, app.queuesReady);
  events.subscribe('votes.committed', (batch) =>
    awards
      .enqueue(batch.voters, batch.votedAt)
      .catch((err: unknown) => log.warn({ err: { message: (err as Error).message } }, 'vote awards not enqueued; the sweep will award them')),
  );
  events.subscribe('points.reset', ({ day }) => app.live.hub.broadcast({ type: 'points-reset', day }));

  const writer = new VoteBatcher({
    sql: app.database.sql,
    timeZone: config.showTimezone,
    onCommitted: (batch) => events.publish('votes.committed', batch),
    logger: log,
  });
  return {
    db: app.database.db,
    polls: app.pollCache,
    writer,
    timeZone: config.showTimezone,
    close: async () => {
      await writer.close();
      log.info({ stats: writer.stats }, 'vote writer closed');
    },
  };
}
