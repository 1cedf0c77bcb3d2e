import type { FastifyInstance } from 'fastify';
import type { WallLiveEvent } from '@tribuna/contracts/api/wall';
import { WALL_LIMITS } from '@tribuna/contracts/wallRules';
import { poolRunner, type SqlRunner } from '@tribuna/drizzle/pipelined';
import { PostCardCache } from './cardCache.ts';
import { FeedPageCache } from './pageCache.ts';
import { FeedTotals } from './totals.ts';
import { presentReactions } from './presenter.ts';
import * as repo from './repository.ts';
import { readersHidingAuthor } from '../access/policy.ts';

/** The walls' shared pages, cards and totals on this instance (see pageCache.ts, cardCache.ts and totals.ts). */
export interface WallCache {
  pages: FeedPageCache;
  cards: PostCardCache;
  totals: FeedTotals;
  /** Readers' 'Siguiendo' totals: kept WALL_LIMITS.followingTotalTtlMs, never dropped by what is posted. */
  followingTotals: FeedTotals;
  /** A post appeared, changed or went: shared pages and totals are stale, and with `postId` its card. */
  invalidate(postId?: string): void;
}

export function createWallCache(options: { pageTtlMs?: number; totalsTtlMs?: number } = {}): WallCache {
  const pages = new FeedPageCache(options.pageTtlMs);
  const cards = new PostCardCache(options.pageTtlMs);
  const totals = new FeedTotals(options.totalsTtlMs);
  const followingTotals = new FeedTotals(options.totalsTtlMs === 0 ? 0 : WALL_LIMITS.followingTotalTtlMs);
  return {
    pages,
    cards,
    totals,
    followingTotals,
    invalidate: (postId) => {
      pages.invalidate();
      if (postId) cards.drop(postId);
      totals.invalidate();
    },
  };
}

/** How often, at most, a comment's changed reaction counts go out to its viewers (per instance). */
export const REACTION_FLUSH_EVERY_MS = 250;

/**
 * Arms a one-shot timer that runs `flush` after `delayMs`; returns its cancel. The default is
 * setTimeout (unref'd); tests pass one they fire by hand.
 */
export type FlushScheduler = (flush: () => Promise<void>, delayMs: number) => () => void;

const timerScheduler: FlushScheduler = (flush, delayMs) => {
  const timer = setTimeout(() => void flush(), delayMs);
  timer.unref();
  return () => clearTimeout(timer);
};

export interface ReactionFlushOptions {
  /** Cadence of the snapshots (default REACTION_FLUSH_EVERY_MS). */
  everyMs?: number;
  scheduler?: FlushScheduler;
}

interface DirtyItem {
  topic: string;
  postId: string;
  commentId: string;
}

/**
 * Paces comment reaction counts on this instance: a comment's `reactions-changed` event (from any
 * instance) marks it dirty and arms the one timer; at the tick every dirty comment with viewers here
 * has its counts read again from the counters (one query for all of them: exact whatever order the
 * events arrived in, across instances) and published once as `comment-reactions` with a new `seq`.
 * A change heard during or after a tick arms another one, so viewers always end with the final
 * counts; an item's frames per second are bounded by the cadence, not by the tap rate.
 */
class ReactionFlusher {
  private readonly dirty = new Map<string, DirtyItem>();
  private cancel: (() => void) | null = null;
  private running: Promise<void> | null = null;
  private closed = false;
  /** Grows with every snapshot this instance publishes, so on every topic. */
  private seq = 0;
  private readonly everyMs: number;
  private readonly schedule: FlushScheduler;
  private readonly reader: SqlRunner;

  constructor(
    private readonly app: FastifyInstance,
    options: ReactionFlushOptions,
  ) {
    this.everyMs = options.everyMs ?? REACTION_FLUSH_EVERY_MS;
    this.schedule = options.scheduler ?? timerScheduler;
    this.reader = poolRunner(app.database.sql);
  }

  markDirty(item: DirtyItem): void {
    if (this.closed) return;
    this.dirty.set(item.commentId, item);
    this.arm();
  }

  private arm(): void {
    if (this.closed || this.cancel !== null || this.running !== null || this.dirty.size === 0) return;
    this.cancel = this.schedule(() => this.tick(), this.everyMs);
  }

