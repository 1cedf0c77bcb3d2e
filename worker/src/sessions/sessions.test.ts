import { describe, expect, it } from 'vitest';
import { schema } from '@tribuna/drizzle';
import { buildSession, buildUser } from '../../../test/support/factories.ts';
import { InvalidPayloadError } from '../errors.ts';
import { useJobTestContext } from '../testing.ts';
import { sessionJobs } from './jobs.ts';

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

  it('refuses a payload without a sensible number of days', async () => {
    await expect(sessionJobs['sessions.purge']({ olderThanDays: 0 }, ctx)).rejects.toThrow(InvalidPayloadError);
  });
});
