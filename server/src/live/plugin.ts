import fp from 'fastify-plugin';
import type { ResultsSnapshot } from '@tribuna/contracts/live';
import { LIVE_CHANNEL } from '@tribuna/contracts/live';
import { channelName } from '@tribuna/contracts/live';
import { closeRedisClient, createRedisClient } from '../plugins/redis.ts';
import { NO_ACCESS, PollAccessCache } from './access.ts';
import { ConnectionLimits } from './connections.ts';
import { LiveHub, type HubStats } from './hub.ts';
import { findPollVisibility } from './repository.ts';
import { LiveStore, type RebuildOutcome, type ReconcileOutcome } from './store.ts';
import type { LiveRecorder } from './types.ts';

export interface LiveStats extends HubStats {
  /** Polls whose totals missed a batch while Redis was down, waiting to be dropped and rebuilt. */
  pendingRepairs: number;
  /** Websocket connections counted against the caps (from upgrade to close, closing ones included). */
  sockets: number;
  /** Websocket connections refused by WS_MAX_CONNECTIONS or WS_MAX_CONNECTIONS_PER_ADDRESS. */
  socketsRefused: number;
}

export interface Live extends LiveRecorder {
  readonly hub: LiveHub;
  readonly store: LiveStore;
  /** WS_MAX_CONNECTIONS and WS_MAX_CONNECTIONS_PER_ADDRESS, counted by /ws. */
  readonly connections: ConnectionLimits;
  stats(): LiveStats;
  /** Rebuilds a poll's live totals from PostgreSQL now (a repair; viewers get the result). */
  rebuild(pollId: string): Promise<RebuildOutcome>;
  /** The live seq of a poll, null when unknown; never throws (the HTTP results carry it). */
  currentSeq(pollId: string): Promise<number | null>;
  readSnapshot(pollId: string): Promise<ResultsSnapshot>;
  /** One reconcile round of this instance's watched polls now (the timer's, without the per-poll lock). */
  reconcileNow(): Promise<Map<string, ReconcileOutcome>>;
}

declare module 'fastify' {
  interface FastifyInstance {
    live: Live;
  }
}

/** Every instance compares the totals of its watched polls with PostgreSQL this often (one instance per poll per round). */
export const RECONCILE_INTERVAL_MS = 30_000;

/**
 * Live results: the Redis live totals (LiveStore), this instance's websocket fan-out (LiveHub) fed
 * by one Redis subscription, and a periodic reconcile with PostgreSQL. `app.live` is what the votes
 * domain calls after each commit and what /ws attaches its sockets to.
 */
export default fp(
  async (app) => {
    const { config, redis, log } = app;
    const prefix = config.redisPrefix;
    const store = new LiveStore(redis, app.database.db, prefix, log);

    const access = new PollAccessCache(async (pollId) => {
      const row = await findPollVisibility(app.database.db, pollId);
      if (!row || row.status === 'draft') return NO_ACCESS;
      return { visible: true, showResults: row.showResults };
    });
    const hub = new LiveHub({
      readSnapshot: (pollId) => store.readSnapshot(pollId),
      checkAccess: (pollId) => access.check(pollId),
      invalidateAccess: (pollId) => access.invalidate(pollId),
      log,
    });

    // One subscriber connection per instance for every poll: events are filtered locally.
    const channel = channelName(prefix, LIVE_CHANNEL);
    const subscriber = createRedisClient(config.redisUrl, 'tribuna-live-subscriber', log, {
      enableOfflineQueue: true,
      autoResubscribe: false,
      commandTimeout: undefined,
    });
    subscriber.on('message', (from: string, message: string) => {
      if (from === channel) hub.handleRawEvent(message);
    });
    let subscribedOnce = false;
    let resolveFirst: () => void = () => undefined;
    const firstSubscription = new Promise<void>((resolve) => (resolveFirst = resolve));
    // Subscribed again on every (re)connection; what was published meanwhile is read from the totals.
    subscriber.on('ready', () => {
      subscriber.subscribe(channel).then(
        () => {
          if (subscribedOnce) hub.resyncAll();
          subscribedOnce = true;
          resolveFirst();
        },
        (err: unknown) => log.warn({ err }, 'live: subscribing to the live channel failed'),
      );
    });

    // Totals that missed batches while Redis was down are dropped as soon as it is back.
    const onRedisReady = () => void store.repairFailed();
    redis.on('ready', onRedisReady);

    let reconciling: Promise<Map<string, ReconcileOutcome>> | null = null;
    const reconcileRound = async (useLock: boolean) => {
      const outcomes = new Map<string, ReconcileOutcome>();
      await store.repairFailed();
      await hub.refreshAllAccess();
      for (const pollId of hub.watchedPolls()) {
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

    const connections = new ConnectionLimits(config.wsMaxConnections, config.wsMaxConnectionsPerAddress);
    const live: Live = {
      hub,
      store,
      connections,
      recordVotes: (committed) => store.recordVotes(committed),
      publishPollStatus: (pollId, status, isFeatured) => store.publishPollStatus(pollId, status, isFeatured),
      stats: () => ({ ...hub.stats(), pendingRepairs: store.pendingRepairs, sockets: connections.count(), socketsRefused: connections.refused }),
      rebuild: (pollId) => store.rebuild(pollId, { force: true }),
      currentSeq: (pollId) => store.currentSeq(pollId),
      readSnapshot: (pollId) => store.readSnapshot(pollId),
      reconcileNow: () => reconcile(false),
    };
    app.decorate('live', live);

    app.addHook('onClose', async () => {
      clearInterval(reconcileTimer);
      redis.off('ready', onRedisReady);
      hub.close();
      await reconciling?.catch(() => undefined);
      await closeRedisClient(subscriber);
    });

    // Ready to fan out before the app listens (when Redis is up; otherwise it catches up later).
    await Promise.race([firstSubscription, new Promise((resolve) => setTimeout(resolve, 3000).unref())]);
  },
  { name: 'live', dependencies: ['config', 'db', 'redis'] },
);
