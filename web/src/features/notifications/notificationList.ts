import type { NotificationEntry, NotificationPage } from '@tribuna/contracts/api/notifications';

export interface ReadyList {
  status: 'ready';
  items: NotificationEntry[];
  nextCursor: string | null;
  /** Pages shown (a refresh of the first page keeps the later ones). */
  pages: number;
  loadingMore: boolean;
  moreError: boolean;
}

export type ListState = { status: 'loading' } | { status: 'error'; error: unknown } | ReadyList;

export type ListAction =
  | { type: 'loading' }
  | { type: 'failed'; error: unknown }
  | { type: 'first-page'; page: NotificationPage }
  | { type: 'refreshed'; page: NotificationPage }
  | { type: 'loading-more' }
  | { type: 'more'; page: NotificationPage }
  | { type: 'more-failed' };

export const initialListState: ListState = { status: 'loading' };

const time = (entry: NotificationEntry) => Date.parse(entry.createdAt);

function fromFirstPage(page: NotificationPage): ReadyList {
  return { status: 'ready', items: page.items, nextCursor: page.nextCursor, pages: 1, loadingMore: false, moreError: false };
}

/**
 * The first page read again (a live change): it replaces what the list shows down to its oldest
 * entry, so new and changed entries come first and removed ones go; the entries of later pages
 * already shown, older than that, stay with their cursor.
 */
export function mergeFirstPage(state: ReadyList, page: NotificationPage): ReadyList {
  const last = page.items.at(-1);
  if (state.pages <= 1 || page.nextCursor === null || !last) return { ...fromFirstPage(page), loadingMore: state.loadingMore };
  const ids = new Set(page.items.map((entry) => entry.id));
  const oldest = time(last);
  const tail = state.items.filter((entry) => !ids.has(entry.id) && time(entry) < oldest);
  return { ...state, items: [...page.items, ...tail] };
}

export function listReducer(state: ListState, action: ListAction): ListState {
  switch (action.type) {
    case 'loading':
      return { status: 'loading' };
    case 'failed':
      return { status: 'error', error: action.error };
    case 'first-page':
      return fromFirstPage(action.page);
    case 'refreshed':
      return state.status === 'ready' ? mergeFirstPage(state, action.page) : fromFirstPage(action.page);
    case 'loading-more':
      return state.status === 'ready' ? { ...state, loadingMore: true, moreError: false } : state;
    case 'more': {
      if (state.status !== 'ready') return state;
      const ids = new Set(state.items.map((entry) => entry.id));
      const items = [...state.items, ...action.page.items.filter((entry) => !ids.has(entry.id))];
      return { ...state, items, nextCursor: action.page.nextCursor, pages: state.pages + 1, loadingMore: false };
    }
    case 'more-failed':
      return state.status === 'ready' ? { ...state, loadingMore: false, moreError: true } : state;
  }
}
