import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { PROFILE_ROUTES } from '@tribuna/contracts/api/profiles';
import { poolRunner } from '@tribuna/drizzle/pipelined';
import { serve } from '../http/serve.ts';
import { requireUser, requireWriter } from '../identity/plugin.ts';
import * as follows from './service.ts';

/**
 * Follows (issue 28): 'Seguir' and its undoing on a profile, and the profile's followers and
 * following lists (declared with the profile routes: /api/profiles/:userId/…).
 */
const followRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx: follows.FollowsContext = {
    db: app.database.db,
    reader: poolRunner(app.database.sql),
    joinTransaction: (tx, change) => app.events.inTransaction('follows.changed', tx, change),
    log: app.log,
  };

  serve(app, PROFILE_ROUTES.followUser, async (request) => follows.follow(ctx, requireWriter(request).id, request.params.userId));

  serve(app, PROFILE_ROUTES.unfollowUser, async (request) => follows.unfollow(ctx, requireUser(request).id, request.params.userId));

  serve(app, PROFILE_ROUTES.profileFollowers, async (request) =>
    follows.listFollows(ctx, 'followers', request.params.userId, request.user?.id ?? null, request.query.cursor),
  );

  serve(app, PROFILE_ROUTES.profileFollowing, async (request) =>
    follows.listFollows(ctx, 'following', request.params.userId, request.user?.id ?? null, request.query.cursor),
  );
};

export default followRoutes;
