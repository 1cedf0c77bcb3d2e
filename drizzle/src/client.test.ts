import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable, reconnectBackoff } from './client.ts';

describe('isDatabaseUnavailable', () => {
  it.each([
    ['postgres.js connection closed', { code: 'CONNECTION_CLOSED' }],
    ['connect timeout', { code: 'CONNECT_TIMEOUT' }],
    ['refused socket', { code: 'ECONNREFUSED' }],
    ['SQLSTATE class 08', { code: '08006' }],
    ['admin shutdown', { code: '57P01' }],
    ['wrapped by drizzle', new Error('Failed query', { cause: Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }) })],
  ])('recognises %s', (_, err) => {
    expect(isDatabaseUnavailable(err)).toBe(true);
  });

  it.each([
    ['a unique violation', { code: '23505' }],
    ['a statement timeout', { code: '57014' }],
    ['an error without a code', new Error('boom')],
    ['nothing', undefined],
  ])('leaves alone %s', (_, err) => {
    expect(isDatabaseUnavailable(err)).toBe(false);
  });
});

describe('reconnectBackoff', () => {
  it('starts within a tenth of a second and never waits more than a second', () => {
    expect(reconnectBackoff(0)).toBeLessThanOrEqual(0.05);
    for (const retries of [5, 20, 100]) expect(reconnectBackoff(retries)).toBeLessThanOrEqual(1);
    expect(reconnectBackoff(100)).toBeGreaterThanOrEqual(0.5);
  });
});
