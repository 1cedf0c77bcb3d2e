import { describe, expect, it } from 'vitest';
import { FeedTotals } from './totals.ts';

describe('FeedTotals', () => {
  it('keeps a total until it expires, and at most maxEntries: the expired, then the oldest, go first', () => {
    let now = 0;
    const totals = new FeedTotals(1_000, () => now, 3);
    totals.set('a', 1);
    expect(totals.get('a')).toBe(1);
    now = 1_000;
    expect(totals.get('a')).toBeNull();

    now = 500;
    totals.set('b', 2);
    totals.set('c', 3);
    now = 1_200;
    // Full (a expired at 1,000, b and c live): a goes, b and c stay.
    totals.set('d', 4);
    expect([totals.get('b'), totals.get('c'), totals.get('d')]).toEqual([2, 3, 4]);
    // Full of live ones: the oldest (b) goes.
    totals.set('e', 5);
    expect([totals.get('b'), totals.get('c'), totals.get('d'), totals.get('e')]).toEqual([null, 3, 4, 5]);
    // Setting a kept key again makes it the newest.
    totals.set('c', 30);
    totals.set('f', 6);
    expect([totals.get('c'), totals.get('d'), totals.get('e'), totals.get('f')]).toEqual([30, null, 5, 6]);
  });
});
