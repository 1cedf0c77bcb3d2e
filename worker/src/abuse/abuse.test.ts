import { describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { eq } from 'drizzle-orm';
import { schema } from '@tribuna/drizzle';
import type { AbuseScanProgress } from '@tribuna/contracts/live';
import { busChannel, type BusEnvelope } from '@tribuna/contracts/events';
import type { FlaggedDevice, FlaggedUser } from '@tribuna/contracts/api/admin/abuse';
import { ABUSE_MESSAGES } from '@tribuna/contracts/abuseRules';
import { testConfig } from '../../../test/support/env.ts';
import { testDatabase } from '../../../test/support/db.ts';
import { buildPoll, buildUser } from '../../../test/support/factories.ts';
import { useQueueWorker } from '../../../test/support/worker.ts';
import { AbuseScanNotFoundError, presentAccount, runAbuseScan, type AbuseScanEvent } from './service.ts';

// Own Redis namespace under the run's prefix: only this file's worker consumes these queues.
const config = testConfig({ REDIS_PREFIX: `${testConfig().redisPrefix}_abuse` });
const database = testDatabase();
const db = database.db;
const HOUR = 3_600_000;

const harness = useQueueWorker(config, database, 'maintenance');

const run = harness.run;

type Poll = Awaited<ReturnType<typeof buildPoll>>;

/** Vote rows with a device each (one per entry), straight into PostgreSQL. */
async function votesFrom(poll: Poll, entries: { userId: string; device: string | null; option?: number }[]) {
  return db
    .insert(schema.votes)
    .values(entries.map((e) => ({ pollId: poll.poll.id, optionId: poll.options[e.option ?? 0]!.id, userId: e.userId, deviceFingerprint: e.device })))
    .returning();
}

async function scanRow(id: string) {
  const [row] = await db.select().from(schema.abuseScans).where(eq(schema.abuseScans.id, id));
  return row!;
}

describe('runAbuseScan', () => {
  it('flags a device at exactly 2 accounts (not 1) and a user at exactly 3 devices (not 2), with the figures, highest first', async () => {
    const poll = await buildPoll(db, { options: 2 });
    const now = Date.now();
    const ana = await buildUser(db, { displayName: 'Ana', createdAt: new Date(now - 10 * HOUR) });
    const bea = await buildUser(db, { displayName: 'Bea', createdAt: new Date(now - 30 * 60_000) });
    const carla = await buildUser(db, { displayName: 'Carla', createdAt: new Date(now - 100 * HOUR) });
    const dani = await buildUser(db, { displayName: 'Dani' });
    const eva = await buildUser(db, { displayName: 'Eva' });
    const fede = await buildUser(db, { displayName: 'Fede' });

    await votesFrom(poll, [
      // shared-2: exactly 2 accounts (flagged); solo: 1 account (not).
      { userId: ana.id, device: 'shared-2' },
      { userId: ana.id, device: 'shared-2' },
      { userId: bea.id, device: 'shared-2' },
      { userId: dani.id, device: 'solo' },
      { userId: dani.id, device: 'solo' },
      // shared-3: 3 accounts (flagged, listed first).
      { userId: carla.id, device: 'shared-3' },
      { userId: eva.id, device: 'shared-3' },
      { userId: fede.id, device: 'shared-3' },
      // Carla: 3 devices (shared-3, c-2, c-3) → flagged; Eva: 2 devices (shared-3, e-2) → not; a vote without a device counts for nobody.
      { userId: carla.id, device: 'c-2' },
      { userId: carla.id, device: 'c-3' },
      { userId: eva.id, device: 'e-2' },
      { userId: eva.id, device: null },
    ]);

    const published: AbuseScanEvent[] = [];
    const summary = await runAbuseScan(db, { publish: async (event) => published.push(event) });
    expect(summary).toMatchObject({ status: 'done', flaggedDevices: 2, flaggedUsers: 1 });
    // shared-2 (3 votes) + shared-3 (3) + Carla's c-2 and c-3 (her shared-3 vote counted once).
    expect(summary.suspiciousVotes).toBe(8);

    const row = await scanRow(summary.scanId);
    expect(row).toMatchObject({ status: 'done', progress: 100, flaggedDevices: 2, flaggedUsers: 1, suspiciousVotes: 8, error: null, requestedBy: null });
    expect(row.finishedAt).toBeInstanceOf(Date);
    const report = row.report as { devices: FlaggedDevice[]; users: FlaggedUser[] };
    expect(report.devices.map((d) => [d.fingerprint, d.accountCount, d.voteCount])).toEqual([
      ['shared-3', 3, 3],
      ['shared-2', 2, 3],
    ]);
    // Accounts of a device: most votes first.
    expect(report.devices[1]!.accounts.map((a) => [a.displayName, a.voteCount])).toEqual([
      ['Ana', 2],
      ['Bea', 1],
    ]);
    const [anaFigures, beaFigures] = report.devices[1]!.accounts;
    expect(anaFigures!.accountAgeHours).toBeCloseTo(10, 0);
    expect(anaFigures!.votesPerHour).toBeCloseTo(0.2, 1);
    // Half an hour old: its age counts as one hour for the rate.
    expect(beaFigures!.accountAgeHours).toBeCloseTo(0.5, 1);
    expect(beaFigures!.votesPerHour).toBe(1);
    expect(report.users).toHaveLength(1);
    expect(report.users[0]).toMatchObject({ userId: carla.id, displayName: 'Carla', deviceCount: 3, voteCount: 3 });
    expect([...report.users[0]!.devices].sort()).toEqual(['c-2', 'c-3', 'shared-3']);

    // Progress: running from 0, a few steps, done at 100, in order.
    expect(published[0]).toEqual({ scanId: summary.scanId, status: 'running', progress: 0 });
    expect(published.at(-1)).toEqual({ scanId: summary.scanId, status: 'done', progress: 100 });
    const progress = published.map((e) => e.progress);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(published.length).toBeGreaterThanOrEqual(4);
  });

  it('sorts users by device count, then votes; a clean database flags nothing', async () => {
    const empty = await runAbuseScan(db);
    expect(empty).toMatchObject({ flaggedDevices: 0, flaggedUsers: 0, suspiciousVotes: 0 });
    expect((await scanRow(empty.scanId)).report).toEqual({ devices: [], users: [] });

    const poll = await buildPoll(db);
    const few = await buildUser(db);
    const many = await buildUser(db);
    const busy = await buildUser(db);
    await votesFrom(poll, [
      ...['a', 'b', 'c'].map((d) => ({ userId: few.id, device: `few-${d}` })),
      ...['a', 'b', 'c', 'd', 'e'].map((d) => ({ userId: many.id, device: `many-${d}` })),
      ...['a', 'b', 'c'].flatMap((d) => [
        { userId: busy.id, device: `busy-${d}` },
        { userId: busy.id, device: `busy-${d}` },
      ]),
    ]);
    const summary = await runAbuseScan(db);
    const report = (await scanRow(summary.scanId)).report as { users: FlaggedUser[] };
    expect(report.users.map((u) => [u.userId, u.deviceCount, u.voteCount])).toEqual([
      [many.id, 5, 5],
      [busy.id, 3, 6],
      [few.id, 3, 3],
    ]);
  });

  it("marks a scheduled scan its dead worker left 'running' as interrupted when the next scheduled one starts, leaving an admin's alone", async () => {
    const admin = await buildUser(db, { role: 'admin' });
    const [orphan] = await db.insert(schema.abuseScans).values({ status: 'running', progress: 40 }).returning();
    const [requested] = await db.insert(schema.abuseScans).values({ status: 'running', progress: 40, requestedBy: admin.id }).returning();
    const summary = await runAbuseScan(db);
    expect(await scanRow(orphan!.id)).toMatchObject({ status: 'failed', error: ABUSE_MESSAGES.scanInterrupted });
    expect(await scanRow(requested!.id)).toMatchObject({ status: 'running' });
    expect(await scanRow(summary.scanId)).toMatchObject({ status: 'done' });
  });

  it('runs the queued row it is given; a row already done is left alone; an unknown one fails for good', async () => {
    const [queued] = await db.insert(schema.abuseScans).values({ status: 'queued' }).returning();
    const summary = await runAbuseScan(db, { scanId: queued!.id });
    expect(summary).toMatchObject({ scanId: queued!.id, status: 'done' });
    expect((await scanRow(queued!.id)).status).toBe('done');
    expect(await runAbuseScan(db, { scanId: queued!.id })).toMatchObject({ status: 'skipped' });
    await expect(runAbuseScan(db, { scanId: '123e4567-e89b-42d3-a456-426614174000' })).rejects.toBeInstanceOf(AbuseScanNotFoundError);
  });

  it('marks the scan failed with the error and throws it again', async () => {
    const [queued] = await db.insert(schema.abuseScans).values({ status: 'queued' }).returning();
    const published: AbuseScanEvent[] = [];
    // The database fails in the middle of the scan (its transaction); the row itself is still writable.
    const broken = Object.create(db, {
      transaction: {
        value: async () => {
          throw new Error('the database went away');
        },
      },
    }) as typeof db;
    const failing = runAbuseScan(broken, { scanId: queued!.id, publish: async (e) => published.push(e) });
    await expect(failing).rejects.toThrow('the database went away');
    const row = await scanRow(queued!.id);
    expect(row).toMatchObject({ status: 'failed', error: 'the database went away' });
    expect(row.finishedAt).toBeInstanceOf(Date);
    expect(published.at(-1)).toMatchObject({ status: 'failed' });
  });
});

describe('presentAccount', () => {
  it('rounds the age to one decimal and the rate to two, the age counting at least one hour', () => {
    const base = { userId: 'u', displayName: null, username: null, isSuspended: false };
    expect(presentAccount({ ...base, ageSeconds: 36 * 3600 + 360, voteCount: 73 })).toMatchObject({ accountAgeHours: 36.1, votesPerHour: 2.02 });
    expect(presentAccount({ ...base, ageSeconds: 60, voteCount: 5 })).toMatchObject({ accountAgeHours: 0, votesPerHour: 5 });
    expect(presentAccount({ ...base, ageSeconds: 7200, voteCount: 0 })).toMatchObject({ accountAgeHours: 2, votesPerHour: 0 });
  });
});

describe('the abuse.scan job (BullMQ)', () => {
  it('creates its own row when scheduled and publishes its progress on the event bus', async () => {
    const poll = await buildPoll(db);
    const [a, b] = [await buildUser(db), await buildUser(db)];
    await votesFrom(poll, [
      { userId: a.id, device: 'same-phone' },
      { userId: b.id, device: 'same-phone' },
    ]);
    const subscriber = new Redis(config.redisUrl);
    try {
      const heard: AbuseScanProgress[] = [];
      subscriber.on('message', (_from: string, message: string) => {
        const envelope = JSON.parse(message) as BusEnvelope;
        if (envelope.name === 'abuse.scan-progress' && envelope.origin === 'worker') heard.push(envelope.payload as AbuseScanProgress);
      });
      await subscriber.subscribe(busChannel(config.redisPrefix));
      const result = (await run(harness.app.enqueue('abuse.scan', {}))) as { scanId: string; flaggedDevices: number };
      expect(result.flaggedDevices).toBe(1);
      expect((await scanRow(result.scanId)).status).toBe('done');
      await expect.poll(() => heard.at(-1)).toEqual({ scanId: result.scanId, status: 'done', progress: 100 });
      expect(heard.filter((e) => e.status === 'running').length).toBeGreaterThanOrEqual(3);
    } finally {
      subscriber.disconnect();
    }
  });
});
