import fp from 'fastify-plugin';
import { ConnectionLimits } from './connections.ts';
import { LiveHub, type HubStats } from './hub.ts';
import type { TopicHandler } from './topics.ts';

export interface LiveStats extends HubStats {
  /** Websocket connections counted against the caps (from upgrade to close, closing ones included). */
  sockets: number;
  /** Websocket connections refused by WS_MAX_CONNECTIONS or WS_MAX_CONNECTIONS_PER_ADDRESS. */
  socketsRefused: number;
}

export interface Live {
  readonly hub: LiveHub;
  /** WS_MAX_CONNECTIONS and WS_MAX_CONNECTIONS_PER_ADDRESS, counted by /ws. */
  readonly connections: ConnectionLimits;
  /** A domain's topic family (see live/topics.ts); every family of the contract must have one before the app is ready. */
  registerTopic(handler: TopicHandler): void;
  stats(): LiveStats;
}

declare module 'fastify' {
  interface FastifyInstance {
    live: Live;
  }
}

/**
 * The live layer: this instance's websocket hub (sockets, budgets, pacing, delivery). Domains
 * register their topics (`app.live.registerTopic`) and feed them from the cluster's events
 * (`app.events.subscribe`, events/plugin.ts); the app refuses to become ready while a topic family
 * of the contract has no handler.
 */
export default fp(
  async (app) => {
    const { config, log } = app;
    const hub = new LiveHub({ log });
    // Events published while this instance did not hear the bus were missed: every viewer resyncs.
    app.events.onReconnect(() => hub.resyncAll());

    const connections = new ConnectionLimits(config.wsMaxConnections, config.wsMaxConnectionsPerAddress);
    const live: Live = {
      hub,
      connections,
      registerTopic: (handler) => hub.registerTopic(handler),
      stats: () => ({ ...hub.stats(), sockets: connections.count(), socketsRefused: connections.refused }),
    };
    app.decorate('live', live);

    // A session that ended or a user whose rights changed (heard from any instance) loses its sockets.
    const stopHearing = app.sessionCache.onChange((change) => hub.disconnect(change));

    // Like the worker's job registry: a topic family of the contract without a handler stops the start.
    app.addHook('onReady', async () => hub.topics.assertComplete());
    app.addHook('onClose', async () => {
      stopHearing();
      hub.close();
    });
  },
  { name: 'live', dependencies: ['config', 'events'] },
);
