import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { WALL_ROUTES } from '@tribuna/contracts/api/wall';
import { VIDEO_LIMITS, WALL_FIELDS, WALL_LIMITS, WALL_MESSAGES } from '@tribuna/contracts/wallRules';
import * as access from '../access/policy.ts';
import { serve } from '../http/serve.ts';
import { withUploads } from '../media/uploads.ts';
import { requireSpeaker, requireUser, requireWriter } from '../identity/plugin.ts';
import { createWallCache, createWallLive, type ReactionFlushOptions } from './live.ts';
import { ReactionWriter, type ReactionWriterOptions } from './reactionWriter.ts';
import { postTopic } from '@tribuna/contracts/liveTopics';
import { poolRunner } from '@tribuna/drizzle/pipelined';
import * as wall from './service.ts';
import * as videos from './videos.ts';

/**
 * The viewer of a read: visitors are null; admins see every post (holdsAdminPowers: with
 * REQUIRE_ADMIN_MFA only once verified with the second factor, as in the back-office).
 */
function viewerOf(request: FastifyRequest): wall.Viewer | null {
  return access.viewerOf(request.user, request.server.config.requireAdminMfa);
}

/** Signed in and not suspended; an admin (holdsAdminPowers) may moderate any post or comment, a site moderator delete any. */
function writerOf(request: FastifyRequest): wall.Writer {
  const user = requireWriter(request);
  return access.viewerOf(user, request.server.config.requireAdminMfa)!;
}

/** writerOf, for what a silenced account may not do (posting, commenting, reacting: 403 until when, issue 29). */
function speakerOf(request: FastifyRequest): wall.Writer {
  const user = requireSpeaker(request);
  return access.viewerOf(user, request.server.config.requireAdminMfa)!;
}

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
  /**
   * The sweep publishing transcoded clips whose `wall.video` event was lost: every `everyMs`
   * (default VIDEO_SWEEP_EVERY_MS; 0: never), clips uploaded more than `olderThanS` seconds ago
   * (default VIDEO_SWEEP_AFTER_S).
   */
  videoSweep?: { everyMs?: number; olderThanS?: number; abandonAfterS?: number };
}

/** How often an instance looks for transcoded clips an event was lost for. */
export const VIDEO_SWEEP_EVERY_MS = 60_000;
/** A clip's upload this old (and transcoded) is no longer expected to be published by its event. */
export const VIDEO_SWEEP_AFTER_S = 30;
/**
 * A clip still 'processing' this long after its upload is given up (its author told it failed):
 * far beyond every attempt of its job (3 × the transcode time limit, with the backoffs).
 */
