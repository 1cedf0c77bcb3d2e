import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { MarkReadInput, NotificationPage, NotificationsQuery, UnreadCount } from '@tribuna/contracts/api/notifications';
import { errorResponses } from '../http/errors.ts';
import { requireUser } from '../identity/plugin.ts';
import * as notifications from './service.ts';

/**
 * The signed-in user's notifications (suspended accounts may read theirs too). Writing them, and
 * their live badges, is the domain plugin's (notifications/plugin.ts).
 */
const notificationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.notifications;

  app.get(
    '/api/notifications',
    {
      schema: {
        tags: ['notifications'],
        summary: "The signed-in user's notifications, newest first, 20 entries a page (reactions to one item are one entry), keyset cursor",
        querystring: NotificationsQuery,
        response: { 200: NotificationPage, ...errorResponses(400, 401, 429) },
      },
      config: { rateLimit: 'notifications.read', audience: 'user' },
    },
    async (request, reply) => {
      const user = requireUser(request);
      reply.header('cache-control', 'no-store');
      return notifications.listNotifications(ctx, user.id, request.query);
    },
  );

  app.get(
    '/api/notifications/unread',
    {
      schema: {
        tags: ['notifications'],
        summary: 'How many entries are unread (the badge)',
        response: { 200: UnreadCount, ...errorResponses(401, 429) },
      },
      config: { rateLimit: 'notifications.read', audience: 'user' },
    },
    async (request, reply) => {
      const user = requireUser(request);
      reply.header('cache-control', 'no-store');
      return notifications.getUnreadCount(ctx, user.id);
    },
  );

  app.post(
    '/api/notifications/read',
    {
      schema: {
        tags: ['notifications'],
        summary: "Mark the signed-in user's notifications read up to upTo (default: now); the other tabs hear the new count",
        body: MarkReadInput,
        response: { 200: UnreadCount, ...errorResponses(400, 401, 403, 429) },
      },
      config: { rateLimit: 'notifications.mark-read', audience: 'user' },
    },
    async (request) => {
      const user = requireUser(request);
      return notifications.markRead(ctx, user.id, request.body.upTo);
    },
  );
};

export default notificationRoutes;