  private tick(): Promise<void> {
    this.cancel = null;
    if (this.closed || this.running) return this.running ?? Promise.resolve();
    this.running = this.flush().finally(() => {
      this.running = null;
      this.arm();
    });
    return this.running;
  }

  private async flush(): Promise<void> {
    const hub = this.app.live.hub;
    const items = [...this.dirty.values()].filter((item) => hub.hasViewers(item.topic));
    this.dirty.clear();
    if (items.length === 0) return;
    let counts: Map<string, repo.ReactionCountsRow>;
    try {
      // One read of the counters, whatever the number of comments.
      counts = await repo.reactionCountsOf(
        this.reader,
        repo.COMMENT_REACTIONS,
        items.map((item) => item.commentId),
      );
    } catch (err) {
      // Retried at the next tick (unless a newer change already marked them).
      this.app.log.warn({ err, items: items.length }, 'reading comment reaction counts for live viewers failed; retrying');
      for (const item of items) if (!this.dirty.has(item.commentId)) this.dirty.set(item.commentId, item);
      return;
    }
    if (this.closed) return;
    for (const item of items) {
      const reactions = presentReactions(counts.get(item.commentId) ?? {});
      hub.publish(item.topic, { type: 'comment-reactions', topic: item.topic, postId: item.postId, commentId: item.commentId, reactions, seq: ++this.seq });
    }
  }

  /** Stops the timer and waits for a tick under way (no timer or query outlives the app). */
  async close(): Promise<void> {
    this.closed = true;
    this.cancel?.();
    this.cancel = null;
    this.dirty.clear();
    await this.running;
  }
}

/**
 * The wall's live updates: a change is published after its commit as the cluster event
 * `wall.live`, and every instance (this one included) hands it to its local viewers of the topic it
 * names (`feed`, `post:{id}`): edits, deletions and comments at once; a post's reaction counts as
 * the hub's paced snapshots of its topic, a comment's as the flusher's (ReactionFlusher). Readers who were away resync over HTTP (the web refetches the posts
 * on screen), so a message lost while Redis is down costs freshness, never data.
 */
export function createWallLive(app: FastifyInstance, cache: WallCache, options: ReactionFlushOptions = {}) {
  const flusher = new ReactionFlusher(app, options);
  app.addHook('onClose', () => flusher.close());
  app.events.subscribe('wall.live', (message) => {
    if (message.type === 'reactions-changed') {
      // The post's counts are its topic's snapshot, paced by the hub (wall/topics.ts); a comment's, the flusher's.
      if (message.commentId === null) app.live.hub.changed(message.topic);
      else flusher.markDirty({ topic: message.topic, postId: message.postId, commentId: message.commentId });
      return;
    }
    // A post appeared on, changed on or left the wall (on any instance): shared pages are stale.
    if (message.type === 'feed-post') cache.invalidate();
    if (message.type === 'post-deleted' || message.type === 'post-updated') cache.invalidate(message.postId);
    if (message.type === 'comment-created' || message.type === 'comment-updated') return publishComment(message);
    app.live.hub.publish(message.topic, message);
  });
  /**
   * A comment (new or edited) for the post's viewers here, but those who muted its author or are in a
   * block with them (issue 29: their threads leave the author out): one statement when anybody
   * signed in watches. Should it fail, the comment goes to nobody here (readers resync over HTTP).
   */
  const reader = poolRunner(app.database.sql);
  async function publishComment(message: Extract<WallLiveEvent, { type: 'comment-created' | 'comment-updated' }>): Promise<void> {
    const viewers = app.live.hub.viewerIds(message.topic);
    const author = message.type === 'comment-created' ? { userId: message.comment.author.id } : { commentId: message.commentId };
    const hiding = viewers.length > 0 ? await readersHidingAuthor(reader, author, viewers) : undefined;
    app.live.hub.publish(message.topic, message, hiding);
  }
  // A post appeared on a group's wall (on any instance): its shared pages are stale.
  app.events.subscribe('group.live', (message) => {
    if (message.type === 'group-post') cache.invalidate();
  });
  return {
    publish: (message: WallLiveEvent) => app.events.publish('wall.live', message),
  };
}
