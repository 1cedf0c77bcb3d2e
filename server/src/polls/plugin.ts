import fp from 'fastify-plugin';
import { pollTopic, type PollStatusMessage } from '@tribuna/contracts/live';
import { PollCache, POLL_CACHE_TTL_MS } from './pollCache.ts';
import { LiveStore, type RebuildOutcome, type ReconcileOutcome } from './live/store.ts';
import { pollTopicHandler } from './live/topic.ts';

export interface PollsLiveStats {
  /** Polls whose totals missed a batch while Redis was down, waiting to be dropped and rebuilt. */
  pendingRepairs: number;
}

export interface PollsLive {
  readonly store: LiveStore;
  /** Rebuilds a poll's live totals from PostgreSQL now (a repair; viewers get the result). */
  rebuild(pollId: string): Promise<RebuildOutcome>;
  /** The live seq of a poll, null when unknown; never throws (the HTTP results carry it). */
  currentSeq(pollId: string): Promise<number | null>;
  /** One reconcile round of this instance's watched polls now (the timer's, without the per-poll lock). */
  reconcileNow(): Promise<Map<string, ReconcileOutcome>>;
  stats(): PollsLiveStats;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The one cache of public polls (votes, live access), dropped on every instance by `poll.changed`. */
    pollCache: PollCache;
    /** The polls' live totals in Redis (the `poll:{id}` topic's snapshots). */
    pollsLive: PollsLive;
  }
}

export interface PollsPluginOptions {
  /** Overrides POLL_CACHE_TTL_MS (a test shows that `poll.changed`, not the TTL, refreshes other instances). */
  pollCacheTtlMs?: number;
}

/** Every instance compares the totals of its watched polls with PostgreSQL this often (one instance per poll per round). */
export const RECONCILE_INTERVAL_MS = 30_000;

/**
 * The polls domain's long-lived parts: the poll cache, the live totals (Redis) behind the
 * `poll:{id}` topic, and their subscriptions: committed votes update the totals (the Lua script
 * publishes the `poll.votes` event every instance turns into snapshots); `poll.changed` drops the
 * cached poll and tells the poll's viewers; a periodic reconcile compares the watched polls'
 * totals with PostgreSQL.
 */
export default fp<PollsPluginOptions>(
  async (app, options) => {
    const { config, redis, log, live, events } = app;
    const prefix = config.redisPrefix;
    const polls = new PollCache(app.database.db, options.pollCacheTtlMs ?? POLL_CACHE_TTL_MS);
    const store = new LiveStore(redis, app.database.db, prefix, log);
    const hub = live.hub;

    live.registerTopic(pollTopicHandler(polls, store));
    events.subscribe('poll.votes', (event) => {
      hub.changed(pollTopic(event.pollId), { added: event.added, removed: event.removed, seq: event.seq });
    });

    events.subscribe('votes.committed', async (batch) => {
      await Promise.all(
        batch.changes.map((change) =>
          store.recordVotes(change).catch((err: unknown) => log.warn({ err, pollId: change.pollId }, 'live update of committed votes failed')),
        ),
      );
    });
    events.subscribe('poll.changed', async ({ pollId, status, isFeatured }) => {
      polls.invalidate(pollId);
      const topic = pollTopic(pollId);
      const message: PollStatusMessage = { type: 'poll-status', topic, pollId, status, isFeatured };
      hub.publish(topic, message);
      await hub.refreshAccess(topic);
    });

    // Totals that missed batches while Redis was down are dropped as soon as it is back.
    const onRedisReady = () => void store.repairFailed();
    redis.on('ready', onRedisReady);

    let reconciling: Promise<Map<string, ReconcileOutcome>> | null = null;
    const reconcileRound = async (useLock: boolean) => {
      const outcomes = new Map<string, ReconcileOutcome>();
      await store.repairFailed();
      await hub.refreshAllAccess('poll');
      for (const pollId of hub.watched('poll')) {
        try {
          // One instance per poll per round does the comparison.
          if (useLock) {
            const lock = await redis.set(`${prefix}:poll:${pollId}:reconcile-lock`, '1', 'PX', RECONCILE_INTERVAL_MS - 1000, 'NX');
            if (lock !== 'OK') continue;
          }
          outcomes.set(pollId, await store.reconcile(pollId));
        } catch (err) {
          log.warn({ err, pollId }, 'live: reconcile failed');
        }
      }
      return outcomes;
    };
    const reconcile = (useLock: boolean) => {
      reconciling ??= reconcileRound(useLock).finally(() => {
        reconciling = null;
      });
      return reconciling;
    };
    const reconcileTimer = setInterval(() => {
      if (redis.status === 'ready') void reconcile(true);
    }, RECONCILE_INTERVAL_MS);
    reconcileTimer.unref();

    app.decorate('pollCache', polls);
    app.decorate('pollsLive', {
      store,
      rebuild: (pollId: string) => store.rebuild(pollId, { force: true }),
      currentSeq: (pollId: string) => store.currentSeq(pollId),
      reconcileNow: () => reconcile(false),
      stats: () => ({ pendingRepairs: store.pendingRepairs }),
    } satisfies PollsLive);

    app.addHook('onClose', async () => {
      clearInterval(reconcileTimer);
      redis.off('ready', onRedisReady);
      await reconciling?.catch(() => undefined);
    });
  },
  { name: 'polls', dependencies: ['config', 'db', 'redis', 'live', 'events'] },
);
