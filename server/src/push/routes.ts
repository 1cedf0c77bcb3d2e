import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { PUSH_ROUTES } from '@tribuna/contracts/api/push';
import { serve } from '../http/serve.ts';
import { adminGuard } from '../identity/adminGuard.ts';
import { requireUser } from '../identity/plugin.ts';
import * as push from './service.ts';

/**
 * Web push (issue 31): the VAPID public key (anyone: the prompt asks before signing in matters), and
 * a fan's own devices and preferences (a signed-in user; suspended accounts too: receiving is not
 * writing). The back-office's routes are pushAdminRoutes.
 */
const pushRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.push;

  serve(app, PUSH_ROUTES.pushConfig, async () => push.pushConfig(ctx));

  serve(app, PUSH_ROUTES.pushSettings, async (request) => push.settings(ctx, requireUser(request).id));

  serve(app, PUSH_ROUTES.subscribePush, async (request, reply) => {
    const userId = requireUser(request).id;
    const device = await push.subscribe(ctx, userId, request.body, request.headers['user-agent']);
    ctx.waker.forget(userId);
    return reply.code(201).send(device);
  });

  serve(app, PUSH_ROUTES.removePushDevice, async (request) => push.removeDevice(ctx, requireUser(request).id, request.params.deviceId));

  serve(app, PUSH_ROUTES.updatePushPreferences, async (request) => push.updatePreferences(ctx, requireUser(request).id, request.body));
};

/**
 * 'Notificar a los fans' and the broadcasts' progress, registered with the prefix /api/admin: the
 * admin guard of /api/admin (identity/adminGuard.ts) is this context's onRequest hook, before any route.
 */
export const pushAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('onRequest', adminGuard(app.config.requireAdminMfa));
  const ctx = app.push;

  serve(app, PUSH_ROUTES.notifyPoll, async (request, reply) => reply.code(202).send(await push.notifyPoll(ctx, requireUser(request), request.params.pollId)));

  serve(app, PUSH_ROUTES.pushBroadcasts, async () => push.listBroadcasts(ctx));
};

export default pushRoutes;
