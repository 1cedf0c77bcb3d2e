import { useCallback, useEffect, useState } from 'react';
import { useLatest } from './useLatest';

export type QueryState<T> = { status: 'idle' | 'loading'; data: null } | { status: 'error'; data: null; error: unknown } | { status: 'ready'; data: T };

export interface QueryOptions {
  /** False: nothing is loaded (status 'idle'), e.g. a visitor's own votes. */
  enabled?: boolean;
  /** Told of a failure (not of an aborted load); the state also says 'error'. */
  onError?: (error: unknown) => void;
}

export type Query<T> = QueryState<T> & {
  /** Loads again (after an error, or when the data is known to be stale). */
  refetch: () => void;
  /** Replaces the data in place (e.g. with what a mutation answered). */
  setData: (update: T | ((current: T) => T)) => void;
};

/**
 * The app's small data layer: loads with `load` whenever `key` changes, with loading, error and
 * refetch states; a load that is superseded (new key, refetch, unmount) is aborted and its answer
 * ignored, so a slow old answer never overwrites a newer one. The hooks of the features use it
 * instead of their own fetch and AbortController.
 */
export function useQuery<T>(key: readonly unknown[], load: (signal: AbortSignal) => Promise<T>, options: QueryOptions = {}): Query<T> {
  const enabled = options.enabled ?? true;
  const [state, setState] = useState<QueryState<T>>(enabled ? { status: 'loading', data: null } : { status: 'idle', data: null });
  const [attempt, setAttempt] = useState(0);
  const latest = useLatest({ load, onError: options.onError });
  const keyText = JSON.stringify(key);

  useEffect(() => {
    if (!enabled) {
      // eslint-disable-next-line react-hooks/set-state-in-effect -- a new key (or the switch) resets the state, with the load it starts or stops
      setState({ status: 'idle', data: null });
      return;
    }
    const controller = new AbortController();
    setState({ status: 'loading', data: null });
    latest.current.load(controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) setState({ status: 'ready', data });
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        latest.current.onError?.(error);
        setState({ status: 'error', data: null, error });
      },
    );
    return () => controller.abort();
  }, [keyText, enabled, attempt, latest]);

  const refetch = useCallback(() => setAttempt((n) => n + 1), []);
  const setData = useCallback((update: T | ((current: T) => T)) => {
    setState((current) => {
      if (typeof update !== 'function') return { status: 'ready', data: update };
      return current.status === 'ready' ? { status: 'ready', data: (update as (c: T) => T)(current.data) } : current;
    });
  }, []);
  return { ...state, refetch, setData };
}
