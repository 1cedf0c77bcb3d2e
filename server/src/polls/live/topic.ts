import { votersMessage } from '@tribuna/contracts/live';
import type { TopicHandler, TopicPacing } from '../../live/topics.ts';
import type { PollCache } from '../pollCache.ts';
import type { LiveStore } from './store.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A poll's voters messages (its change lists: LiveHub.changed with the voters of each committed
 * batch) go out at most once a second per poll, the first after a quiet spell at once, and no more
 * often than the hub's maxFanoutShare allows: under a flood of votes they would otherwise cost every
 * viewer far more than the snapshots. Each names the 10 newest voter changes (a display of recent
 * voters; totals never depend on them). Snapshots keep the hub's pacing.
 */
export const POLL_VOTERS_PACING = { changesEveryMs: 1000, maxChangesPerMessage: 10 } as const satisfies Partial<TopicPacing>;

/**
 * `poll:{pollId}`: anyone (visitors too) may watch a public poll. Drafts and unknown polls are
 * `not-found`; a poll whose results are hidden only gets its status changes (no snapshots).
 * Voters messages name fans: they go to signed-in viewers only (one frame for all of them), without
 * points and without the fans who chose not to be listed; visitors get the totals alone.
 * Access is read through the one poll cache, so thousands of fans subscribing at the start of an
 * episode cost one query per poll per second at most.
 */
export function pollTopicHandler(polls: PollCache, store: LiveStore): TopicHandler {
  return {
    family: 'poll',
    normalizeKey: (key) => (key !== null && UUID.test(key) ? key.toLowerCase() : undefined),
    authorize: async (key) => {
      const poll = await polls.get(key!);
      if (!poll) return { ok: false, code: 'not-found' };
      return { ok: true, snapshots: poll.showResults };
    },
    readSnapshot: (key) => store.readSnapshot(key!),
    changesMessage: (key, added, removed, seq) => votersMessage(key!, added, removed, seq),
    changesAudience: 'signed-in',
    // This handler's own copy: an app (a test) may tune it without touching another's.
    pacing: { ...POLL_VOTERS_PACING },
  };
}
