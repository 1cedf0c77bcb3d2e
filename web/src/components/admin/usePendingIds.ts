import { useCallback, useState } from 'react';

/**
 * Rows with a request in flight (their row actions disabled meanwhile): `track(id, task)` runs
 * `task` unless that row already has one running, and frees the row however the task ends.
 */
export function usePendingIds() {
  const [pending, setPending] = useState<ReadonlySet<string>>(new Set());
  const track = useCallback(async (id: string, task: () => Promise<void>): Promise<void> => {
    setPending((s) => new Set(s).add(id));
    try {
      await task();
    } finally {
      setPending((s) => {
        const next = new Set(s);
        next.delete(id);
        return next;
      });
    }
  }, []);
  return { pending, track };
}
