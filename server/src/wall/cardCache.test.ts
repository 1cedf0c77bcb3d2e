import { describe, expect, it } from 'vitest';
import { PostCardCache } from './cardCache.ts';
import type { PostRow } from './repository.ts';

const card = (id: string, content = id) => ({ id, content }) as PostRow;

describe('PostCardCache', () => {
  it('reads only the missing cards, in one load, keeps them until they expire, and answers in the order asked', async () => {
    let now = 0;
    const cache = new PostCardCache(1_000, 10, () => now);
    const loads: string[][] = [];
    const load = async (missing: string[]) => {
      loads.push(missing);
      return missing.map((id) => card(id, `${id}@${now}`));
    };
    expect((await cache.getMany(['a', 'b'], load)).map((c) => c.content)).toEqual(['a@0', 'b@0']);
    now = 999;
    expect((await cache.getMany(['c', 'b', 'a'], load)).map((c) => c.content)).toEqual(['c@999', 'b@0', 'a@0']);
    expect(loads).toEqual([['a', 'b'], ['c']]);
    now = 1_000;
    expect((await cache.getMany(['a', 'c'], load)).map((c) => c.content)).toEqual(['a@1000', 'c@999']);
    expect(loads).toEqual([['a', 'b'], ['c'], ['a']]);
  });

  it('shares one read among concurrent misses of a card, and leaves out a post the read did not find', async () => {
    const cache = new PostCardCache(60_000);
    const loads: string[][] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const load = async (missing: string[]) => {
      loads.push(missing);
      await gate;
      return missing.filter((id) => id !== 'gone').map((id) => card(id));
    };
    const first = cache.getMany(['a', 'gone'], load);
    const second = cache.getMany(['gone', 'a', 'b'], load);
    release();
    expect((await first).map((c) => c.id)).toEqual(['a']);
    expect((await second).map((c) => c.id)).toEqual(['a', 'b']);
    expect(loads).toEqual([['a', 'gone'], ['b']]);
  });

  it('never keeps what a read started before an invalidation returned, and keeps nothing with ttl 0', async () => {
    const cache = new PostCardCache(60_000);
    let release!: () => void;
    const slow = cache.getMany(['a'], () => new Promise<PostRow[]>((resolve) => (release = () => resolve([card('a', 'old')]))));
    cache.invalidate();
    release();
    expect((await slow)[0]!.content).toBe('old');
    expect((await cache.getMany(['a'], async () => [card('a', 'new')]))[0]!.content).toBe('new');

    const none = new PostCardCache(0);
    let reads = 0;
    const load = async (missing: string[]) => (reads++, missing.map((id) => card(id)));
    await none.getMany(['a'], load);
    await none.getMany(['a'], load);
    expect(reads).toBe(2);
  });

  it('drops one card, keeping the others, and never keeps a read of it that started before', async () => {
    const cache = new PostCardCache(60_000);
    await cache.getMany(['a', 'b'], async (missing) => missing.map((id) => card(id, 'v1')));
    let release!: () => void;
    const slow = cache.getMany(['a'], async () => [card('a', 'v1')]);
    await slow;
    const reading = cache.getMany(['c'], () => new Promise<PostRow[]>((resolve) => (release = () => resolve([card('c', 'v1')]))));
    cache.drop('a');
    release();
    await reading;
    const after = await cache.getMany(['a', 'b', 'c'], async (missing) => missing.map((id) => card(id, 'v2')));
    expect(after.map((c) => `${c.id}:${c.content}`)).toEqual(['a:v2', 'b:v1', 'c:v2']);
  });

  it('holds at most maxCards, dropping the oldest', async () => {
    const cache = new PostCardCache(60_000, 2);
    for (const id of ['a', 'b', 'c']) await cache.getMany([id], async () => [card(id)]);
    expect((await cache.getMany(['a'], async () => [card('a', 'a2')]))[0]!.content).toBe('a2');
    expect((await cache.getMany(['c'], async () => [card('c', 'c2')]))[0]!.content).toBe('c');
  });

  it('lets a failed read fail its callers, and reads again next time', async () => {
    const cache = new PostCardCache(60_000);
    await expect(cache.getMany(['a'], async () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect((await cache.getMany(['a'], async () => [card('a')]))[0]!.id).toBe('a');
  });
});
