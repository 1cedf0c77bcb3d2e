import { useCallback, useEffect, useState } from 'react';
import type { MyVotesResponse } from '@tribuna/contracts/api/votes';
import { useLiveResultsStore } from './liveResultsStore';
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
  const [data, setDataState] = useState<MyVotesResponse | null>(null);
  const pointsResetCount = useLiveResultsStore((state) => state.pointsResetCount);

  useEffect(() => {
    setDataState(null);
    if (!userId) return;
    const controller = new AbortController();
    fetchMyVotes(pollId, controller.signal).then(setDataState, (error: unknown) => {
      if (!controller.signal.aborted) console.debug('No se pudieron cargar tus votos', error);
    });
    return () => controller.abort();
  }, [pollId, userId]);

  useEffect(() => {
    if (!userId || pointsResetCount === 0) return;
    const controller = new AbortController();
    fetchAvailablePoints(pollId, controller.signal).then(
      (availablePoints) => setDataState((current) => (current ? { ...current, availablePoints } : current)),
      (error: unknown) => {
        if (!controller.signal.aborted) console.debug('No se pudieron actualizar tus puntos', error);
      },
    );
    return () => controller.abort();
  }, [pollId, userId, pointsResetCount]);

  const setData = useCallback((next: MyVotesResponse) => setDataState(next), []);
  return { data, setData };
}