export const VIDEO_ABANDON_AFTER_S = 2 * 60 * 60;

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
  const ctx: videos.VideoContext = {
    db: app.database.db,
    reader: poolRunner(app.database.sql),
    reactions,
    media: app.media,
    publish: live.publish,
    publishGroup: (message) => app.events.publish('group.live', message),
    cache,
    hiddenAuthors: (readerId) => app.safety.flags.hiddenAuthors(readerId),
    joinTransaction: (tx, event) => app.events.inTransaction('wall.written', tx, event),
    log: app.log,
    outbox: app.outbox,
    tellHere: (message) => app.live.hub.publish(message.topic, message),
  };

  // The worker's word on a clip (every instance hears it; one publishes the post), and a sweep for
  // the clips whose word was lost.
  app.events.subscribe('wall.video', (event) => videos.onVideoEvent(ctx, event));
  const sweepEveryMs = options.videoSweep?.everyMs ?? VIDEO_SWEEP_EVERY_MS;
  if (sweepEveryMs > 0) {
    let sweeping: Promise<void> | null = null;
    let timer: NodeJS.Timeout | undefined;
    const sweep = () => {
      sweeping ??= videos
        .publishLostVideoPosts(ctx, options.videoSweep?.olderThanS ?? VIDEO_SWEEP_AFTER_S)
        .then(async (published) => {
          if (published > 0) app.log.info({ published }, 'published transcoded clips whose event was lost');
          const abandoned = await videos.abandonStuckVideoUploads(ctx, options.videoSweep?.abandonAfterS ?? VIDEO_ABANDON_AFTER_S);
          if (abandoned > 0) app.log.warn({ abandoned }, 'gave up on clips whose transcode never ended');
        })
        .catch((err: unknown) => app.log.warn({ err }, 'the sweep of transcoded clips failed; retried at the next one'))
        .finally(() => (sweeping = null));
    };
    app.addHook('onReady', async () => {
      timer = setInterval(sweep, sweepEveryMs);
      timer.unref();
    });
    app.addHook('onClose', async () => {
      clearInterval(timer);
      await sweeping;
    });
  }

  serve(app, WALL_ROUTES.feed, async (request) => wall.getFeed(ctx, request.query, viewerOf(request)));

  serve(app, WALL_ROUTES.getPost, async (request) => wall.getPost(ctx, request.params.postId, viewerOf(request)));

  serve(
    app,
    WALL_ROUTES.createPost,
    async (request, reply) => {
      // Before a byte of the body is read: visitors, suspended and silenced users send their images for nothing.
      const writer = speakerOf(request);
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
    // Up to 100 MB: five minutes at ~3 Mbit/s, a phone on a fair mobile connection.
    { config: { unavailableMessage: WALL_MESSAGES.createPostFailed, bodyDeadline: 'albumUpload' } },
  );

  serve(
    app,
    WALL_ROUTES.createVideoPost,
    async (request, reply) => {
      // As for a post: visitors, suspended and silenced users are refused before a byte of their clip is read.
      const writer = speakerOf(request);
      const spec = {
        fileFields: [WALL_FIELDS.video],
        textFields: [WALL_FIELDS.content, WALL_FIELDS.groupId, WALL_FIELDS.visibility, WALL_FIELDS.alt],
        maxFiles: 1,
        maxFileBytes: VIDEO_LIMITS.maxBytes,
        tooManyFilesMessage: WALL_MESSAGES.videoOne,
        fileTooLargeMessage: WALL_MESSAGES.videoTooLarge,
      };
      // The clip waits in a temporary file until it is stored for the worker (or refused).
      const view = await withUploads(request, spec, (input) => videos.createVideoPost(ctx, writer, input));
      return reply.code(202).send(view);
    },
    // 50 MB: under three minutes at ~3 Mbit/s, within the album's deadline.
    { config: { unavailableMessage: WALL_MESSAGES.videoUnavailable, bodyDeadline: 'albumUpload' } },
  );

  serve(app, WALL_ROUTES.listVideoUploads, async (request) => videos.listVideoUploads(ctx, requireUser(request).id));

  serve(app, WALL_ROUTES.editPost, async (request) => wall.editPost(ctx, writerOf(request), request.params.postId, request.body.content));

  serve(app, WALL_ROUTES.deletePost, async (request, reply) => {
    await wall.deletePost(ctx, writerOf(request), request.params.postId);
    return reply.code(204).send(null);
  });

  serve(app, WALL_ROUTES.reactToPost, async (request) => wall.reactToPost(ctx, speakerOf(request), request.params.postId, request.body.type));

  serve(app, WALL_ROUTES.listComments, async (request) => wall.listComments(ctx, request.params.postId, viewerOf(request)));

  serve(
    app,
    WALL_ROUTES.createComment,
    async (request, reply) => {
      const writer = speakerOf(request);
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
    { config: { bodyDeadline: 'upload' } },
  );

  serve(app, WALL_ROUTES.editComment, async (request) => wall.editComment(ctx, writerOf(request), request.params.commentId, request.body.content));

  serve(app, WALL_ROUTES.deleteComment, async (request) => wall.deleteComment(ctx, writerOf(request), request.params.commentId));

  serve(app, WALL_ROUTES.reactToComment, async (request) => wall.reactToComment(ctx, speakerOf(request), request.params.commentId, request.body.type));
};

export default wallRoutes;
