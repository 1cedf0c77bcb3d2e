import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { DeleteAccountInput, Profile } from '@tribuna/contracts/api/me';
import {
  ProfileCommentPage,
  ProfileGroupList,
  ProfileListQuery,
  ProfileParams,
  ProfileStats,
  PublicProfile,
  UpdateProfileInput,
  UploadedProfileImage,
  VoteHistory,
} from '@tribuna/contracts/api/profiles';
import { PROFILE_IMAGE_FIELD, PROFILE_LIMITS, PROFILE_MESSAGES, type ProfileImageKind } from '@tribuna/contracts/profileRules';
import { errorResponses } from '../../http/errors.ts';
import { withUploads } from '../../media/uploads.ts';
import { requireUser, requireWriter } from '../plugin.ts';
import { clearSessionCookie } from '../sessions/cookies.ts';
import * as account from './account.ts';
import * as edit from './edit.ts';
import * as tabs from './tabs.ts';

const tags = ['profiles'];

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
  const accountCtx: account.AccountContext = { db, media: app.media, log: app.log };

  app.get(
    '/api/me',
    {
      schema: {
        tags,
        summary: 'The signed-in profile (role included)',
        response: { 200: Profile, ...errorResponses(401, 429) },
      },
      config: { rateLimit: 'account.read', audience: 'user' },
    },
    async (request, reply) => {
      const user = requireUser(request);
      reply.header('cache-control', 'no-store');
      return account.getOwnProfile(db, user);
    },
  );

  app.patch(
    '/api/me',
    {
      schema: {
        tags,
        summary: 'Edit the own profile: only the fields sent change (name, username, bio, avatar and banner URLs, shown in voters lists)',
        description:
          "Texts are trimmed; an empty username, bio, avatar or banner clears it. Usernames are 3-20 of a-z 0-9 _, lower-cased, unique ignoring case (409). Avatar and banner: this site's /media/ uploads or https Google user-content URLs.",
        body: UpdateProfileInput,
        response: { 200: Profile, ...errorResponses(400, 401, 403, 409, 429) },
      },
      config: { rateLimit: 'account.update', audience: 'writer' },
    },
    async (request) => edit.updateOwnProfile(editCtx, requireWriter(request), request.body),
  );

  app.delete(
    '/api/me',
    {
      schema: {
        tags,
        summary: 'Delete (anonymise) the own account and sign out everywhere; the body must confirm with ELIMINAR',
        body: DeleteAccountInput,
        response: { 204: Type.Null(), ...errorResponses(400, 401, 403, 429) },
      },
      config: { rateLimit: 'account.delete', audience: 'user' },
    },
    async (request, reply) => {
      const user = requireUser(request);
      await account.deleteOwnAccount(accountCtx, user, request.body);
      clearSessionCookie(reply, publicUrl);
      return reply.code(204).send(null);
    },
  );

  const uploadRoute = (kind: ProfileImageKind, path: string) =>
    app.post(
      path,
      {
        schema: {
          tags,
          summary: `Upload a new ${kind} (JPG, PNG or WebP up to 5 MB): re-encoded to WebP and cropped to ${kind === 'avatar' ? '400×400' : '1500×500'}; PATCH /api/me saves its URL`,
          description: `multipart/form-data, read while streaming with its limits enforced as the parts arrive; the image type is sniffed from the bytes. File: ${PROFILE_IMAGE_FIELD} (one).`,
          consumes: ['multipart/form-data'],
          response: { 201: UploadedProfileImage, ...errorResponses(400, 401, 403, 406, 413, 415, 429, 503) },
        },
        config: { rateLimit: 'account.upload', audience: 'writer', bodyDeadline: 'upload' },
      },
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
      },
    );
  uploadRoute('avatar', '/api/me/avatar');
  uploadRoute('banner', '/api/me/banner');

  app.get(
    '/api/profiles/:userId',
    {
      schema: {
        tags,
        summary: "A user's public profile (visitors too); an anonymised account shows as 'Usuario eliminado'",
        params: ProfileParams,
        response: { 200: PublicProfile, ...errorResponses(400, 404, 429) },
      },
      config: { rateLimit: 'profiles.read' },
    },
    async (request) => tabs.getPublicProfile(db, request.params.userId),
  );

  app.get(
    '/api/profiles/:userId/stats',
    {
      schema: {
        tags,
        summary: "A profile's counters: votes, and the posts and comments the caller may see",
        params: ProfileParams,
        response: { 200: ProfileStats, ...errorResponses(400, 404, 429) },
      },
      config: { rateLimit: 'profiles.read' },
    },
    async (request) => tabs.getStats(db, request.params.userId, readerOf(request)),
  );

  app.get(
    '/api/profiles/:userId/votes',
    {
      schema: {
        tags,
        summary: 'The own voting history: the latest 50 votes, newest first (private: 403 for anybody else)',
        params: ProfileParams,
        response: { 200: VoteHistory, ...errorResponses(400, 401, 403, 429) },
      },
      config: { rateLimit: 'profiles.read', audience: 'user' },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return tabs.getVoteHistory(db, request.params.userId, readerOf(request));
    },
  );

  app.get(
    '/api/profiles/:userId/comments',
    {
      schema: {
        tags,
        summary: "A profile's comments, 20 a page, newest first, each with a quote of its post (others: on public posts only)",
        params: ProfileParams,
        querystring: ProfileListQuery,
        response: { 200: ProfileCommentPage, ...errorResponses(400, 404, 429) },
      },
      config: { rateLimit: 'profiles.read' },
    },
    async (request) => tabs.getComments(db, request.params.userId, readerOf(request), request.query.cursor),
  );

  app.get(
    '/api/profiles/:userId/groups',
    {
      schema: {
        tags,
        summary: "A profile's groups, newest membership first (others: public groups only)",
        params: ProfileParams,
        response: { 200: ProfileGroupList, ...errorResponses(400, 404, 429) },
      },
      config: { rateLimit: 'profiles.read' },
    },
    async (request) => tabs.getGroups(db, request.params.userId, readerOf(request)),
  );
};

export default profileRoutes;
