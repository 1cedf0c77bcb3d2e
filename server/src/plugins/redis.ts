import fp from 'fastify-plugin';
import { Redis, type RedisOptions } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';

declare module 'fastify' {
  interface FastifyInstance {
    /** Commands fail within ~2 s while Redis is down instead of hanging; the client reconnects by itself. */
    redis: Redis;
    /** `redisKey('live', pollId)` → `<REDIS_PREFIX>:live:<pollId>`: every key we write carries the prefix. */
    redisKey(...parts: string[]): string;
  }
}

/** Reconnect quickly at first, then every 2 s, forever: Redis coming back must heal the server by itself. */
export const reconnectDelay = (attempt: number) => Math.min(attempt * 200, 2000);

/**
 * Nothing waits on Redis without bound. A command issued while disconnected waits in ioredis's
 * offline queue, which maxRetriesPerRequest: 1 empties (rejecting them) on every second failed
 * reconnection, i.e. within about 2 × (connectTimeout + 2 s); the caller is answered within
 * commandTimeout anyway. A connection that stays "ready" while Redis stopped answering (a host gone
 * without a reset) is dropped by socketTimeout, so unanswered commands cannot pile up on it either.
 * The queues' connection retries forever instead (BullMQ), so jobs are not even offered to it
 * while it is down (see queues.ts).
 */
export function createRedisClient(url: string, name: string, log: FastifyBaseLogger, options: RedisOptions = {}): Redis {
  const client = new Redis(url, {
    connectionName: name,
    connectTimeout: 2000,
    commandTimeout: 2000,
    socketTimeout: 5000,
    maxRetriesPerRequest: 1,
    retryStrategy: reconnectDelay,
    ...options,
  });
  watchConnection(client, name, log);
  return client;
}

/** Logs a lost connection once at warn level and the retries at debug, never crashing on 'error'. */
export function watchConnection(client: Redis, name: string, log: FastifyBaseLogger): void {
  let healthy = true;
  client.on('error', (err: Error) => {
    if (healthy) {
      healthy = false;
      log.warn({ err: { message: err.message, code: (err as { code?: string }).code } }, `redis (${name}) unavailable`);
    } else {
      log.debug({ err: { message: err.message } }, `redis (${name}) still unavailable`);
    }
  });
  client.on('ready', () => {
    if (!healthy) log.info(`redis (${name}) reconnected`);
    healthy = true;
  });
}

/** Closes gracefully when connected, immediately otherwise (QUIT would wait for a connection). */
export async function closeRedisClient(client: Redis): Promise<void> {
  if (client.status === 'ready') {
    try {
      await client.quit();
      return;
    } catch {
      // fall through to a hard disconnect
    }
  }
  client.disconnect();
}

export default fp(
  async (app) => {
    const redis = createRedisClient(app.config.redisUrl, 'tribuna-server', app.log);
    const prefix = app.config.redisPrefix;
    app.decorate('redis', redis);
    app.decorate('redisKey', (...parts: string[]) => [prefix, ...parts].join(':'));
    app.addHook('onClose', async () => {
      await closeRedisClient(redis);
    });
  },
  { name: 'redis', dependencies: ['config'] },
);
