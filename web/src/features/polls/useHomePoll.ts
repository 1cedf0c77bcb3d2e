import { useCallback, useEffect, useState } from 'react';
import type { HomePollResponse } from '@tribuna/contracts';
import { fetchHomePoll } from './api';

export type HomePollState = { status: 'loading' } | { status: 'error' } | ({ status: 'ready' } & HomePollResponse);

/** Loads the home poll; `retry` loads it again after an error. */
export function useHomePoll(): { state: HomePollState; retry: () => void } {
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<HomePollState>({ status: 'loading' });

  useEffect(() => {
    const controller = new AbortController();
    setState({ status: 'loading' });
    fetchHomePoll(controller.signal).then(
      (data) => setState({ status: 'ready', ...data }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        console.error('Error loading polls', error);
        setState({ status: 'error' });
      },
    );
    return () => controller.abort();
  }, [attempt]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { state, retry };
}
