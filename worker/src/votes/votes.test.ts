import { describe, expect, it } from 'vitest';
import { schema } from '@tribuna/drizzle';
import { buildPoll, buildUser } from '../../../test/support/factories.ts';
import { handlers } from '../handlers.ts';
import { createRegistry, InvalidJobPayloadError } from '../registry.ts';
import { useJobTestContext } from '../../../test/support/worker.ts';
import { voteJobs } from './jobs.ts';

// Payloads are checked by the registry, once, before any handler runs (contracts/src/jobs.ts).
const registry = createRegistry(handlers);

const HOUR = 3_600_000;
const { database, ctx } = useJobTestContext();

describe('votes.purge-requests', () => {
  it('deletes the idempotency keys claimed more than N hours ago and keeps the rest', async () => {
    const user = await buildUser(database.db);
    const { poll } = await buildPoll(database.db);
    const now = Date.now();
    const claim = (key: string, ageHours: number) => ({ userId: user.id, pollId: poll.id, key, createdAt: new Date(now - ageHours * HOUR) });
    await database.db
      .insert(schema.voteRequests)
      .values([claim('fresh-key-0001', 0), claim('recent-key-001', 23), claim('old-key-00001', 25), claim('older-key-0001', 24 * 7)]);

    expect(await voteJobs['votes.purge-requests']({ olderThanHours: 24 }, ctx)).toEqual({ deleted: 2 });
    const left = (await database.db.select({ key: schema.voteRequests.key }).from(schema.voteRequests)).map((r) => r.key).sort();
    expect(left).toEqual(['fresh-key-0001', 'recent-key-001']);
  });

  it('refuses a payload without a sensible number of hours', async () => {
    await expect(registry.dispatch('votes.purge-requests', { olderThanHours: 0 }, ctx)).rejects.toThrow(InvalidJobPayloadError);
    await expect(registry.dispatch('votes.purge-requests', { olderThanHours: 8761 }, ctx)).rejects.toThrow(InvalidJobPayloadError);
  });
});
