// Revoked and suspended sessions leave the in-process cache after the commit too, and the LISTEN
// that carries those evictions comes back by itself when its connection drops.
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { schema } from '@tribuna/drizzle';
import type { Database } from '@tribuna/drizzle/client';
import { testDatabase } from '../../../../test/support/db.ts';
import { testConfig } from '../../../../test/support/env.ts';
import { buildUser } from '../../../../test/support/factories.ts';
import { buildApp, type App } from '../../app.ts';
import { useTestApp } from '../../../../test/support/server/harness.ts';
import { signIn, XHR } from '../../../../test/support/server/sessions.ts';
import { TcpProxy } from '../../../../test/support/server/tcpProxy.ts';
import { LISTENER_APPLICATION_NAME } from './listener.ts';
import type { ActiveSessionRow } from './repository.ts';
import { resolveSession } from './service.ts';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

async function waitFor(condition: () => boolean | Promise<boolean>, what: string, limitMs = 10_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${limitMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Resolves once `app` has applied the `tribuna_auth` notification `payload` (call it before the change). */
function notificationApplied(app: Pick<App, 'sessionCache'>, payload: string): Promise<void> {
  const spy = vi.spyOn(app.sessionCache, 'applyNotification');
  return waitFor(() => spy.mock.calls.some(([received]) => received === payload), `NOTIFY ${payload} applied`);
}

describe('session invalidation after commit', () => {
  let app: App;
  let database: Database;
  useTestApp({}, (ready) => ({ app, database } = ready));
  afterEach(() => {
    vi.restoreAllMocks();
  });

  const me = (cookie: string) => app.inject({ method: 'GET', url: '/api/me', headers: { cookie } });

  /**
   * A request's session lookup that has read its row and waits at a gate before handing it back,
   * as a slow lookup would while a revocation commits and its NOTIFY is applied.
   */
  async function lookupHeldAfterRead(token: string) {
    const read = deferred();
    const gate = deferred();
    const lookups = {
      db: app.sessionLookups.db,
      touch: (id: string, at: Date) => app.sessionLookups.touch(id, at),
      find: async (id: string): Promise<ActiveSessionRow | null> => {
        const row = await app.sessionLookups.find(id);
        read.resolve();
        await gate.promise;
        return row;
      },
    };
    const resolved = resolveSession(lookups, app.sessionCache, token);
    await read.promise;
    return { release: () => gate.resolve(), resolved };
  }

  it('does not cache a row read before a sign-out committed, even when it comes back after the NOTIFY', async () => {
    const user = await buildUser(database.db);
    const { cookie, token, sessionId } = await signIn(app, user);
    const lookup = await lookupHeldAfterRead(token);

    const notified = notificationApplied(app, `s:${sessionId}`);
    expect((await app.inject({ method: 'POST', url: '/auth/logout', headers: { cookie, ...XHR } })).statusCode).toBe(204);
    await notified;
    lookup.release();
    // That request raced the sign-out and may still see its session; nobody after it may.
    expect(await lookup.resolved).not.toBeNull();
    expect(app.sessionCache.get(sessionId, Date.now())).toBeNull();
    expect((await me(cookie)).statusCode).toBe(401);
  });

  it('does not cache a row read before another instance revoked the session (only its NOTIFY arrives here)', async () => {
    const user = await buildUser(database.db);
    const { cookie, token, sessionId } = await signIn(app, user);
    const lookup = await lookupHeldAfterRead(token);

    const notified = notificationApplied(app, `s:${sessionId}`);
    await database.db.update(schema.sessions).set({ revokedAt: new Date() }).where(eq(schema.sessions.id, sessionId));
    await notified;
    lookup.release();
    expect(await lookup.resolved).not.toBeNull();
    expect(app.sessionCache.get(sessionId, Date.now())).toBeNull();
    expect((await me(cookie)).statusCode).toBe(401);
  });

  it('does not cache a row read before another instance suspended the user', async () => {
    const user = await buildUser(database.db);
    const { token, sessionId } = await signIn(app, user);
    const lookup = await lookupHeldAfterRead(token);

    const notified = notificationApplied(app, `u:${user.id}`);
    await database.db.update(schema.profiles).set({ isSuspended: true }).where(eq(schema.profiles.id, user.id));
    await notified;
    lookup.release();
    expect((await lookup.resolved)?.user?.isSuspended).toBe(false);
    expect(app.sessionCache.get(sessionId, Date.now())).toBeNull();
    expect((await resolveSession(app.sessionLookups, app.sessionCache, token))?.user?.isSuspended).toBe(true);
  });

  it('does not cache a row read before an admin suspension committed here', async () => {
    const admin = await buildUser(database.db, { role: 'admin' });
    const adminHeaders = { cookie: (await signIn(app, admin)).cookie, ...XHR };
    const user = await buildUser(database.db);
    const { cookie, token, sessionId } = await signIn(app, user);
    const lookup = await lookupHeldAfterRead(token);

    const notified = notificationApplied(app, `u:${user.id}`);
    const res = await app.inject({ method: 'POST', url: `/api/admin/users/${user.id}/suspend`, headers: adminHeaders });
    expect(res.statusCode).toBe(200);
    await notified;
    lookup.release();
    await lookup.resolved;
    expect(app.sessionCache.get(sessionId, Date.now())).toBeNull();
    expect((await me(cookie)).statusCode).toBe(401);
  });

  it('listens again after its connection is killed, and forgets sessions it may have missed a NOTIFY for', async () => {
    const user = await buildUser(database.db);
    const { cookie, sessionId } = await signIn(app, user);
    expect((await me(cookie)).statusCode).toBe(200);
    expect(app.sessionCache.get(sessionId, Date.now())).not.toBeNull();

    const killed = await database.sql`
      SELECT pg_terminate_backend(pid) FROM pg_stat_activity
      WHERE application_name = ${LISTENER_APPLICATION_NAME} AND datname = current_database() AND query LIKE 'LISTEN%'`;
    expect(killed.length).toBeGreaterThan(0);
    // Revoked while nobody may be listening: this NOTIFY can be lost.
    await database.db.update(schema.sessions).set({ revokedAt: new Date() }).where(eq(schema.sessions.id, sessionId));

    // Refused well before the cache TTL (a minute) could have expired it.
    await waitFor(async () => (await me(cookie)).statusCode === 401, 'the revoked session refused');
    await waitFor(() => app.sessionChanges.listening, 'listening again');

    // And notifications flow again.
    const other = await signIn(app, user);
    expect((await me(other.cookie)).statusCode).toBe(200);
    const notified = notificationApplied(app, `s:${other.sessionId}`);
    await database.db.update(schema.sessions).set({ revokedAt: new Date() }).where(eq(schema.sessions.id, other.sessionId));
    await notified;
    expect((await me(other.cookie)).statusCode).toBe(401);
  });
});

describe('session invalidation when PostgreSQL is unreachable at start', () => {
  const database = testDatabase();
  const base = testConfig();
  const pgProxy = TcpProxy.for(base.databaseUrl);
  let app: App;

  beforeAll(async () => {
    // Take a port, then close it: PostgreSQL is "down" while the app starts.
    await pgProxy.start();
    await pgProxy.stop();
    app = await buildApp(testConfig({ DATABASE_URL: pgProxy.proxiedUrl(base.databaseUrl) }));
  });
  afterAll(async () => {
    await app?.close();
    await pgProxy.stop();
    await database.close();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('starts anyway, keeps retrying the LISTEN, and evicts revoked sessions once PostgreSQL is back', async () => {
    expect(app.sessionChanges.listening).toBe(false);
    await pgProxy.start();
    await waitFor(() => app.sessionChanges.listening, 'listening once PostgreSQL is back', 20_000);

    const user = await buildUser(database.db);
    const { cookie, sessionId } = await signIn(app, user);
    expect((await app.inject({ method: 'GET', url: '/api/me', headers: { cookie } })).statusCode).toBe(200);
    const notified = notificationApplied(app, `s:${sessionId}`);
    await database.db.update(schema.sessions).set({ revokedAt: new Date() }).where(eq(schema.sessions.id, sessionId));
    await notified;
    expect((await app.inject({ method: 'GET', url: '/api/me', headers: { cookie } })).statusCode).toBe(401);
  });
});
