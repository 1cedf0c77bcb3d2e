// TRUST_PROXY against the real server: who request.ip is decides the per-address limits, so a
// script must not pick its own address through X-Forwarded-For unless a trusted proxy wrote it.
import { describe, expect, it } from 'vitest';
import { schema } from '@tribuna/drizzle';
import type { Database } from '@tribuna/drizzle/client';
import type { App } from '../app.ts';
import { useTestApp } from '../../../test/support/server/harness.ts';
import { XHR } from '../../../test/support/server/sessions.ts';
import type { RateLimitTable } from './rateLimits.ts';

const VIEW = { path: '/terminos', referrer: null, sessionId: 'sess_abc12345', deviceType: 'mobile' };
/** Two page views per address, so the third tells which address the server saw. */
const TWO_VIEWS: Partial<RateLimitTable> = { 'page-views.record': { store: 'local', perAddress: { max: 2, windowSeconds: 60 } } };

function pageViews(getApp: () => App) {
  return (forwardedFor: string) =>
    getApp().inject({
      method: 'POST',
      url: '/api/page-views',
      remoteAddress: '127.0.0.1',
      headers: { ...XHR, 'x-forwarded-for': forwardedFor },
      payload: VIEW,
    });
}

describe('without TRUST_PROXY (the default)', () => {
  let app: App;
  let database: Database;
  useTestApp({ TRUST_PROXY: undefined }, (ready) => ({ app, database } = ready), { build: () => ({ rateLimits: TWO_VIEWS }) });
  const record = pageViews(() => app);

  it('ignores X-Forwarded-For: a script rotating it still meets its own address limit and stores nothing more', async () => {
    expect((await record('198.51.100.1')).statusCode).toBe(204);
    expect((await record('198.51.100.2')).statusCode).toBe(204);
    expect((await record('198.51.100.3')).statusCode).toBe(429);
    expect(await database.db.select().from(schema.pageViews)).toHaveLength(2);
  });
});

describe('TRUST_PROXY naming the proxy address', () => {
  let app: App;
  let database: Database;
  useTestApp({ TRUST_PROXY: '127.0.0.1' }, (ready) => ({ app, database } = ready), { build: () => ({ rateLimits: TWO_VIEWS }) });
  const record = pageViews(() => app);

  it("counts each fan by the address the proxy forwarded, so fans behind the balancer don't share one budget", async () => {
    for (const fan of ['198.51.100.1', '198.51.100.2', '198.51.100.3']) expect((await record(fan)).statusCode).toBe(204);
    expect((await record('198.51.100.1')).statusCode).toBe(204);
    expect((await record('198.51.100.1')).statusCode).toBe(429);
    expect(await database.db.select().from(schema.pageViews)).toHaveLength(4);
  });

  it('trusts only the named proxy: an address the client prepended is not believed', async () => {
    // The proxy appends the address it saw (203.0.113.9); whatever the client wrote before it is ignored.
    expect((await record('10.0.0.1, 203.0.113.9')).statusCode).toBe(204);
    expect((await record('10.0.0.2, 203.0.113.9')).statusCode).toBe(204);
    expect((await record('10.0.0.3, 203.0.113.9')).statusCode).toBe(429);
  });
});

describe('TRUST_PROXY as a hop count', () => {
  let app: App;
  useTestApp({ TRUST_PROXY: '1' }, (ready) => ({ app } = ready), { build: () => ({ rateLimits: TWO_VIEWS }) });
  const record = pageViews(() => app);

  it('takes the address the one trusted hop forwarded, not those the client prepended', async () => {
    expect((await record('10.0.0.1, 203.0.113.9')).statusCode).toBe(204);
    expect((await record('10.0.0.2, 203.0.113.9')).statusCode).toBe(204);
    expect((await record('10.0.0.3, 203.0.113.9')).statusCode).toBe(429);
    expect((await record('203.0.113.10')).statusCode).toBe(204);
  });
});
