import { useSearchParams } from 'react-router-dom';
import type { HomePollResponse } from '@tribuna/contracts/api/polls';
import { useQuery } from '../../lib/useQuery';
import { fetchHomePoll } from './api';

export type HomePollState = { status: 'loading' } | { status: 'error' } | ({ status: 'ready' } & HomePollResponse);

/** The search parameter of a shared poll link: /?encuesta=<pollId>. */
export const SHARED_POLL_PARAM = 'encuesta';

/** Loads the home poll (the shared one when the link names it); `retry` loads it again after an error. */
export function useHomePoll(): { state: HomePollState; retry: () => void } {
  const [searchParams] = useSearchParams();
  const sharedPollId = searchParams.get(SHARED_POLL_PARAM);
  const query = useQuery(['home-poll', sharedPollId], (signal) => fetchHomePoll(sharedPollId, signal), {
    onError: (error) => console.error('Error loading polls', error),
  });
  const state: HomePollState = query.status === 'ready' ? { status: 'ready', ...query.data } : query.status === 'error' ? { status: 'error' } : { status: 'loading' };
  return { state, retry: query.refetch };
}
