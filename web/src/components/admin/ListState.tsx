import type { ReactNode } from 'react';
import type { Query } from '../../lib/useQuery';
import { EmptyState } from './EmptyState';
import { ErrorBanner } from './ErrorBanner';
import { ListSkeleton } from './Skeletons';

interface ListStateProps<T> {
  query: Query<T[]>;
  /** The skeleton's screen-reader text, e.g. 'Cargando encuestas…'. */
  loadingLabel: string;
  /** The §8 fallback of a failed load (shown with Reintentar). */
  fallback: string;
  /** The spec's message for an empty list. */
  empty: string;
  /** An action under the empty message (e.g. the create button). */
  emptyAction?: ReactNode;
  /** The loaded, non-empty list. */
  children: (list: T[]) => ReactNode;
}

/** A loaded list's four states: the error banner with Reintentar, the skeleton, the empty state, the list. */
export function ListState<T>({ query, loadingLabel, fallback, empty, emptyAction, children }: ListStateProps<T>) {
  if (query.status === 'error') return <ErrorBanner error={query.error} fallback={fallback} onRetry={query.refetch} />;
  if (query.status !== 'ready') return <ListSkeleton label={loadingLabel} />;
  if (query.data.length === 0) return <EmptyState message={empty}>{emptyAction}</EmptyState>;
  return <>{children(query.data)}</>;
}
