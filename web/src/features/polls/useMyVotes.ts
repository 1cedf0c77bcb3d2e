import { useCallback, useEffect } from 'react';
import type { MyVotesResponse } from '@tribuna/contracts/api/votes';
import { useLiveResultsStore } from './liveResultsStore';
import { useQuery } from '../../lib/useQuery';
import { fetchAvailablePoints, fetchMyVotes } from './api';

export interface MyVotesState {
  /** The user's votes and available points; null for visitors and until loaded. */
  data: MyVotesResponse | null;
  /** Adopts the answer of a vote. */
  setData: (data: MyVotesResponse) => void;
}

/**
 * The signed-in user's current votes on a poll and the points they may still spend. Available
 * points are read again when the daily reset runs (points-reset on the live channel).
 */
export function useMyVotes(pollId: string, userId: string | null): MyVotesState {
  const pointsResetCount = useLiveResultsStore((state) => state.pointsResetCount);
  const votes = useQuery(['my-votes', pollId, userId], (signal) => fetchMyVotes(pollId, signal), {
    enabled: userId !== null,
    onError: (error) => console.debug('No se pudieron cargar tus votos', error),
  });
  const { setData } = votes;

  // The daily reset: only the available points are read again.
  useEffect(() => {
    if (!userId || pointsResetCount === 0) return;
    const controller = new AbortController();
    fetchAvailablePoints(pollId, controller.signal).then(
      (availablePoints) => setData((current) => ({ ...current, availablePoints })),
      (error: unknown) => {
        if (!controller.signal.aborted) console.debug('No se pudieron actualizar tus puntos', error);
      },
    );
    return () => controller.abort();
  }, [pollId, userId, pointsResetCount, setData]);

  return { data: votes.data, setData: useCallback((next: MyVotesResponse) => setData(next), [setData]) };
}
