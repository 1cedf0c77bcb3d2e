import { useCallback, useEffect, useRef, useState } from 'react';
import type { QueueHealthList } from '@tribuna/contracts/api/admin/queues';
import { callApi } from '../../../lib/api';

/** How often the screen reads the queues again while it is visible. */
export const QUEUE_REFRESH_MS = 10_000;

export interface QueueHealthState {
  data: QueueHealthList | null;
  /** The last read's failure (the previous figures stay shown). */
  error: unknown;
  refreshing: boolean;
  refresh: () => void;
}

/**
 * The queues' health, read at once, on demand and every 10 s while the page is visible (a hidden
 * tab reads nothing, and reads at once when shown again). A read in flight is dropped for a newer one.
 */
export function useQueueHealth(): QueueHealthState {
  const [data, setData] = useState<QueueHealthList | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [refreshing, setRefreshing] = useState(true);
  const inFlight = useRef<AbortController | null>(null);

  const refresh = useCallback(() => {
    inFlight.current?.abort();
    const controller = new AbortController();
    inFlight.current = controller;
    setRefreshing(true);
    callApi('adminQueues', { signal: controller.signal }).then(
      (list) => {
        if (controller.signal.aborted) return;
        setData(list);
        setError(null);
        setRefreshing(false);
      },
      (failure: unknown) => {
        if (controller.signal.aborted) return;
        setError(failure);
        setRefreshing(false);
      },
    );
  }, []);

  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the first read of the polling loop starts with it (refresh marks it refreshing)
    refresh();
    const visible = () => document.visibilityState !== 'hidden';
    const timer = setInterval(() => {
      if (visible()) refresh();
    }, QUEUE_REFRESH_MS);
    const onVisibility = () => {
      if (visible()) refresh();
    };
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisibility);
      inFlight.current?.abort();
    };
  }, [refresh]);

  return { data, error, refreshing, refresh };
}
