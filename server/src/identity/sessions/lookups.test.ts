// Batched session lookups: the uncached sessions of one event-loop turn are read in one statement.
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { schema } from '@tribuna/drizzle';
import { testDatabase } from '../../../../test/support/db.ts';
import { buildUser } from '../../../../test/support/factories.ts';
import { SessionCache } from './cache.ts';
import { MAX_LOOKUPS_PER_QUERY, MAX_TOUCHES_PER_QUERY, SessionLookups } from './lookups.ts';
import { resolveSession, startSession } from './service.ts';
import { LAST_SEEN_RESOLUTION_MS } from './constants.ts';

describe('session lookups', () => {
  const database = testDatabase();
  afterAll(() => database.close());
  afterEach(() => vi.restoreAllMocks());

  const newSession = async (options: { mfaPending?: boolean } = {}) => {
    const user = await buildUser(database.db);
    return startSession(database.db, { userId: user.id, mfaPending: options.mfaPending ?? false });
  };

  it('answers every lookup of one turn from a single statement: live rows, and null for revoked, expired or unknown ids', async () => {
    const live = await newSession();
    const pending = await newSession({ mfaPending: true });
    const revoked = await newSession();
    const expired = await newSession();
    await database.db.update(schema.sessions).set({ revokedAt: new Date() }).where(eq(schema.sessions.id, revoked.id));
    await database.db
      .update(schema.sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(schema.sessions.id, expired.id));

    const lookups = new SessionLookups(database.db);
    const select = vi.spyOn(database.db, 'select');
    const [a, aAgain, p, r, e, unknown] = await Promise.all([
      lookups.find(live.id),
      lookups.find(live.id),
      lookups.find(pending.id),
      lookups.find(revoked.id),
      lookups.find(expired.id),
      lookups.find('f'.repeat(64)),
    ]);

    expect(select).toHaveBeenCalledTimes(1);
    expect(a).toMatchObject({ id: live.id, mfaPending: false, role: 'user', isSuspended: false });
    expect(aAgain).toEqual(a);
    expect(p).toMatchObject({ id: pending.id, mfaPending: true });
    expect([r, e, unknown]).toEqual([null, null, null]);
  });

  it('a later turn gets a statement of its own', async () => {
    const first = await newSession();
    const second = await newSession();
    const lookups = new SessionLookups(database.db);
    const select = vi.spyOn(database.db, 'select');
    expect((await lookups.find(first.id))?.id).toBe(first.id);
    expect((await lookups.find(second.id))?.id).toBe(second.id);
    expect(select).toHaveBeenCalledTimes(2);
  });

  it(`splits a burst of more than ${MAX_LOOKUPS_PER_QUERY} sessions into several statements`, async () => {
    const live = await newSession();
    const lookups = new SessionLookups(database.db);
    const select = vi.spyOn(database.db, 'select');
    const ids = [live.id, ...Array.from({ length: MAX_LOOKUPS_PER_QUERY }, (_, i) => i.toString(16).padStart(64, '0'))];
    const rows = await Promise.all(ids.map((id) => lookups.find(id)));
    expect(select).toHaveBeenCalledTimes(2);
    expect(rows[0]?.id).toBe(live.id);
    expect(rows.slice(1).every((row) => row === null)).toBe(true);
  });

  it('a failed statement rejects the lookups that were waiting on it, and the next turn tries again', async () => {
    const live = await newSession();
    const lookups = new SessionLookups(database.db);
    vi.spyOn(database.db, 'select').mockImplementationOnce(() => {
      throw new Error('connection lost');
    });
    const failed = await Promise.allSettled([lookups.find(live.id), lookups.find(live.id)]);
    expect(failed.map((f) => f.status)).toEqual(['rejected', 'rejected']);
    expect((await lookups.find(live.id))?.id).toBe(live.id);
  });

  const lastSeen = async (id: string) =>
    (await database.db.select({ at: schema.sessions.lastSeenAt }).from(schema.sessions).where(eq(schema.sessions.id, id)))[0]!.at.getTime();

  it('writes the last-seen touches waiting together in one statement: the latest per session, never backwards, not for revoked sessions', async () => {
    const [a, b, revoked] = [await newSession(), await newSession(), await newSession()];
    await database.db.update(schema.sessions).set({ revokedAt: new Date() }).where(eq(schema.sessions.id, revoked.id));
    const before = { a: await lastSeen(a.id), b: await lastSeen(b.id), revoked: await lastSeen(revoked.id) };
    const lookups = new SessionLookups(database.db);
    const execute = vi.spyOn(database.db, 'execute');
    lookups.touch(a.id, new Date(before.a + 60_000));
    lookups.touch(a.id, new Date(before.a + 120_000));
    lookups.touch(a.id, new Date(before.a + 90_000));
    lookups.touch(b.id, new Date(before.b - 60_000));
    lookups.touch(revoked.id, new Date(before.revoked + 60_000));
    // Nothing is written in the caller's path.
    expect(execute).not.toHaveBeenCalled();
    expect(await lastSeen(a.id)).toBe(before.a);

    await lookups.flushTouches();
    expect(execute).toHaveBeenCalledTimes(1);
    expect(await lastSeen(a.id)).toBe(before.a + 120_000);
    expect(await lastSeen(b.id)).toBe(before.b);
    expect(await lastSeen(revoked.id)).toBe(before.revoked);
  });

  it(`writes more than ${MAX_TOUCHES_PER_QUERY} touches in several statements, and a touch that cannot be written is logged and dropped`, async () => {
    const live = await newSession();
    const warn = vi.fn();
    const lookups = new SessionLookups(database.db, { warn });
    const execute = vi.spyOn(database.db, 'execute');
    const at = new Date((await lastSeen(live.id)) + 60_000);
    lookups.touch(live.id, at);
    for (let i = 0; i < MAX_TOUCHES_PER_QUERY; i++) lookups.touch(i.toString(16).padStart(64, '0'), at);
    await lookups.flushTouches();
    expect(execute).toHaveBeenCalledTimes(2);
    expect(await lastSeen(live.id)).toBe(at.getTime());

    execute.mockImplementationOnce(() => {
      throw new Error('connection lost');
    });
    lookups.touch(live.id, new Date(at.getTime() + 60_000));
    await expect(lookups.flushTouches()).resolves.toBeUndefined();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(await lastSeen(live.id)).toBe(at.getTime());
  });

  it('a request more than LAST_SEEN_RESOLUTION_MS after the last one touches its session in the background, within TOUCH_FLUSH_MS', async () => {
    const user = await buildUser(database.db);
    const session = await startSession(database.db, { userId: user.id, mfaPending: false });
    const lookups = new SessionLookups(database.db);
    const seen = await lastSeen(session.id);
    const later = new Date(seen + LAST_SEEN_RESOLUTION_MS + 1_000);
    const resolved = await resolveSession(lookups, new SessionCache(), session.token, later);
    expect(resolved?.user?.id).toBe(user.id);
    await vi.waitFor(async () => expect(await lastSeen(session.id)).toBe(later.getTime()), { timeout: 5_000 });
  });
});
