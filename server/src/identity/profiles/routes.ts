import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { PROFILE_ROUTES } from '@tribuna/contracts/api/profiles';
import { PROFILE_IMAGE_FIELD, PROFILE_LIMITS, PROFILE_MESSAGES, type ProfileImageKind } from '@tribuna/contracts/profileRules';
import { serve, type RouteHandler } from '../../http/serve.ts';
import { withUploads } from '../../media/uploads.ts';
import { requireUser, requireWriter } from '../plugin.ts';
import { clearSessionCookie } from '../sessions/cookies.ts';
import * as account from './account.ts';
import * as edit from './edit.ts';
import * as tabs from './tabs.ts';

/** Who reads a profile: roles give no extra sight there (an admin sees what any user sees). */
const readerOf = (request: FastifyRequest): tabs.ProfileReader => (request.user ? { id: request.user.id } : null);

/**
 * The signed-in user's own profile, its edit and image uploads, account deletion (/api/me), and
 * anybody's public profile with its counters and tabs (/api/profiles/:userId; the posts tab is
 * GET /api/posts?userId=…).
 */
const profileRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.database.db;
  const { publicUrl } = app.config;
  const editCtx: edit.EditContext = { db, media: app.media, publicUrl, log: app.log };
  const accountCtx: account.AccountContext = { db, media: app.media, log: app.log, sessionCache: app.sessionCache };

  serve(app, PROFILE_ROUTES.me, async (request, reply) => {
    const user = requireUser(request);
    reply.header('cache-control', 'no-store');
    return account.getOwnProfile(db, user);
  });

  serve(app, PROFILE_ROUTES.updateProfile, async (request) => edit.updateOwnProfile(editCtx, requireWriter(request), request.body));

  serve(app, PROFILE_ROUTES.deleteAccount, async (request, reply) => {
    const user = requireUser(request);
    await account.deleteOwnAccount(accountCtx, user, request.body);
    clearSessionCookie(reply, publicUrl);
    return reply.code(204).send(null);
  });

  const uploadImage =
    (kind: ProfileImageKind): RouteHandler<typeof PROFILE_ROUTES.uploadAvatar> =>
    async (request, reply) => {
      // Before a byte of the body is read: visitors and suspended users send their image for nothing.
      const editor = requireWriter(request);
      const spec = {
        fileFields: [PROFILE_IMAGE_FIELD],
        textFields: [],
        maxFiles: 1,
        maxFileBytes: PROFILE_LIMITS.imageBytes,
        tooManyFilesMessage: edit.ONE_IMAGE_MESSAGE,
        fileTooLargeMessage: PROFILE_MESSAGES.imageTooLargeApi,
      };
      const image = await withUploads(request, spec, ({ files }) => edit.uploadProfileImage(editCtx, editor, kind, files));
      return reply.code(201).send(image);
    };
  serve(app, PROFILE_ROUTES.uploadAvatar, uploadImage('avatar'), { config: { bodyDeadline: 'upload' } });
  serve(app, PROFILE_ROUTES.uploadBanner, uploadImage('banner'), { config: { bodyDeadline: 'upload' } });

  serve(app, PROFILE_ROUTES.profile, async (request) => tabs.getPublicProfile(db, request.params.userId, readerOf(request)));

  serve(app, PROFILE_ROUTES.profileStats, async (request) => tabs.getStats(db, request.params.userId, readerOf(request)));

  serve(app, PROFILE_ROUTES.profileVotes, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return tabs.getVoteHistory(db, request.params.userId, readerOf(request));
  });

  serve(app, PROFILE_ROUTES.profileComments, async (request) => tabs.getComments(db, request.params.userId, readerOf(request), request.query.cursor));

  serve(app, PROFILE_ROUTES.profileGroups, async (request) => tabs.getGroups(db, request.params.userId, readerOf(request)));
};

export default profileRoutes;
