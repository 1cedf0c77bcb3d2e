import fp from 'fastify-plugin';
import { busChannel } from '@tribuna/contracts/events';
import { closeRedisClient, createRedisClient } from '../plugins/redis.ts';
import { EventBus } from './bus.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The after-commit domain event bus (events/bus.ts). */
    events: EventBus;
  }
}

/**
 * `app.events`, the one event system: domains publish what they committed, other domains subscribe
 * (live fan-out, award jobs, caches). Cluster-wide events go out with one PUBLISH on the shared
 * Redis connection and come back from every instance, the worker and the live totals' script on
 * this plugin's own subscriber connection (one per instance).
 */
export default fp(
  async (app) => {
    const { config, redis, log } = app;
    const channel = busChannel(config.redisPrefix);
    const bus = new EventBus(log);
    bus.setTransport((message) => {
      // Skipped while Redis is down rather than queued in memory (ioredis's offline queue).
      if (redis.status !== 'ready') return Promise.reject(new Error('redis not ready'));
      return redis.publish(channel, message);
    });

    const subscriber = createRedisClient(config.redisUrl, 'tribuna-events-subscriber', log, {
      enableOfflineQueue: true,
      autoResubscribe: false,
      commandTimeout: undefined,
    });
    subscriber.on('message', (from: string, message: string) => {
      if (from === channel) bus.receive(message);
    });
    let subscribedOnce = false;
    let resolveFirst: () => void = () => undefined;
    const firstSubscription = new Promise<void>((resolve) => (resolveFirst = resolve));
    // Subscribed again on every (re)connection; what was published meanwhile is read afresh by the
    // subscribers that keep state (bus.onReconnect).
    subscriber.on('ready', () => {
      subscriber.subscribe(channel).then(
        () => {
          if (subscribedOnce) bus.reconnected();
          subscribedOnce = true;
          resolveFirst();
        },
        (err: unknown) => log.warn({ err }, 'events: subscribing to the bus channel failed'),
      );
    });

    app.decorate('events', bus);
    app.addHook('onClose', async () => {
      bus.setTransport(null);
      await closeRedisClient(subscriber);
    });
    // Hearing the other instances before the app listens (when Redis is up; otherwise later).
    await Promise.race([firstSubscription, new Promise((resolve) => setTimeout(resolve, 3000).unref())]);
  },
  { name: 'events', dependencies: ['config', 'redis'] },
);
