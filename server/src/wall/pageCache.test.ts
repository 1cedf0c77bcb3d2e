import { describe, expect, it } from 'vitest';
import { FeedPageCache } from './pageCache.ts';
import type { PostRow } from './repository.ts';

const rows = (id: string) => [{ id } as PostRow];

describe('FeedPageCache', () => {
  it('serves a page until it expires, and one read for concurrent misses', async () => {
    let now = 0;
    const cache = new FeedPageCache(1_000, 10, () => now);
    let reads = 0;
    const load = async () => {
      reads++;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return rows(`r${reads}`);
    };
    const [a, b] = await Promise.all([cache.get('k', load), cache.get('k', load)]);
    expect(reads).toBe(1);
    expect(a).toBe(b);
    now = 999;
    expect(await cache.get('k', load)).toBe(a);
    now = 1_000;
    expect((await cache.get('k', load))[0]!.id).toBe('r2');
  });

  it('never keeps what a read started before an invalidation returned', async () => {
    const cache = new FeedPageCache(60_000);
    let release!: () => void;
    const slow = cache.get('k', () => new Promise<PostRow[]>((resolve) => (release = () => resolve(rows('old')))));
    cache.invalidate();
    release();
    expect((await slow)[0]!.id).toBe('old');
    expect((await cache.get('k', async () => rows('new')))[0]!.id).toBe('new');
  });

  it('holds at most maxPages, dropping the oldest', async () => {
    const cache = new FeedPageCache(60_000, 2);
    for (const key of ['a', 'b', 'c']) await cache.get(key, async () => rows(key));
    expect((await cache.get('a', async () => rows('a2')))[0]!.id).toBe('a2');
    expect((await cache.get('c', async () => rows('c2')))[0]!.id).toBe('c');
  });
});
