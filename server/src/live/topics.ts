import { LIVE_TOPIC_FAMILIES, type LiveTopicFamily } from '@tribuna/contracts/live';
import type { LiveUser } from './channels.ts';

/** A handler's answer to a subscribe: allowed (with or without snapshots), or refused with a code. */
export type TopicDecision = { ok: true; snapshots: boolean } | { ok: false; code: 'not-found' | 'forbidden' };

/** A snapshot message of a topic: the newest state, with a seq increasing with every change. */
export interface TopicSnapshot {
  seq: number;
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
  /** The message of the pending changes pushed with LiveHub.changed (e.g. a poll's `voters`); null: nothing to send. */
  changesMessage?(key: string | null, added: unknown[], removed: unknown[], seq: number): object | null;
  /**
   * Who receives the changes messages: 'signed-in' leaves visitors out (a poll's voters name fans).
   * Either way the message is framed once per tick for every viewer who gets it. Default 'everyone'.
   */
  changesAudience?: 'everyone' | 'signed-in';
  /** This family's snapshot budget, when it is not the hub's (e.g. a post's reaction counts: a few a second). */
  pacing?: { snapshotsPerSecond: number; snapshotBurst: number };
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
