import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import {
  CommentList,
  CommentParams,
  CreatedComment,
  DeletedComment,
  EditCommentInput,
  EditPostInput,
  FeedPage,
  FeedQuery,
  PostParams,
  PostView,
  ReactInput,
  ReactionState,
  ReplyView,
} from '@tribuna/contracts/api/wall';
import { WALL_FIELDS, WALL_LIMITS, WALL_MESSAGES } from '@tribuna/contracts/wallRules';
import * as access from '../access/policy.ts';
import { errorResponses } from '../http/errors.ts';
import { withUploads } from '../media/uploads.ts';
import { requireWriter } from '../identity/plugin.ts';
import { createWallCache, createWallLive, type ReactionFlushOptions } from './live.ts';
import { ReactionWriter, type ReactionWriterOptions } from './reactionWriter.ts';
import { postTopic } from '@tribuna/contracts/liveTopics';
import { poolRunner } from '@tribuna/drizzle/pipelined';
import * as wall from './service.ts';

/**
 * The viewer of a read: visitors are null; admins see every post (holdsAdminPowers: with
 * REQUIRE_ADMIN_MFA only once verified with the second factor, as in the back-office).
 */
function viewerOf(request: FastifyRequest): wall.Viewer | null {
  return access.viewerOf(request.user, request.server.config.requireAdminMfa);
}

/** Signed in and not suspended; an admin (holdsAdminPowers) may moderate any post or comment. */
function writerOf(request: FastifyRequest): wall.Writer {
  const user = requireWriter(request);
  return access.viewerOf(user, request.server.config.requireAdminMfa)!;
}

const MULTIPART_NOTE = 'multipart/form-data, read while streaming with its limits enforced as the parts arrive; the image types are sniffed from the bytes.';

export interface WallRoutesOptions {
  /** How long the public wall's total is reused (default 10 s; 0: counted on every page). */
  totalsTtlMs?: number;
  /** How long a page of the public wall is shared (default 1 s; 0: read for every reader). */
  pageTtlMs?: number;
  /** Pacing of live reaction counts (cadence, and a scheduler tests fire by hand). */
  reactionFlush?: ReactionFlushOptions;
  /** Batching of reaction taps (defaults: the votes' figures). */
  reactionWriter?: Pick<
    ReactionWriterOptions,
    'maxBatchSize' | 'maxWaitMs' | 'maxConcurrentFlushes' | 'maxQueuedCommands' | 'maxQueueWaitMs' | 'lockTimeoutMs'
  >;
}

