import type { FastifyBaseLogger } from 'fastify';
import type { PollCache } from '../polls/pollCache.ts';
import type { LiveStore } from '../polls/live/store.ts';
import { effectiveStatus } from '../polls/rules.ts';
import { buildSharePreview, renderPreviewTags, type PreviewTotals } from './presenter.ts';

export interface PreviewSources {
  /** The one poll cache of the server (what votes are validated against). */
  polls: PollCache;
  /** The polls' live totals in Redis (what viewers of the poll receive). */
  live: LiveStore;
  publicUrl: string;
  log: FastifyBaseLogger;
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
