import { randomUUID } from 'node:crypto';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { FormatRegistry, type TSchema } from '@sinclair/typebox';
import type { SqlRunner } from '@tribuna/drizzle/pipelined';
import { BusEnvelope, CLUSTER_EVENTS, type ClusterEventName, type ClusterEvents } from '@tribuna/contracts/events';

/**
 * Every domain event by name. Cluster-wide ones come from contracts (CLUSTER_EVENTS); a domain
 * adds its local ones by augmenting this interface next to the code that publishes them:
 *
 *     declare module '../events/bus.ts' { interface DomainEvents { 'votes.committed': CommittedBatch } }
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface DomainEvents extends ClusterEvents {}

export type EventName = keyof DomainEvents;

/**
 * Work another domain does INSIDE a writer's transaction, by name (augmented like DomainEvents next
 * to the writer): it commits or rolls back with the write, so it can never be lost or done twice
 * the way after-commit work can. On a pipelined writer (the reaction batch) a handler sends its
 * statements on `tx` before its first await, so they travel behind the writer's; on an ordinary
 * transaction (a post or comment) it may await each. It may return after-commit work (a live badge).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface TransactionalEvents {}

export type TransactionalName = keyof TransactionalEvents;
/** After-commit work a transactional handler hands back: run once the writer committed; failures are logged. */
export type AfterCommit = () => Promise<void>;
/**
 * Runs after-commit work (functions to call, or work already started) to its end: best-effort,
 * each failure logged as `what` failed, never thrown back to the writer (its change is committed).
 */
export async function runAfterCommit(work: (AfterCommit | Promise<unknown>)[], log: BusLogger, what: string): Promise<void> {
  const settled = await Promise.allSettled(work.map((w) => (typeof w === 'function' ? w() : w)));
  for (const result of settled) if (result.status === 'rejected') log.warn({ err: result.reason }, `${what} failed`);
}

export type TransactionalHandler<N extends TransactionalName> = (tx: SqlRunner, payload: TransactionalEvents[N]) => Promise<AfterCommit | void>;
export type EventHandler<N extends EventName> = (payload: DomainEvents[N]) => unknown;

export interface BusLogger {
  warn(obj: object, msg: string): void;
}

/** Sends a serialized envelope to the other instances (Redis PUBLISH); rejects when Redis is down. */
export type BusTransport = (message: string) => Promise<unknown>;

// The formats event payloads use (TypeBox's compiler knows none by itself; Ajv checks them on HTTP).
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
if (!FormatRegistry.Has('uuid')) FormatRegistry.Set('uuid', (value) => UUID.test(value));
if (!FormatRegistry.Has('date-time')) FormatRegistry.Set('date-time', (value) => !Number.isNaN(Date.parse(value)) && /^\d{4}-\d{2}-\d{2}T/.test(value));

const envelopeCheck = TypeCompiler.Compile(BusEnvelope);
const clusterChecks = new Map<string, TypeCheck<TSchema>>(
  Object.entries(CLUSTER_EVENTS).map(([name, schema]) => [name, TypeCompiler.Compile(schema as TSchema)]),
);

const isClusterEvent = (name: string): name is ClusterEventName => clusterChecks.has(name);

/**
 * The after-commit event bus of one server instance. `publish` hands the event to this instance's
 * subscribers at once (a failing subscriber is logged, never thrown back to the publisher: the work
 * is committed already) and, for cluster-wide events, to every other instance through the transport.
 * `receive` is what the transport's subscription calls with a message from any instance.
 */
export class EventBus {
  /** This instance, so it ignores its own cluster events coming back from Redis. */
  readonly origin = randomUUID();
  private readonly handlers = new Map<string, EventHandler<EventName>[]>();
  private readonly transactional = new Map<string, TransactionalHandler<TransactionalName>[]>();
  private readonly reconnectListeners: (() => void)[] = [];
  readonly stats = { published: 0, received: 0, dropped: 0, handlerErrors: 0, transportErrors: 0 };

  constructor(
    private readonly log: BusLogger,
    private transport: BusTransport | null = null,
  ) {}

  setTransport(transport: BusTransport | null): void {
    this.transport = transport;
  }

  subscribe<N extends EventName>(name: N, handler: EventHandler<N>): () => void {
    const list = this.handlers.get(name) ?? [];
    list.push(handler as EventHandler<EventName>);
    this.handlers.set(name, list);
    return () => {
      const current = this.handlers.get(name);
      if (current)
        this.handlers.set(
          name,
          current.filter((h) => h !== handler),
        );
    };
  }

