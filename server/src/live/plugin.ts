import fp from 'fastify-plugin';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { LIVE_CHANNEL, LiveEvent, channelName, type LiveEventKind } from '@tribuna/contracts/live';
import { closeRedisClient, createRedisClient } from '../plugins/redis.ts';
import { ConnectionLimits } from './connections.ts';
import { LiveHub, type HubStats } from './hub.ts';
import type { TopicHandler } from './topics.ts';
import { sessionCache } from '../identity/sessions/cache.ts';

export interface LiveStats extends HubStats {
  /** LiveEvents received from Redis (and accepted by the contract). */
  events: number;
  /** LiveEvents dropped: not JSON, not the contract, or no handler for their kind. */
  eventsDropped: number;
  /** Websocket connections counted against the caps (from upgrade to close, closing ones included). */
  sockets: number;
  /** Websocket connections refused by WS_MAX_CONNECTIONS or WS_MAX_CONNECTIONS_PER_ADDRESS. */
  socketsRefused: number;
}

type LiveEventHandler<K extends LiveEventKind> = (event: Extract<LiveEvent, { kind: K }>) => void;

export interface Live {
  readonly hub: LiveHub;
  /** WS_MAX_CONNECTIONS and WS_MAX_CONNECTIONS_PER_ADDRESS, counted by /ws. */
  readonly connections: ConnectionLimits;
  /** A domain's topic family (see live/topics.ts); every family of the contract must have one before the app is ready. */
  registerTopic(handler: TopicHandler): void;
  /** A domain's handler of the LiveEvents of `kind` heard on the live channel (from every instance and the worker). */
  onEvent<K extends LiveEventKind>(kind: K, handler: LiveEventHandler<K>): void;
  /** Called after the live channel's subscription came back: events may have been missed meanwhile. */
  onResubscribed(listener: () => void): void;
  stats(): LiveStats;
}

declare module 'fastify' {
  interface FastifyInstance {
    live: Live;
  }
}

const liveEvent = TypeCompiler.Compile(LiveEvent);

/**
 * The live layer: this instance's websocket hub (sockets, budgets, pacing, delivery) and one Redis
 * subscription to the live channel whose events are checked against the contract and handed to the
 * domain that registered their kind. Domains register their topics (`app.live.registerTopic`); the
 * app refuses to become ready while a topic family of the contract has no handler.
 */
export default fp(
  async (app) => {
    const { config, log } = app;
    const hub = new LiveHub({ log });
    const handlers = new Map<LiveEventKind, LiveEventHandler<LiveEventKind>>();
    const resubscribed: (() => void)[] = [];
    const counters = { events: 0, eventsDropped: 0 };

    const handleRaw = (raw: string) => {
      let event: unknown;
      try {
        event = JSON.parse(raw);
      } catch {
        event = null;
      }
      if (!liveEvent.Check(event)) {
        counters.eventsDropped++;
        log.warn({ event: raw.slice(0, 200) }, 'live: event dropped (not the contract)');
        return;
      }
      const handler = handlers.get(event.kind);
      if (!handler) {
        counters.eventsDropped++;
        return;
      }
      counters.events++;
      try {
        handler(event);
      } catch (err) {
        log.warn({ err, kind: event.kind }, 'live: event handler failed');
      }
    };

    // One subscriber connection per instance for every topic: events are routed locally.
    const channel = channelName(config.redisPrefix, LIVE_CHANNEL);
    const subscriber = createRedisClient(config.redisUrl, 'tribuna-live-subscriber', log, {
      enableOfflineQueue: true,
      autoResubscribe: false,
      commandTimeout: undefined,
    });
    subscriber.on('message', (from: string, message: string) => {
      if (from === channel) handleRaw(message);
    });
    let subscribedOnce = false;
    let resolveFirst: () => void = () => undefined;
    const firstSubscription = new Promise<void>((resolve) => (resolveFirst = resolve));
    // Subscribed again on every (re)connection; what was published meanwhile is read from the snapshots.
    subscriber.on('ready', () => {
      subscriber.subscribe(channel).then(
        () => {
          if (subscribedOnce) {
            hub.resyncAll();
            for (const listener of resubscribed) listener();
          }
          subscribedOnce = true;
          resolveFirst();
        },
        (err: unknown) => log.warn({ err }, 'live: subscribing to the live channel failed'),
      );
    });

    const connections = new ConnectionLimits(config.wsMaxConnections, config.wsMaxConnectionsPerAddress);
    const live: Live = {
      hub,
      connections,
      registerTopic: (handler) => hub.registerTopic(handler),
      onEvent: (kind, handler) => {
        if (handlers.has(kind)) throw new Error(`live event '${kind}' handled twice`);
        handlers.set(kind, handler as unknown as LiveEventHandler<LiveEventKind>);
      },
      onResubscribed: (listener) => resubscribed.push(listener),
      stats: () => ({ ...hub.stats(), ...counters, sockets: connections.count(), socketsRefused: connections.refused }),
    };
    app.decorate('live', live);

    // A session that ended or a user whose rights changed (heard from any instance) loses its sockets.
    const stopHearing = sessionCache.onChange((change) => hub.disconnect(change));

    // Like the worker's job registry: a topic family of the contract without a handler stops the start.
    app.addHook('onReady', async () => hub.topics.assertComplete());
    app.addHook('onClose', async () => {
      stopHearing();
      hub.close();
      await closeRedisClient(subscriber);
    });

    // Ready to fan out before the app listens (when Redis is up; otherwise it catches up later).
    await Promise.race([firstSubscription, new Promise((resolve) => setTimeout(resolve, 3000).unref())]);
  },
  { name: 'live', dependencies: ['config', 'redis'] },
);
