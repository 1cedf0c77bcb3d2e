import fp from 'fastify-plugin';
import { poolRunner } from '@tribuna/drizzle/pipelined';
import { ENQUEUE_TIMEOUT_MS, QueueUnavailableError } from '../plugins/queues.ts';
import { withTimeout } from '../http/timeout.ts';
import { EndpointPolicy, type ResolveAll } from './endpointPolicy.ts';
import * as repo from './repository.ts';
import type { PushContext } from './service.ts';
import { loadVapidKeys } from './vapid.ts';
import { PushWaker } from './wake.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The web push domain's context (push/service.ts), for its routes; and its wake-ups of the worker. */
    push: PushContext & { waker: PushWaker };
  }
}

export interface PushPluginOptions {
  /** How endpoints' names are resolved (default: the system's resolver). Tests answer chosen addresses. */
  resolve?: ResolveAll;
}

/**
 * Web push (issue 31): the VAPID keys (push/vapid.ts: the environment's, or generated outside
 * production), the endpoint policy, and the wake-ups of the worker for a fan's own pushes: after
 * new notifications commit on this instance (`notifications.created`), and inside the transaction of
 * a post published in a group (the `wall.written` transactional event: the group's other members
 * with a device, woken after commit).
 */
export default fp<PushPluginOptions>(
  async (app, options) => {
    const vapid = await loadVapidKeys(app.config);
    if (!vapid) app.log.warn('web push is off: VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are not set');
    const reader = poolRunner(app.database.sql);
    const queue = app.queues.push;
    const waker = new PushWaker({
      reader,
      log: app.log,
      addJobs: (jobs) => {
        if (!app.queuesReady()) return Promise.reject(new QueueUnavailableError('enqueue push.user'));
        return withTimeout(queue.addBulk(jobs), ENQUEUE_TIMEOUT_MS, 'enqueue push.user');
      },
    });
    app.decorate('push', {
      db: app.database.db,
      reader,
      policy: new EndpointPolicy({ testEndpointOrigins: app.config.push.testEndpointOrigins, resolve: options.resolve }),
      vapid,
      outbox: app.outbox,
      log: app.log,
      waker,
    });
    // Started, never awaited: a request's after-commit work does not wait on Redis for this.
    app.events.subscribe('notifications.created', ({ userIds }) => waker.start(userIds));
    app.events.joinTransactions('wall.written', async (tx, event) => {
      if (event.kind !== 'post-written') return;
      const members = await repo.groupMembersToWake(tx, event.postId);
      if (members.length > 0) return async () => waker.start(members, true);
    });
    // Before the queues and the database close (plugins close in reverse order of registration).
    app.addHook('onClose', () => waker.idle());
  },
  { name: 'push', dependencies: ['config', 'db', 'queues', 'events', 'outbox'] },
);
