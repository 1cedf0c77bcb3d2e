import { describe, expect, it } from 'vitest';
import { schema } from '@tribuna/drizzle';
import { buildSession, buildUser } from '../../../test/support/factories.ts';
import { handlers } from '../handlers.ts';
import { createRegistry, InvalidJobPayloadError } from '../registry.ts';
import { useJobTestContext } from '../../../test/support/worker.ts';
import { sessionJobs } from './jobs.ts';

// Payloads are checked by the registry, once, before any handler runs (contracts/src/jobs.ts).
const registry = createRegistry(handlers);

const DAY = 86_400_000;
const { database, ctx } = useJobTestContext();

describe('sessions.purge', () => {
  it('deletes sessions that ended more than N days ago and keeps the rest', async () => {
    const user = await buildUser(database.db);
    const now = Date.now();
    const session = (id: string, expiresAt: number, revokedAt: number | null = null) =>
      buildSession(database.db, user.id, { id, expiresAt: new Date(expiresAt), revokedAt: revokedAt === null ? null : new Date(revokedAt) });
    await session('live', now + 14 * DAY);
    await session('expired-recently', now - 5 * DAY);
    await session('expired-long-ago', now - 40 * DAY);
    await session('revoked-recently', now + 10 * DAY, now - DAY);
    await session('revoked-long-ago', now + 10 * DAY, now - 31 * DAY);

    expect(await sessionJobs['sessions.purge']({ olderThanDays: 30 }, ctx)).toEqual({ deleted: 2 });
    const left = (await database.db.select({ id: schema.sessions.id }).from(schema.sessions)).map((r) => r.id).sort();
    expect(left).toEqual(['expired-recently', 'live', 'revoked-recently']);
  });

  it('deletes sessions whose 30-day lifetime since the sign-in ended more than N days ago, whatever their expiry says', async () => {
    const user = await buildUser(database.db);
    const now = Date.now();
    const session = (id: string, createdAt: number) =>
      buildSession(database.db, user.id, { id, createdAt: new Date(createdAt), lastSeenAt: new Date(now), expiresAt: new Date(now + 10 * DAY) });
    // Kept refreshed every day (expires in 10 days), but signed in long ago.
    await session('signed-in-today', now);
    await session('lifetime-ended-recently', now - 45 * DAY);
    await session('lifetime-ended-long-ago', now - 61 * DAY);

    expect(await sessionJobs['sessions.purge']({ olderThanDays: 30 }, ctx)).toEqual({ deleted: 1 });
    const left = (await database.db.select({ id: schema.sessions.id }).from(schema.sessions)).map((r) => r.id).sort();
    expect(left).toEqual(['lifetime-ended-recently', 'signed-in-today']);
  });

  it('refuses a payload without a sensible number of days', async () => {
    await expect(registry.dispatch('sessions.purge', { olderThanDays: 0 }, ctx)).rejects.toThrow(InvalidJobPayloadError);
    await expect(registry.dispatch('sessions.purge', { olderThanDays: 3651 }, ctx)).rejects.toThrow(InvalidJobPayloadError);
  });
});
