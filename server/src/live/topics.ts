import { LIVE_TOPIC_FAMILIES, type LiveTopicFamily } from '@tribuna/contracts/live';
import type { LiveUser } from './channels.ts';

/** A handler's answer to a subscribe: allowed (with or without snapshots), or refused with a code. */
export type TopicDecision = { ok: true; snapshots: boolean } | { ok: false; code: 'not-found' | 'forbidden' };

/** A snapshot message of a topic: the newest state, with a seq increasing with every change. */
export interface TopicSnapshot {
  seq: number;
}

/**
 * How often a family's messages go out. A handler states what differs from the hub's defaults
 * (LiveHub settings, same names); the fan-out's share of the process (maxFanoutShare) still bounds
 * the change lists.
 */
export interface TopicPacing {
  /**
   * Walks handing out a topic's snapshot per second under load, i.e. frames a viewer receives at
   * most, however many changes arrive (a token bucket: a change after a quiet spell goes out at
   * once, and jitter in a steady stream is absorbed by the burst).
   */
  snapshotsPerSecond: number;
  /** Snapshots that may go out in a row before the rate applies. */
  snapshotBurst: number;
  /** Change lists (LiveHub.changed with changes) go out at most this often per topic, the first after a quiet spell at once. */
  changesEveryMs: number;
  /** Changes per message: the newest (older ones are dropped). */
  maxChangesPerMessage: number;
}

/**
 * What a domain registers for a topic family (`poll`, `feed`, …): who may subscribe, and for a topic
 * with snapshots how to read the current one. The hub does the rest: sockets, budgets, pacing,
 * coalescing, slow-socket handling and delivery.
 */
export interface TopicHandler {
  family: LiveTopicFamily;
  /**
   * The canonical key of `family:key` (null for the family-wide topic `family`), or undefined when
   * the key is malformed (answered `invalid-message`). Called before any I/O.
   */
  normalizeKey(key: string | null): string | null | undefined;
  /** Whether `user` (null: a visitor) may watch the topic. May read PostgreSQL (cached by the domain). */
  authorize(key: string | null, user: LiveUser | null): Promise<TopicDecision>;
  /** The topic's current snapshot (topics with snapshots only); it carries `topic` itself. */
  readSnapshot?(key: string | null): Promise<TopicSnapshot>;
  /**
   * The message of the pending changes pushed with LiveHub.changed (e.g. a poll's `voters`), at
   * most maxChangesPerMessage of each list, the newest; null: nothing to send.
   */
  changesMessage?(key: string | null, added: unknown[], removed: unknown[], seq: number): object | null;
  /**
   * Who receives the changes messages: 'signed-in' leaves visitors out (a poll's voters name fans).
   * Either way the message is framed once per tick for every viewer who gets it. Default 'everyone'.
   */
  changesAudience?: 'everyone' | 'signed-in';
  /**
   * This family's pacing where it is not the hub's: its snapshot budget (e.g. a post's reaction
   * counts: a few a second), how often its change lists go out and how many changes a message holds
   * (a poll's voters). Read whenever it applies.
   */
  pacing?: Partial<TopicPacing>;
}

/** Topic handlers by family, with a completeness check like the worker's job registry. */
export class TopicRegistry {
  private readonly handlers = new Map<LiveTopicFamily, TopicHandler>();

  register(handler: TopicHandler): void {
    if (this.handlers.has(handler.family)) throw new Error(`live topic family '${handler.family}' registered twice`);
    this.handlers.set(handler.family, handler);
  }

  get(family: LiveTopicFamily): TopicHandler | undefined {
    return this.handlers.get(family);
  }

  /** The registered families (what a client may subscribe to), in registration order. */
  families(): LiveTopicFamily[] {
    return [...this.handlers.keys()];
  }

  /** Families of the contract without a handler. */
  missing(): LiveTopicFamily[] {
    return LIVE_TOPIC_FAMILIES.filter((family) => !this.handlers.has(family));
  }

  /** Throws (the server refuses to start) if a family of the contract has no handler. */
  assertComplete(): void {
    const missing = this.missing();
    if (missing.length > 0) throw new Error(`live topics without a handler: ${missing.join(', ')}`);
  }
}
