import { useEffect } from 'react';
import { liveClient } from '../../lib/live/liveClient';
import { useLivePollResults, useLiveResultsStore, type ResultsView, type SequencedResults } from './liveResultsStore';
import { watchLivePoll } from './livePoll';

/**
 * Watches a poll on the live channel while mounted. `initial` (the page's HTTP results) seeds the
 * store; from then on the store's results are returned as snapshots and voters arrive. Without
 * initial results (the poll does not show them) only the subscription is kept, for status changes.
 */
export function useLivePoll(pollId: string, initial: SequencedResults | null): ResultsView | null {
  useEffect(() => watchLivePoll(liveClient, pollId), [pollId]);

  useEffect(() => {
    if (initial) useLiveResultsStore.getState().applyResults(initial);
  }, [initial]);

  const live = useLivePollResults(pollId);
  if (!initial) return null;
  return live ?? initial;
}
