import { votersMessage, type ResultsSnapshot } from '@tribuna/contracts/live';
import type { TopicHandler } from '../../../server/src/live/topics.ts';

/**
 * A `poll` topic for hub unit tests: every well-formed poll may be watched, with snapshots from
 * `readSnapshot` (an in-memory "Redis") and voters messages like the real one (polls/live/topic.ts).
 */
export function testPollTopic(readSnapshot: (pollId: string) => Promise<ResultsSnapshot>): TopicHandler {
  return {
    family: 'poll',
    normalizeKey: (key) => (key !== null && /^[0-9a-f-]{36}$/i.test(key) ? key.toLowerCase() : undefined),
    authorize: async () => ({ ok: true, snapshots: true }),
    readSnapshot: (key) => readSnapshot(key!),
    changesMessage: (key, added, removed, seq) => votersMessage(key!, added, removed, seq),
  };
}
