import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { MODERATION_ROUTES } from '@tribuna/contracts/api/moderation';
import { serve } from '../http/serve.ts';
import { requireUser } from '../identity/plugin.ts';
import * as safety from './service.ts';

/**
 * A fan's own mutes and blocks (issue 29): 'Silenciar' / 'Bloquear' and their undoing on a profile,
 * and the settings' lists 'Silenciados' / 'Bloqueados'. Suspended accounts may still protect
 * themselves: a signed-in user is enough.
 */
const safetyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.safety;

  serve(app, MODERATION_ROUTES.muteUser, async (request) => safety.change(ctx, 'mute', requireUser(request).id, request.params.userId));

  serve(app, MODERATION_ROUTES.unmuteUser, async (request) => safety.change(ctx, 'unmute', requireUser(request).id, request.params.userId));

  serve(app, MODERATION_ROUTES.blockUser, async (request) => safety.change(ctx, 'block', requireUser(request).id, request.params.userId));

  serve(app, MODERATION_ROUTES.unblockUser, async (request) => safety.change(ctx, 'unblock', requireUser(request).id, request.params.userId));

  serve(app, MODERATION_ROUTES.mutedUsers, async (request) => safety.list(ctx, 'muted', requireUser(request).id, request.query.cursor));

  serve(app, MODERATION_ROUTES.blockedUsers, async (request) => safety.list(ctx, 'blocked', requireUser(request).id, request.query.cursor));
};

export default safetyRoutes;
