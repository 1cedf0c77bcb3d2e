import { describe, expect, it } from 'vitest';
import type { NotificationEntry, NotificationPage } from '@tribuna/contracts/api/notifications';
import { listReducer, type ListState, type ReadyList } from './notificationList';
import { badgeText, unreadSuffix } from './unreadStore';

const at = (minutesAgo: number) => new Date(Date.UTC(2026, 10, 25, 12, 0) - minutesAgo * 60_000).toISOString();
const entry = (id: string, minutesAgo: number): NotificationEntry => ({
  id,
  type: 'post_comment',
  actor: { id: '20000000-0000-4000-8000-000000000001', displayName: 'Ana', username: 'ana', avatarUrl: null },
  othersCount: 0,
  reactionTypes: [],
  postId: '20000000-0000-4000-8000-000000000002',
  commentId: null,
  excerpt: null,
  createdAt: at(minutesAgo),
  read: true,
});
const page = (items: NotificationEntry[], nextCursor: string | null = null): NotificationPage => ({ items, nextCursor, unreadCount: 0 });
const ids = (state: ListState) => (state as ReadyList).items.map((e) => e.id);

describe('the notifications list state', () => {
  it('appends later pages without repeating an entry', () => {
    let state = listReducer({ status: 'loading' }, { type: 'first-page', page: page([entry('a', 1), entry('b', 2)], 'c1') });
    state = listReducer(state, { type: 'loading-more' });
    state = listReducer(state, { type: 'more', page: page([entry('b', 2), entry('c', 3)], null) });
    expect(ids(state)).toEqual(['a', 'b', 'c']);
    expect(state).toMatchObject({ nextCursor: null, pages: 2, loadingMore: false });
  });

  it('replaces a single page with the refreshed one (removed entries go)', () => {
    const state = listReducer({ status: 'loading' }, { type: 'first-page', page: page([entry('a', 1), entry('b', 2)]) });
    expect(ids(listReducer(state, { type: 'refreshed', page: page([entry('n', 0), entry('b', 2)]) }))).toEqual(['n', 'b']);
  });

  it('keeps later pages older than the refreshed first page, with their cursor', () => {
    let state = listReducer({ status: 'loading' }, { type: 'first-page', page: page([entry('a', 1), entry('b', 2)], 'c1') });
    state = listReducer(state, { type: 'more', page: page([entry('c', 3), entry('d', 4)], 'c2') });
    // a got a new reaction (moved up), b was removed, n is new.
    state = listReducer(state, { type: 'refreshed', page: page([entry('a', 0), entry('n', 0.5), entry('c', 3)], 'x') });
    expect(ids(state)).toEqual(['a', 'n', 'c', 'd']);
    expect(state).toMatchObject({ nextCursor: 'c2', pages: 2 });
  });
});

describe('the badge text', () => {
  it("is nothing at 0, the count up to 9, then '9+'", () => {
    expect([0, 1, 9, 10, 250].map(badgeText)).toEqual([null, '1', '9', '9+', '9+']);
    expect(unreadSuffix(0)).toBe('');
    expect(unreadSuffix(12)).toBe(', 12 sin leer');
  });
});
