import { useCallback, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { HomePollResponse } from '@tribuna/contracts/api/polls';
import { fetchHomePoll } from './api';

export type HomePollState = { status: 'loading' } | { status: 'error' } | ({ status: 'ready' } & HomePollResponse);

/** The search parameter of a shared poll link: /?encuesta=<pollId>. */
export const SHARED_POLL_PARAM = 'encuesta';

/** Loads the home poll (the shared one when the link names it); `retry` loads it again after an error. */
export function useHomePoll(): { state: HomePollState; retry: () => void } {
  const [searchParams] = useSearchParams();
  const sharedPollId = searchParams.get(SHARED_POLL_PARAM);
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<HomePollState>({ status: 'loading' });

  useEffect(() => {
    const controller = new AbortController();
    setState({ status: 'loading' });
    fetchHomePoll(sharedPollId, controller.signal).then(
      (data) => setState({ status: 'ready', ...data }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        console.error('Error loading polls', error);
        setState({ status: 'error' });
      },
    );
    return () => controller.abort();
  }, [attempt, sharedPollId]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { state, retry };
}
