import fp from 'fastify-plugin';
import type { AbuseScanMessage } from '@tribuna/contracts/api/admin/abuse';
import { coalesce, DASHBOARD_PUSH_MS } from './dashboard/live.ts';
import { adminTopic } from './topics.ts';
import { recordAudit } from './audit.ts';

/**
 * The back-office's live side on this instance, owned here rather than by its routes: the `admin`
 * topic (admin/topics.ts), the worker's abuse-scan progress (the cluster event `abuse.scan-progress`) to the
 * admins watching it, and the live dashboard. While an admin watches on this instance, the
 * dashboard is read again when votes commit here or a poll changes anywhere, and every
 * DASHBOARD_PUSH_MS for what happens elsewhere (votes on other instances, new users, page views),
 * coalesced to at most one read per period; the hub sends it only when it differs. Without a
 * watcher on this instance, `changed` costs nothing.
 */
export default fp(
  async (app) => {
    const hub = app.live.hub;
    app.live.registerTopic(adminTopic(app.database.db, app.config.requireAdminMfa));

    // A group deleted by a site admin's powers (here or on its page) is audited in its transaction.
    app.events.joinTransactions('group.deleted', async (tx, { group, actorId, bySiteAdmin }) => {
      if (!bySiteAdmin) return;
      await recordAudit(tx, actorId, { action: 'group.delete', entityType: 'group', entityId: group.id, before: group, after: null });
    });

    app.events.subscribe('abuse.scan-progress', ({ scanId, status, progress }) => {
      const message: AbuseScanMessage = { type: 'abuse-scan', topic: 'admin', scanId, status, progress };
      hub.publish('admin', message);
    });

    const pusher = coalesce(() => hub.changed('admin'), DASHBOARD_PUSH_MS);
    const unsubscribe = [app.events.subscribe('votes.committed', pusher.poke), app.events.subscribe('poll.changed', pusher.poke)];
    const timer = setInterval(pusher.poke, DASHBOARD_PUSH_MS);
    timer.unref();
    app.addHook('onClose', async () => {
      clearInterval(timer);
      pusher.stop();
      for (const off of unsubscribe) off();
    });
  },
  { name: 'admin', dependencies: ['config', 'db', 'events', 'live', 'groups'] },
);
