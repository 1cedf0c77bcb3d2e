import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { NOTIFICATION_ROUTES } from '@tribuna/contracts/api/notifications';
import { serve } from '../http/serve.ts';
import { requireUser } from '../identity/plugin.ts';
import * as notifications from './service.ts';

/**
 * The signed-in user's notifications (suspended accounts may read theirs too). Writing them, and
 * their live badges, is the domain plugin's (notifications/plugin.ts).
 */
const notificationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.notifications;

  serve(app, NOTIFICATION_ROUTES.notifications, async (request, reply) => {
    const user = requireUser(request);
    reply.header('cache-control', 'no-store');
    return notifications.listNotifications(ctx, user.id, request.query);
  });

  serve(app, NOTIFICATION_ROUTES.unreadNotifications, async (request, reply) => {
    const user = requireUser(request);
    reply.header('cache-control', 'no-store');
    return notifications.getUnreadCount(ctx, user.id);
  });

  serve(app, NOTIFICATION_ROUTES.markNotificationsRead, async (request) => {
    const user = requireUser(request);
    return notifications.markRead(ctx, user.id, request.body.upTo);
  });
};

export default notificationRoutes;
