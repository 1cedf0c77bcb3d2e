import { describe, expect, it } from 'vitest';
import type { Report } from '@tribuna/contracts/api/admin/reports';
import { ReportCache } from './cache.ts';

const report = (from: string): Report => ({
  from,
  to: from,
  timeZone: 'UTC',
  totals: { activeUsers: 0, newUsers: 0, totalVotes: 0, pageViews: 0 },
  days: [],
  updatedAt: null,
});

function counting() {
  const loads: string[] = [];
  const load = (key: string) => () => {
    loads.push(key);
    return Promise.resolve(report(key));
  };
  return { loads, load };
}

describe('ReportCache', () => {
  it('reads a period once per version; a new version reads it again', async () => {
    const cache = new ReportCache();
    const { loads, load } = counting();
    await cache.get(1, 'a', load('a'));
    await cache.get(1, 'a', load('a'));
    await cache.get(1, 'b', load('b'));
    expect(loads).toEqual(['a', 'b']);
    expect((await cache.get(2, 'a', load('a'))).from).toBe('a');
    expect(loads).toEqual(['a', 'b', 'a']);
    // The older version's entries are gone.
    expect(cache.size).toBe(1);
  });

  it('concurrent readers of a missing period share one read', async () => {
    const cache = new ReportCache();
    let release!: (r: Report) => void;
    let calls = 0;
    const load = () => {
      calls += 1;
      return new Promise<Report>((resolve) => (release = resolve));
    };
    const readers = [cache.get(5, 'k', load), cache.get(5, 'k', load), cache.get(5, 'k', load)];
    release(report('k'));
    const answers = await Promise.all(readers);
    expect(calls).toBe(1);
    expect(new Set(answers).size).toBe(1);
  });

  it('a failed read is not remembered', async () => {
    const cache = new ReportCache();
    await expect(cache.get(1, 'k', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    const { loads, load } = counting();
    await cache.get(1, 'k', load('k'));
    expect(loads).toEqual(['k']);
  });

  it('keeps at most its limit, dropping the least recently used', async () => {
    const cache = new ReportCache(2);
    const { loads, load } = counting();
    await cache.get(1, 'a', load('a'));
    await cache.get(1, 'b', load('b'));
    await cache.get(1, 'a', load('a')); // a is now the most recent
    await cache.get(1, 'c', load('c')); // b goes
    expect(cache.size).toBe(2);
    await cache.get(1, 'a', load('a'));
    await cache.get(1, 'b', load('b'));
    expect(loads).toEqual(['a', 'b', 'c', 'b']);
  });
});
