import { votersMessage } from '@tribuna/contracts/live';
import type { TopicHandler } from '../../live/topics.ts';
import type { PollCache } from '../pollCache.ts';
import type { LiveStore } from './store.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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
  };
}
