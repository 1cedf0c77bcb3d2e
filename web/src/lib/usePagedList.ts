import { useCallback, useEffect, useRef, useState } from 'react';
import { useLatest } from './useLatest';

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

export type PagedState<T> =
  | { status: 'loading' }
  | { status: 'error'; error: unknown }
  | { status: 'ready'; items: T[]; nextCursor: string | null; loadingMore: boolean; moreError: unknown };

export interface PagedList<T> {
  state: PagedState<T>;
  loadMore: () => void;
  /** Reads the first page again (Reintentar). */
  reload: () => void;
}

/**
 * A list read in keyset pages ('Cargar más'): the first page on mount and on reload, later pages
 * appended without duplicates (by id). A superseded load is aborted and its answer ignored.
 */
export function usePagedList<T extends { id: string }>(load: (cursor: string | null, signal: AbortSignal) => Promise<Page<T>>): PagedList<T> {
  const [state, setState] = useState<PagedState<T>>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const loadRef = useLatest(load);
  const stateRef = useLatest(state);
  const moreController = useRef<AbortController | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    moreController.current?.abort();
    // eslint-disable-next-line react-hooks/set-state-in-effect -- a reload starts here, with its loading state
    setState({ status: 'loading' });
    loadRef.current(null, controller.signal).then(
      (page) => {
        if (!controller.signal.aborted) setState({ status: 'ready', items: page.items, nextCursor: page.nextCursor, loadingMore: false, moreError: null });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setState({ status: 'error', error });
      },
    );
    return () => controller.abort();
  }, [attempt, loadRef]);

  useEffect(() => () => moreController.current?.abort(), []);

  const loadMore = useCallback(() => {
    const current = stateRef.current;
    if (current.status !== 'ready' || current.loadingMore || !current.nextCursor) return;
    const controller = new AbortController();
    moreController.current = controller;
    const marked = { ...current, loadingMore: true, moreError: null };
    stateRef.current = marked;
    setState(marked);
    loadRef.current(current.nextCursor, controller.signal).then(
      (page) => {
        if (controller.signal.aborted) return;
        setState((s) => {
          if (s.status !== 'ready') return s;
          const seen = new Set(s.items.map((item) => item.id));
          return { ...s, items: [...s.items, ...page.items.filter((item) => !seen.has(item.id))], nextCursor: page.nextCursor, loadingMore: false };
        });
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setState((s) => (s.status === 'ready' ? { ...s, loadingMore: false, moreError: error } : s));
      },
    );
  }, [loadRef, stateRef]);

  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  return { state, loadMore, reload };
}
