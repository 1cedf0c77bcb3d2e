import { useEffect } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { HomePollResponse } from '@tribuna/contracts/api/polls';
import { useQuery } from '../../lib/useQuery';
import { fetchHomePoll } from './api';
import { useLiveResultsStore } from './liveResultsStore';

export type HomePollState = { status: 'loading' } | { status: 'error' } | ({ status: 'ready' } & HomePollResponse);

/** The search parameter of a shared poll link: /?encuesta=<pollId>. */
export const SHARED_POLL_PARAM = 'encuesta';

/** With no poll to show nothing live can announce one: the home page asks again this often. */
export const EMPTY_HOME_RECHECK_MS = 60_000;

/**
 * Loads the home poll (the shared one when the link names it); `retry` loads it again after an
 * error. The home poll follows the back-office live: when the poll shown stops being the featured
 * one (another was featured, it was deleted) the server says so on its topic, and the home poll is
 * loaded again, so the newly featured poll replaces it without a reload.
 */
export function useHomePoll(): { state: HomePollState; retry: () => void } {
  const [searchParams] = useSearchParams();
  const sharedPollId = searchParams.get(SHARED_POLL_PARAM);
  const query = useQuery(['home-poll', sharedPollId], (signal) => fetchHomePoll(sharedPollId, signal), {
    onError: (error) => console.error('Error loading polls', error),
  });
  const { refetch } = query;
  const shown = query.status === 'ready' ? query.data.poll : undefined;
  const shownId = shown?.id;
  const notFeaturedAnyMore = useLiveResultsStore((state) => (shownId ? state.statuses[shownId]?.isFeatured === false : false));
  useEffect(() => {
    if (!sharedPollId && notFeaturedAnyMore) refetch();
  }, [sharedPollId, notFeaturedAnyMore, refetch]);
  useEffect(() => {
    if (sharedPollId || shown !== null) return;
    const timer = setInterval(refetch, EMPTY_HOME_RECHECK_MS);
    return () => clearInterval(timer);
  }, [sharedPollId, shown, refetch]);

  const state: HomePollState =
    query.status === 'ready' ? { status: 'ready', ...query.data } : query.status === 'error' ? { status: 'error' } : { status: 'loading' };
  return { state, retry: refetch };
}
