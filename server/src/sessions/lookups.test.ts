// Batched session lookups: the uncached sessions of one event-loop turn are read in one statement.
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { schema } from '@tribuna/drizzle';
import { testDatabase } from '../../../test/support/db.ts';
import { buildUser } from '../../../test/support/factories.ts';
import { MAX_LOOKUPS_PER_QUERY, SessionLookups } from './lookups.ts';
import { startSession } from './service.ts';

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
    await database.db.update(schema.sessions).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(schema.sessions.id, expired.id));

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
});
