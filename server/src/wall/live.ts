import type { FastifyInstance } from 'fastify';
import type { WallLiveMessage } from '@tribuna/contracts/api/wall';
import type { FeedTotals } from './totals.ts';

/**
 * The wall's live updates: a change is published after its commit as the cluster event
 * `wall.live`, and every instance (this one included) hands it to its local viewers of the topic it
 * names (`feed`, `post:{id}`). Readers who were away resync over HTTP (the web refetches the posts
 * on screen), so a message lost while Redis is down costs freshness, never data.
 */
export function createWallLive(app: FastifyInstance, totals: FeedTotals) {
  app.events.subscribe('wall.live', (message) => {
    // A post appeared on or left the wall (on any instance): the cached totals are stale.
    if (message.type === 'feed-post' || message.type === 'post-deleted') totals.invalidate();
    app.live.hub.publish(message.topic, message);
  });
  return {
    publish: (message: WallLiveMessage) => app.events.publish('wall.live', message),
  };
}
