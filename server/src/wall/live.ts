import type { FastifyInstance } from 'fastify';
import type { WallLiveMessage } from '@tribuna/contracts/api/wall';
import { FeedPageCache } from './pageCache.ts';
import { FeedTotals } from './totals.ts';

/** The public wall's shared pages and total on this instance (see pageCache.ts and totals.ts). */
export interface WallCache {
  pages: FeedPageCache;
  totals: FeedTotals;
  invalidate(): void;
}

export function createWallCache(options: { pageTtlMs?: number; totalsTtlMs?: number } = {}): WallCache {
  const pages = new FeedPageCache(options.pageTtlMs);
  const totals = new FeedTotals(options.totalsTtlMs);
  return {
    pages,
    totals,
    invalidate: () => {
      pages.invalidate();
      totals.invalidate();
    },
  };
}

/**
 * The wall's live updates: a change is published after its commit as the cluster event
 * `wall.live`, and every instance (this one included) hands it to its local viewers of the topic it
 * names (`feed`, `post:{id}`). Readers who were away resync over HTTP (the web refetches the posts
 * on screen), so a message lost while Redis is down costs freshness, never data.
 */
export function createWallLive(app: FastifyInstance, cache: WallCache) {
  app.events.subscribe('wall.live', (message) => {
    // A post appeared on, changed on or left the wall (on any instance): shared pages are stale.
    if (message.type === 'feed-post' || message.type === 'post-deleted' || message.type === 'post-updated') cache.invalidate();
    app.live.hub.publish(message.topic, message);
  });
  return {
    publish: (message: WallLiveMessage) => app.events.publish('wall.live', message),
  };
}
