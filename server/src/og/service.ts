import type { FastifyBaseLogger } from 'fastify';
import type { PollCache } from '../polls/pollCache.ts';
import type { LiveStore } from '../polls/live/store.ts';
import { effectiveStatus } from '../polls/rules.ts';
import type { SqlRunner } from '@tribuna/drizzle/pipelined';
import { findPublicPost } from '../wall/service.ts';
import { buildPostPreview, buildSharePreview, renderPreviewTags, type PreviewTotals } from './presenter.ts';

export interface PreviewSources {
  /** The one poll cache of the server (what votes are validated against). */
  polls: PollCache;
  /** The polls' live totals in Redis (what viewers of the poll receive). */
  live: LiveStore;
  publicUrl: string;
  log: FastifyBaseLogger;
  /** Reads of the wall (a shared post), on the pool. */
  reader: SqlRunner;
}

/**
 * The link-preview tags of a public poll, or null when the id is not one (drafts never leak). Read
 * from the poll cache and the live totals, never from PostgreSQL directly: a burst of crawlers
 * costs one poll load per POLL_CACHE_TTL_MS, and a rebuild of the totals only when Redis has none.
 */
export async function sharePreviewTags(sources: PreviewSources, pollId: string, now = new Date()): Promise<string | null> {
  const poll = await sources.polls.get(pollId);
  if (!poll) return null;
  let totals: PreviewTotals | null = null;
  if (poll.showResults) {
    try {
      totals = await sources.live.readSnapshot(poll.id);
    } catch (err) {
      // Without the live totals the preview names the poll, without figures.
      sources.log.warn({ err, pollId }, 'share preview without results: live totals unavailable');
    }
  }
  const preview = buildSharePreview({
    pollId: poll.id,
    title: poll.title,
    closed: effectiveStatus(poll, now) === 'closed',
    showResults: poll.showResults,
    options: poll.options,
    totals,
    publicUrl: sources.publicUrl,
  });
  return renderPreviewTags(preview);
}

/**
 * The link-preview tags of a shared post (`/wall?post=<id>`): its author, the start of its text and
 * its first image; null when the post is not one a visitor may see (hidden, private group, own-only).
 */
export async function postPreviewTags(sources: PreviewSources, postId: string): Promise<string | null> {
  const post = await findPublicPost(sources.reader, postId);
  if (!post) return null;
  const first = post.media[0];
  const authorName = post.author.displayName ?? post.author.username ?? 'un fan';
  // A clip previews with its poster frame (same size as the video).
  const picture =
    first?.mediaType === 'video'
      ? first.thumbnailUrl
        ? { ...first, url: first.thumbnailUrl, alt: first.alt ?? `Video de la publicación de ${authorName}` }
        : null
      : first;
  return renderPreviewTags(
    buildPostPreview({
      postId: post.id,
      authorName,
      content: post.content,
      image: picture ? { url: picture.url, width: picture.width ?? null, height: picture.height ?? null, alt: picture.alt ?? null } : null,
      publicUrl: sources.publicUrl,
    }),
  );
}
