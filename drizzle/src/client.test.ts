import { spawnSync } from 'node:child_process';
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

describe('surviveLostConnections', () => {
  // A real Node process each: the handler is process-wide, and what it must prevent is an exit.
  const run = (rejection: string) =>
    spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `import { surviveLostConnections } from ${JSON.stringify(new URL('./client.ts', import.meta.url).href)};
         surviveLostConnections({ warn: (_o, msg) => console.log('warn: ' + msg), fatal: (_o, msg) => console.log('fatal: ' + msg) });
         Promise.reject(${rejection});
         setTimeout(() => { console.log('still running'); }, 50);`,
      ],
      { encoding: 'utf8', timeout: 30_000 },
    );

  it("logs a lost connection's stray rejection and keeps the process running", () => {
    const result = run("Object.assign(new Error('write CONNECTION_CLOSED 127.0.0.1:5432'), { code: 'CONNECTION_CLOSED' })");
    expect(result.stdout).toContain('warn: a database statement failed after its connection was lost');
    expect(result.stdout).toContain('still running');
    expect(result.status).toBe(0);
  });

  it('still ends the process with code 1 on any other unhandled rejection', () => {
    const result = run("new Error('a bug')");
    expect(result.stdout).toContain('fatal: unhandled promise rejection');
    expect(result.stdout).not.toContain('still running');
    expect(result.status).toBe(1);
  });
});
