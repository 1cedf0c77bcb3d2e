// The OAuth callback's code and state are credentials: they must never reach the logs.
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { App } from '../../app.ts';
import { redactUrl } from '../../http/logging.ts';
import { useTestApp } from '../../../../test/support/server/harness.ts';
import { authorizeAtProvider, finishGoogleFlow, startGoogleFlow, useOidcTestApp } from '../../../../test/support/server/oidc.ts';

/** A pino logger at level info writing every line into `lines`. */
function memoryLogger() {
  const lines: string[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
  return { logger, lines };
}

describe('OAuth callback logs', () => {
  const { logger, lines } = memoryLogger();
  let baseUrl: string;
  useOidcTestApp({}, (ready) => ({ baseUrl } = ready), { build: () => ({ logger }) });

  const logs = () => lines.join('');

  it('logs a successful callback without its code and state', async () => {
    const { authorizeUrl, jar } = await startGoogleFlow(baseUrl);
    const callback = await authorizeAtProvider(authorizeUrl);
    const code = callback.searchParams.get('code')!;
    const state = callback.searchParams.get('state')!;
    const flow = await finishGoogleFlow(baseUrl, callback, jar);
    expect(flow.location).toBe('/auth/callback');

    expect(logs()).toContain('/auth/google/callback?code=[REDACTED]&state=[REDACTED]');
    expect(logs()).toContain('Google sign-in');
    expect(logs()).not.toContain(code);
    expect(logs()).not.toContain(state);
  });

  it('logs refused callbacks (forged state, refused code, provider error, malformed) without the secrets', async () => {
    const { jar } = await startGoogleFlow(baseUrl);
    const attempts = [
      // State that does not match its cookie.
      '/auth/google/callback?code=SECRETCODE&state=SECRETSTATE',
      // Odd spellings of the parameter names.
      '/auth/google/callback?Code=SECRETCODE&STATE=SECRETSTATE&%63ode=SECRETCODE',
      '/auth/google/callback?error=access_denied&code=SECRETCODE&state=SECRETSTATE',
      // Too long: refused by the handler as a malformed callback.
      `/auth/google/callback?code=SECRETCODE${'x'.repeat(5000)}&state=SECRETSTATE`,
    ];
    for (const path of attempts) {
      const res = await finishGoogleFlow(baseUrl, new URL(path, 'http://tribuna.test'), new Map(jar));
      expect(res.status).toBe(302);
    }
    // The right state with a code the provider refuses: the exchange error is logged.
    const started = await startGoogleFlow(baseUrl);
    const callback = await authorizeAtProvider(started.authorizeUrl);
    callback.searchParams.set('code', 'SECRETCODE');
    expect((await finishGoogleFlow(baseUrl, callback, started.jar)).location).toBe('/auth/callback?error=1');

    expect(logs()).toContain('Google sign-in failed');
    expect(logs()).toContain('malformed callback query');
    expect(logs()).not.toContain('SECRETCODE');
    expect(logs()).not.toContain('SECRETSTATE');
  });
});

describe('OAuth callback logs when Google sign-in is not configured', () => {
  const { logger, lines } = memoryLogger();
  let app: App;
  useTestApp({}, (ready) => (app = ready.app), { build: () => ({ logger }) });

  it('redirects to the failure page and logs neither code nor state', async () => {
    const res = await app.inject({ method: 'GET', url: '/auth/google/callback?code=SECRETCODE&state=SECRETSTATE' });
    expect(res.statusCode).toBe(302);
    expect(lines.join('')).toContain('incoming request');
    expect(lines.join('')).not.toMatch(/SECRETCODE|SECRETSTATE/);
  });
});

describe('redactUrl', () => {
  it.each([
    ['/auth/google/callback?code=abc&state=def', '/auth/google/callback?code=[REDACTED]&state=[REDACTED]'],
    ['/x?token=abc&page=2', '/x?token=[REDACTED]&page=2'],
    ['/x?id_token=a&access_token=b&refresh_token=c', '/x?id_token=[REDACTED]&access_token=[REDACTED]&refresh_token=[REDACTED]'],
    ['/x?%63ode=abc', '/x?%63ode=[REDACTED]'],
    ['/x?code', '/x?code=[REDACTED]'],
    ['/x?encuesta=123&codes=1', '/x?encuesta=123&codes=1'],
    ['/api/polls', '/api/polls'],
  ])('%s → %s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });
});
