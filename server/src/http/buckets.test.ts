import { describe, expect, it } from 'vitest';
import { addressKey, LocalBuckets, takeLocal } from './buckets.ts';

const take = (buckets: LocalBuckets, key: string, now: number) => takeLocal(buckets, key, null, '', now);

describe('local token buckets (GCRA)', () => {
  it('lets a burst of max through, then one per window/max', () => {
    const buckets = new LocalBuckets({ max: 3, windowSeconds: 3 });
    const t0 = 1_000_000;
    expect([take(buckets, 'k', t0), take(buckets, 'k', t0), take(buckets, 'k', t0)]).toEqual([0, 0, 0]);
    expect(take(buckets, 'k', t0)).toBe(1000);
    expect(take(buckets, 'k', t0 + 400)).toBe(600);
    expect(take(buckets, 'k', t0 + 1000)).toBe(0);
    expect(take(buckets, 'k', t0 + 1000)).toBe(1000);
    // A bucket left alone fills up again, and no more than max.
    for (let i = 0; i < 3; i++) expect(take(buckets, 'k', t0 + 60_000)).toBe(0);
    expect(take(buckets, 'k', t0 + 60_000)).toBeGreaterThan(0);
  });

  it('counts keys apart', () => {
    const buckets = new LocalBuckets({ max: 1, windowSeconds: 60 });
    expect(take(buckets, 'a', 0)).toBe(0);
    expect(take(buckets, 'b', 0)).toBe(0);
    expect(take(buckets, 'a', 0)).toBe(60_000);
  });

  it('takes from two buckets all or nothing', () => {
    const user = new LocalBuckets({ max: 1, windowSeconds: 60 });
    const address = new LocalBuckets({ max: 2, windowSeconds: 60 });
    expect(takeLocal(user, 'u1', address, 'ip', 0)).toBe(0);
    // Refused by the user's bucket: the address is not charged for it…
    expect(takeLocal(user, 'u1', address, 'ip', 0)).toBe(60_000);
    // …so another user behind the address still gets its last place.
    expect(takeLocal(user, 'u2', address, 'ip', 0)).toBe(0);
    expect(takeLocal(user, 'u3', address, 'ip', 0)).toBe(30_000);
  });

  it('keeps at most maxKeys buckets whatever the number of addresses', () => {
    const buckets = new LocalBuckets({ max: 1, windowSeconds: 60 }, 1000);
    const address = (i: number) => `10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`;
    for (let i = 0; i < 100_000; i++) take(buckets, address(i), 0);
    expect(buckets.size).toBeLessThanOrEqual(1000);
    // The newest keys are kept: a caller that just came is still counted.
    expect(take(buckets, address(99_999), 0)).toBe(60_000);
  });

  it('drops full buckets first when the map is full', () => {
    const buckets = new LocalBuckets({ max: 1, windowSeconds: 1 }, 2);
    take(buckets, 'old', 0);
    take(buckets, 'busy', 5_000);
    // 'old' is full again by now (forgetting it changes nothing); 'busy' is still counting.
    take(buckets, 'new', 5_000);
    expect(take(buckets, 'busy', 5_000)).toBe(1000);
  });
});

describe('addressKey', () => {
  it('keeps IPv4 addresses, also written IPv4-mapped', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('counts IPv6 addresses by their /64', () => {
    expect(addressKey('2001:db8:85a3:1:8a2e:370:7334:1')).toBe('2001:db8:85a3:1::/64');
    expect(addressKey('2001:DB8:85A3:0001:ffff::2')).toBe('2001:db8:85a3:1::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressKey('64:ff9b::192.0.2.33')).toBe('64:ff9b:0:0::/64');
  });
});