  /**
   * Called each time this instance hears the other processes again after its subscription was lost
   * (Redis restarted or unreachable): cluster events sent meanwhile were missed, so a subscriber
   * that keeps state from them (live viewers, caches) reads it afresh.
   */
  onReconnect(listener: () => void): void {
    this.reconnectListeners.push(listener);
  }

  /** The transport's subscription came back after a loss (see onReconnect). */
  reconnected(): void {
    for (const listener of this.reconnectListeners) {
      try {
        listener();
      } catch (err) {
        this.log.warn({ err }, 'event bus: a reconnect listener failed');
      }
    }
  }

  /** Joins `handler` to every transaction of writer `name` (see TransactionalEvents). */
  joinTransactions<N extends TransactionalName>(name: N, handler: TransactionalHandler<N>): () => void {
    const list = this.transactional.get(name) ?? [];
    list.push(handler as TransactionalHandler<TransactionalName>);
    this.transactional.set(name, list);
    return () => {
      const current = this.transactional.get(name);
      if (current)
        this.transactional.set(
          name,
          current.filter((h) => h !== handler),
        );
    };
  }

  /**
   * Runs the handlers joined to writer `name` inside its transaction `tx`: all are called at once,
   * in the order they joined, so their statements are pipelined behind the writer's. A failure
   * rejects (the writer's transaction then rolls back). Resolves to their after-commit work.
   */
  async inTransaction<N extends TransactionalName>(name: N, tx: SqlRunner, payload: TransactionalEvents[N]): Promise<AfterCommit[]> {
    const list = this.transactional.get(name) ?? [];
    const results = await Promise.all(list.map((handler) => handler(tx, payload)));
    return results.filter((work): work is AfterCommit => typeof work === 'function');
  }

  /** Delivers to this instance's subscribers (awaited) and, for a cluster event, to the others. Never rejects. */
  async publish<N extends EventName>(name: N, payload: DomainEvents[N]): Promise<void> {
    this.stats.published++;
    const remote = isClusterEvent(name) && this.transport ? this.sendRemote(name, payload) : null;
    await this.deliver(name, payload);
    await remote;
  }

  /**
   * publish for the outbox's relay: rejects when the other instances could not be told (Redis
   * down), so the message stays in the outbox and is published again later.
   */
  async publishStrictly<N extends ClusterEventName>(name: N, payload: DomainEvents[N]): Promise<void> {
    if (!this.transport) throw new Error('event bus: no transport to the other instances');
    const envelope: BusEnvelope = { name, origin: this.origin, payload };
    await this.transport(JSON.stringify(envelope));
    this.stats.published++;
    await this.deliver(name, payload);
  }

  /** A raw message of the bus channel: checked, then delivered here unless this instance sent it. */
  receive(raw: string): void {
    let envelope: unknown;
    try {
      envelope = JSON.parse(raw);
    } catch {
      envelope = null;
    }
    if (!envelopeCheck.Check(envelope)) return this.drop('malformed envelope');
    if (envelope.origin === this.origin) return;
    const check = clusterChecks.get(envelope.name);
    if (!check) return this.drop('unknown event', envelope.name);
    if (!check.Check(envelope.payload)) {
      const first = check.Errors(envelope.payload).First();
      return this.drop(`invalid payload${first ? ` at ${first.path || '/'}: ${first.message}` : ''}`, envelope.name);
    }
    this.stats.received++;
    void this.deliver(envelope.name as EventName, envelope.payload as DomainEvents[EventName]);
  }

  private drop(reason: string, name?: string): void {
    this.stats.dropped++;
    this.log.warn({ event: name, reason }, 'event bus: message dropped');
  }

  private async deliver<N extends EventName>(name: N, payload: DomainEvents[N]): Promise<void> {
    const list = this.handlers.get(name);
    if (!list || list.length === 0) return;
    await Promise.all(
      list.map(async (handler) => {
        try {
          await handler(payload);
        } catch (err) {
          this.stats.handlerErrors++;
          this.log.warn({ err, event: name }, 'event bus: a subscriber failed');
        }
      }),
    );
  }

  private async sendRemote(name: string, payload: unknown): Promise<void> {
    const envelope: BusEnvelope = { name, origin: this.origin, payload };
    try {
      await this.transport!(JSON.stringify(envelope));
    } catch (err) {
      // Other instances miss it: their caches expire within their TTL (poll cache: 1 s).
      this.stats.transportErrors++;
      this.log.warn({ err: { message: (err as Error).message }, event: name }, 'event bus: not sent to the other instances');
    }
  }
}
