import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { JobsOptions } from 'bullmq';
import type { ClusterEventName, ClusterEvents } from '@tribuna/contracts/events';
import type { JobName, JobPayloads } from '@tribuna/contracts/jobs';
import { createDatabase, type DbOrTx } from '@tribuna/drizzle/client';
import { OutboxRelay, OUTBOX_POLL_MS } from './relay.ts';
import * as repo from './repository.ts';
import type { OutboxRow } from './repository.ts';

/**
 * Work outside PostgreSQL that must not be lost, recorded in the change's own transaction and
 * carried out at least once (outbox/relay.ts). After the transaction commits, hand the ids to
 * `deliver` for a prompt delivery; if this instance dies first, another instance's relay does it.
 */
export interface Outbox {
  /** A job to enqueue once `tx` commits; its queue ignores a second add of the same `jobId` (by default `outbox.<id>`). */
  enqueue<N extends JobName>(tx: DbOrTx, name: N, payload: JobPayloads[N], options?: { jobId?: string }): Promise<number>;
  /** A cluster event to publish once `tx` commits; its subscribers must tolerate hearing it twice. */
  publish<N extends ClusterEventName>(tx: DbOrTx, name: N, payload: ClusterEvents[N]): Promise<number>;
  /** After COMMIT: carries these messages out now. Never rejects (a failure leaves them to the relay). */
  deliver(ids: number[]): Promise<void>;
  readonly relay: OutboxRelay;
}

declare module 'fastify' {
  interface FastifyInstance {
    outbox: Outbox;
  }
}

export interface OutboxPluginOptions {
  /** How often an idle relay looks for due messages (default OUTBOX_POLL_MS); 0: no polling (tests drive it). */
  pollMs?: number;
}

/** How this instance carries one message out (idempotent: a job's id, a tolerant event subscriber). */
export function deliverer(app: FastifyInstance): (message: OutboxRow) => Promise<void> {
  return async (message) => {
    if (message.kind === 'job') {
      const opts: JobsOptions = { jobId: message.jobId ?? `outbox.${message.id}` };
      await app.enqueue(message.name as JobName, message.payload as JobPayloads[JobName], opts);
    } else if (message.kind === 'event') {
      await app.events.publishStrictly(message.name as ClusterEventName, message.payload as ClusterEvents[ClusterEventName]);
    } else {
      throw new Error(`unknown outbox kind ${String(message.kind)}`);
    }
  };
}

/** `app.outbox`: the transactional outbox and this instance's relay. */
export default fp<OutboxPluginOptions>(
  async (app, options) => {
    // Its own connection: the relay's polling never waits behind (nor is counted with) the pool's
    // requests, and a round's transaction never holds one of their connections.
    const relayDatabase = createDatabase(app.config.databaseUrl, {
      max: 1,
      connectTimeout: 2,
      applicationName: 'tribuna-outbox-relay',
      statementTimeoutMs: 30_000,
      idleInTransactionTimeoutMs: 60_000,
    });
    const relay = new OutboxRelay({
      db: relayDatabase.db,
      log: app.log,
      pollMs: options.pollMs || OUTBOX_POLL_MS,
      deliver: deliverer(app),
    });
    const outbox: Outbox = {
      enqueue: async (tx, name, payload, opts) => (await repo.insertMessages(tx, [{ kind: 'job', name, payload, jobId: opts?.jobId ?? null }]))[0]!,
      publish: async (tx, name, payload) => (await repo.insertMessages(tx, [{ kind: 'event', name, payload }]))[0]!,
      deliver: (ids) => relay.deliver(ids),
      relay,
    };
    app.decorate('outbox', outbox);
    app.addHook('onReady', async () => {
      if (options.pollMs !== 0) relay.start();
    });
    // Before the queues and the database close (plugins close in reverse order of registration).
    app.addHook('onClose', async () => {
      await relay.close();
      await relayDatabase.sql.end({ timeout: 5 });
    });
  },
  { name: 'outbox', dependencies: ['events'] },
);