const wallRoutes: FastifyPluginAsyncTypebox<WallRoutesOptions> = async (app, options) => {
  const cache = createWallCache({ totalsTtlMs: options.totalsTtlMs, pageTtlMs: options.pageTtlMs });
  const live = createWallLive(app, cache, options.reactionFlush);
  const reactions = new ReactionWriter({
    ...options.reactionWriter,
    sql: app.database.sql,
    joinTransaction: (tx, taps) => app.events.inTransaction('wall.reactions', tx, taps),
    // Viewers get the counts as paced snapshots (live.ts): one change per item and batch.
    onCommitted: async ({ kind, items }) => {
      await Promise.all(
        items.map(({ itemId, postId }) =>
          live.publish({ type: 'reactions-changed', topic: postTopic(postId), postId, commentId: kind === 'comment' ? itemId : null }),
        ),
      );
    },
    logger: app.log,
  });
  // Domains close before the database: queued taps are written and answered first.
  app.addHook('onClose', async () => {
    await reactions.close();
    app.log.info({ stats: reactions.stats }, 'reaction writer closed');
  });
  const ctx: wall.WallContext = {
    db: app.database.db,
    reader: poolRunner(app.database.sql),
    reactions,
    media: app.media,
    publish: live.publish,
    cache,
    joinTransaction: (tx, event) => app.events.inTransaction('wall.written', tx, event),
    log: app.log,
  };

  app.get(
    '/api/posts',
    {
      schema: {
        tags: ['wall'],
        summary: 'The wall: 10 posts a page by activity (default) or newest, keyset cursor; filters user, group, visibility',
        querystring: FeedQuery,
        response: { 200: FeedPage, ...errorResponses(400, 403, 404, 429) },
      },
      config: { rateLimit: 'wall.read' },
    },
    async (request) => wall.getFeed(ctx, request.query, viewerOf(request)),
  );

  app.get(
    '/api/posts/:postId',
    {
      schema: {
        tags: ['wall'],
        summary: 'One post as a card (a reconnecting reader catches up with it)',
        params: PostParams,
        response: { 200: PostView, ...errorResponses(400, 404, 429) },
      },
      config: { rateLimit: 'wall.read' },
    },
    async (request) => wall.getPost(ctx, request.params.postId, viewerOf(request)),
  );

  app.post(
    '/api/posts',
    {
      schema: {
        tags: ['wall'],
        summary: 'Publish a post: text (≤2000) and up to 10 images (each under 10 MB)',
        description: `${MULTIPART_NOTE} Fields: content, groupId, visibility, one alt per image; files: images (up to 10).`,
        consumes: ['multipart/form-data'],
        response: { 201: PostView, ...errorResponses(400, 401, 403, 404, 406, 413, 415, 429, 503) },
      },
      // Up to 100 MB: five minutes at ~3 Mbit/s, a phone on a fair mobile connection.
      config: { rateLimit: 'wall.post-create', audience: 'writer', unavailableMessage: WALL_MESSAGES.createPostFailed, bodyDeadline: 'albumUpload' },
    },
    async (request, reply) => {
      // Before a byte of the body is read: visitors and suspended users send their images for nothing.
      const writer = writerOf(request);
      const spec = {
        fileFields: [WALL_FIELDS.images],
        textFields: [WALL_FIELDS.content, WALL_FIELDS.groupId, WALL_FIELDS.visibility, WALL_FIELDS.alt],
        maxFiles: WALL_LIMITS.postImages,
        // "Each under 10 MB": 10 MiB itself is refused, as the composer does.
        maxFileBytes: WALL_LIMITS.postImageBytes - 1,
        tooManyFilesMessage: WALL_MESSAGES.tooManyFiles,
        fileTooLargeMessage: WALL_MESSAGES.postImageTooLarge,
      };
      // The images wait in temporary files, removed once the post is stored or refused.
      const view = await withUploads(request, spec, (input) => wall.createPost(ctx, writer, input));
      return reply.code(201).send(view);
    },
  );

  app.patch(
    '/api/posts/:postId',
    {
      schema: {
        tags: ['wall'],
        summary: "Edit one's post (trimmed, non-empty, ≤2000); it shows 'Editado'",
        params: PostParams,
        body: EditPostInput,
        response: { 200: PostView, ...errorResponses(400, 401, 403, 404, 429) },
      },
      config: { rateLimit: 'wall.edit', audience: 'writer' },
    },
    async (request) => wall.editPost(ctx, writerOf(request), request.params.postId, request.body.content),
  );

  app.delete(
    '/api/posts/:postId',
    {
      schema: {
        tags: ['wall'],
        summary: "Delete (hide) one's post, or any post as an admin",
        params: PostParams,
        response: { 204: Type.Null(), ...errorResponses(400, 401, 403, 404, 429) },
      },
      config: { rateLimit: 'wall.edit', audience: 'writer' },
    },
    async (request, reply) => {
      await wall.deletePost(ctx, writerOf(request), request.params.postId);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/posts/:postId/reactions',
    {
      schema: {
        tags: ['wall'],
        summary: 'React to a post: a type replaces your reaction, the same type again removes it',
        params: PostParams,
        body: ReactInput,
        response: { 200: ReactionState, ...errorResponses(400, 401, 403, 404, 429, 503) },
      },
      config: { rateLimit: 'wall.react', audience: 'writer' },
    },
    async (request) => wall.reactToPost(ctx, writerOf(request), request.params.postId, request.body.type),
  );

  app.get(
    '/api/posts/:postId/comments',
    {
      schema: {
        tags: ['wall'],
        summary: "A post's first 100 top-level comments, oldest first, each with its replies",
        params: PostParams,
        response: { 200: CommentList, ...errorResponses(400, 404, 429) },
      },
      config: { rateLimit: 'wall.read' },
    },
    async (request) => wall.listComments(ctx, request.params.postId, viewerOf(request)),
  );

  app.post(
    '/api/posts/:postId/comments',
    {
      schema: {
        tags: ['wall'],
        summary: 'Comment on a post, or reply to a top-level comment (parentCommentId): text ≤500 and an optional image under 5 MB',
        description: `${MULTIPART_NOTE} Fields: content, parentCommentId, alt; file: image (one).`,
        consumes: ['multipart/form-data'],
        params: PostParams,
        response: { 201: CreatedComment, ...errorResponses(400, 401, 403, 404, 406, 413, 415, 429, 503) },
      },
      config: { rateLimit: 'wall.comment-create', audience: 'writer', bodyDeadline: 'upload' },
    },
    async (request, reply) => {
      const writer = writerOf(request);
      const spec = {
        fileFields: [WALL_FIELDS.image],
        textFields: [WALL_FIELDS.content, WALL_FIELDS.parentCommentId, WALL_FIELDS.alt],
        maxFiles: 1,
        maxFileBytes: WALL_LIMITS.commentImageBytes,
        tooManyFilesMessage: WALL_MESSAGES.commentOneImage,
        fileTooLargeMessage: WALL_MESSAGES.commentImageTooLarge,
      };
      const created = await withUploads(request, spec, (input) => wall.createComment(ctx, writer, request.params.postId, input));
      return reply.code(201).send(created);
    },
  );

  app.patch(
    '/api/comments/:commentId',
    {
      schema: {
        tags: ['wall'],
        summary: "Edit one's comment (trimmed, non-empty, ≤500)",
        params: CommentParams,
        body: EditCommentInput,
        response: { 200: ReplyView, ...errorResponses(400, 401, 403, 404, 429) },
      },
      config: { rateLimit: 'wall.edit', audience: 'writer' },
    },
    async (request) => wall.editComment(ctx, writerOf(request), request.params.commentId, request.body.content),
  );

  app.delete(
    '/api/comments/:commentId',
    {
      schema: {
        tags: ['wall'],
        summary: "Delete (hide) one's comment and its replies, or any as an admin",
        params: CommentParams,
        response: { 200: DeletedComment, ...errorResponses(400, 401, 403, 404, 429) },
      },
      config: { rateLimit: 'wall.edit', audience: 'writer' },
    },
    async (request) => wall.deleteComment(ctx, writerOf(request), request.params.commentId),
  );

  app.post(
    '/api/comments/:commentId/reactions',
    {
      schema: {
        tags: ['wall'],
        summary: 'React to a comment (Me gusta): the same type again removes it',
        params: CommentParams,
        body: ReactInput,
        response: { 200: ReactionState, ...errorResponses(400, 401, 403, 404, 429, 503) },
      },
      config: { rateLimit: 'wall.react', audience: 'writer' },
    },
    async (request) => wall.reactToComment(ctx, writerOf(request), request.params.commentId, request.body.type),
  );
};

export default wallRoutes;
