import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { eq, sql } from 'drizzle-orm';
import { ABUSE_LIMITS, ABUSE_MESSAGES } from '@tribuna/contracts/abuseRules';
import type { AbuseScanMessage, AbuseScanView, AbuseVoteList, LatestAbuseScan, VoidResult } from '@tribuna/contracts/api/admin/abuse';
import type { PollResults } from '@tribuna/contracts/api/polls';
import type { ResultsSnapshot } from '@tribuna/contracts/live';
import { schema } from '@tribuna/drizzle';
import type { Database } from '@tribuna/drizzle/client';
import { buildPoll, buildUser } from '../../../../test/support/factories.ts';
import { testConfig } from '../../../../test/support/env.ts';
import { startWorker, type WorkerApp } from '../../../../worker/src/app.ts';
import type { App } from '../../app.ts';
import { useListeningTestApp } from '../../../../test/support/server/harness.ts';
import { asUser, signIn, XHR } from '../../../../test/support/server/sessions.ts';
import { openWs } from '../../../../test/support/server/wsClient.ts';

type Poll = Awaited<ReturnType<typeof buildPoll>>;

describe('abuse report: scans, the votes behind a flag, void and restore', () => {
  let app: App;
  let database: Database;
  let wsUrl: string;
  let worker: WorkerApp;
  useListeningTestApp({}, (ready) => {
    ({ app, database } = ready);
    wsUrl = `${ready.baseUrl.replace('http', 'ws')}/ws`;
  });
  const db = () => database.db;

  // The real worker on this file's queues: the scan job runs end to end.
  beforeAll(async () => {
    worker = await startWorker({ config: testConfig(), db: database.db, logger: pino({ level: 'silent' }), schedules: false });
  });
  afterAll(async () => {
    await worker?.close();
  });

  async function adminHeaders() {
    const admin = await buildUser(db(), { role: 'admin', displayName: 'Admin Ana' });
    return { admin, headers: asUser(await signIn(app, admin)) };
  }

  /** Vote rows with devices, straight into PostgreSQL, oldest first a second apart. */
  async function votesFrom(poll: Poll, entries: { userId: string; device: string | null; option?: number; points?: number }[]) {
    const start = Date.now() - entries.length * 1000 - 60_000;
    return db()
      .insert(schema.votes)
      .values(
        entries.map((e, i) => ({
          pollId: poll.poll.id,
          optionId: poll.options[e.option ?? 0]!.id,
          userId: e.userId,
          deviceFingerprint: e.device,
          points: e.points ?? 1,
          createdAt: new Date(start + i * 1000),
        })),
      )
      .returning();
  }

  const results = async (pollId: string) => {
    const res = await app.inject({ method: 'GET', url: `/api/polls/${pollId}/results` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<PollResults>();
  };
  const post = (url: string, headers: Record<string, string>, payload?: object) =>
    app.inject({ method: 'POST', url, headers, ...(payload ? { payload } : {}) });

  it('refuses visitors (401) and non-admins (403) on every abuse route, and writes nothing', async () => {
    const fan = await buildUser(db());
    const fanHeaders = asUser(await signIn(app, fan));
    const calls = [
      { method: 'GET' as const, url: '/api/admin/abuse/scans/latest' },
      { method: 'POST' as const, url: '/api/admin/abuse/scans' },
      { method: 'GET' as const, url: '/api/admin/abuse/votes?fingerprint=abc' },
      { method: 'POST' as const, url: '/api/admin/abuse/votes/void', payload: { voteIds: ['1'], reason: 'duplicado' } },
      { method: 'POST' as const, url: '/api/admin/abuse/votes/restore', payload: { voteIds: ['1'] } },
    ];
    for (const call of calls) {
      expect((await app.inject({ ...call, headers: { ...XHR } })).statusCode).toBe(401);
      expect((await app.inject({ ...call, headers: fanHeaders })).statusCode).toBe(403);
    }
    const [scans] = await db().execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM abuse_scans`);
    expect(scans!.n).toBe(0);
  });

  it('lists the live and voided votes of one device or one user, newest first; exactly one of the two', async () => {
    const { headers } = await adminHeaders();
    for (const query of ['', '?fingerprint=abc&userId=123e4567-e89b-42d3-a456-426614174000']) {
      const res = await app.inject({ method: 'GET', url: `/api/admin/abuse/votes${query}`, headers });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(ABUSE_MESSAGES.votesQueryOne);
    }

    const poll = await buildPoll(db(), { title: 'Expulsión 5' });
    const [ana, bea] = [await buildUser(db(), { displayName: 'Ana' }), await buildUser(db(), { displayName: 'Bea' })];
    const rows = await votesFrom(poll, [
      { userId: ana.id, device: 'phone-1', option: 0 },
      { userId: bea.id, device: 'phone-1', option: 1 },
      { userId: ana.id, device: 'tablet-9', option: 1 },
    ]);
    const voided = await post('/api/admin/abuse/votes/void', headers, { voteIds: [String(rows[0]!.id)], reason: '  cuenta duplicada ' });
    expect(voided.statusCode, voided.body).toBe(200);

    const byDevice = await app.inject({ method: 'GET', url: '/api/admin/abuse/votes?fingerprint=phone-1', headers });
    expect(byDevice.statusCode, byDevice.body).toBe(200);
    const list = byDevice.json<AbuseVoteList>();
    expect(list.truncated).toBe(false);
    expect(list.items.map((v) => [v.id, v.displayName, v.pollTitle, v.voided?.reason ?? null])).toEqual([
      [String(rows[1]!.id), 'Bea', 'Expulsión 5', null],
      [String(rows[0]!.id), 'Ana', 'Expulsión 5', 'cuenta duplicada'],
    ]);
    const contestant = await db().select().from(schema.contestants).where(eq(schema.contestants.id, poll.options[1]!.contestantId!));
    expect(list.items[0]!.optionLabel).toBe(contestant[0]!.fullName);
    expect(list.items[1]!.voided).toMatchObject({ byName: 'Admin Ana' });

    const byUser = (await app.inject({ method: 'GET', url: `/api/admin/abuse/votes?userId=${ana.id}`, headers })).json<AbuseVoteList>();
    expect(byUser.items.map((v) => v.deviceFingerprint)).toEqual(['tablet-9', 'phone-1']);

    // More than ABUSE_LIMITS.votesListed: the newest ones, truncated.
    await votesFrom(
      poll,
      Array.from({ length: ABUSE_LIMITS.votesListed }, () => ({ userId: bea.id, device: 'farm' })),
    );
    const many = (await app.inject({ method: 'GET', url: `/api/admin/abuse/votes?userId=${bea.id}`, headers })).json<AbuseVoteList>();
    expect(many.items).toHaveLength(ABUSE_LIMITS.votesListed);
    expect(many.truncated).toBe(true);
  });

  it('refuses a void without a reason of 3 characters (trimmed) and moves nothing', async () => {
    const { headers } = await adminHeaders();
    const poll = await buildPoll(db());
    const [vote] = await votesFrom(poll, [{ userId: (await buildUser(db())).id, device: 'x' }]);
    for (const reason of ['', '  ab  ']) {
      const res = await post('/api/admin/abuse/votes/void', headers, { voteIds: [String(vote!.id)], reason });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(ABUSE_MESSAGES.voidReasonRequired);
    }
    expect((await post('/api/admin/abuse/votes/void', headers, { voteIds: [String(vote!.id)], reason: 'x'.repeat(501) })).statusCode).toBe(400);
    expect((await post('/api/admin/abuse/votes/void', headers, { voteIds: [], reason: 'duplicado' })).statusCode).toBe(400);
    expect((await results(poll.poll.id)).totalVotes).toBe(1);
  });

  it('void moves the votes out of the results and the live totals (viewers get the corrected snapshot); restore brings them back', async () => {
    const { admin, headers } = await adminHeaders();
    const poll = await buildPoll(db(), { options: 2 });
    const [ana, bea, carla] = [await buildUser(db()), await buildUser(db()), await buildUser(db())];
    const rows = await votesFrom(poll, [
      { userId: ana.id, device: 'farm', option: 0 },
      { userId: bea.id, device: 'farm', option: 0 },
      { userId: carla.id, device: 'own', option: 1 },
    ]);
    const before = await results(poll.poll.id);
    expect(before).toMatchObject({ totalVotes: 3, totalVoters: 3, voidedVotes: 0 });

    const viewer = await openWs(wsUrl);
    viewer.send({ type: 'subscribe', topic: `poll:${poll.poll.id}` });
    const first = await viewer.waitFor<ResultsSnapshot>((m) => m.type === 'results');
    expect(first.totalVotes).toBe(3);

    const farmIds = [String(rows[0]!.id), String(rows[1]!.id)];
    const voided = await post('/api/admin/abuse/votes/void', headers, { voteIds: [...farmIds, '999999'], reason: 'Granja de cuentas' });
    expect(voided.statusCode, voided.body).toBe(200);
    expect(voided.json<VoidResult>()).toEqual({ changed: 2, skipped: 1, pollIds: [poll.poll.id] });

    const corrected = await viewer.waitFor<ResultsSnapshot>((m) => m.type === 'results' && m.totalVotes === 1, { timeoutMs: 6000 });
    expect(corrected.totalVoters).toBe(1);
    expect(corrected.options.find((o) => o.optionId === poll.options[0]!.id)?.totalVotes ?? 0).toBe(0);
    expect(corrected.seq).toBeGreaterThan(first.seq);

    const after = await results(poll.poll.id);
    expect(after).toMatchObject({ totalVotes: 1, totalVoters: 1, voidedVotes: 2 });
    expect(after.options.map((o) => o.totalVotes)).toEqual([0, 1]);
    const home = (await app.inject({ method: 'GET', url: `/api/polls/home?encuesta=${poll.poll.id}` })).json<{ results: PollResults }>();
    expect(home.results).toMatchObject({ totalVotes: 1, voidedVotes: 2 });
    // The stored counters and tallies follow (triggers on votes).
    const [counts] = await db().execute<{ votes: number }>(
      sql`SELECT coalesce(sum(votes), 0)::int AS votes FROM poll_vote_counts WHERE poll_id = ${poll.poll.id}`,
    );
    expect(counts!.votes).toBe(1);
    expect(await db().select().from(schema.voteTallies).where(eq(schema.voteTallies.userId, ana.id))).toEqual([]);
    const kept = await db().select().from(schema.voidedVotes).where(eq(schema.voidedVotes.pollId, poll.poll.id));
    expect(kept.map((v) => [String(v.id), v.voidedBy, v.voidReason]).sort()).toEqual(farmIds.map((id) => [id, admin.id, 'Granja de cuentas']).sort());
    const [audit] = await db().execute<{ action: string; after: { voteIds: string[]; reason: string } }>(
      sql`SELECT action, after FROM admin_audit_log WHERE action = 'votes.void'`,
    );
    expect(audit!.after).toMatchObject({ reason: 'Granja de cuentas' });
    expect([...audit!.after.voteIds].sort()).toEqual([...farmIds].sort());
    // The live totals agree with PostgreSQL.
    expect(await app.pollsLive.store.compare(poll.poll.id)).toBe('ok');

    // Voiding again changes nothing.
    expect((await post('/api/admin/abuse/votes/void', headers, { voteIds: farmIds, reason: 'otra vez' })).json<VoidResult>()).toMatchObject({
      changed: 0,
      skipped: 2,
    });

    const restored = await post('/api/admin/abuse/votes/restore', headers, { voteIds: farmIds });
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json<VoidResult>()).toEqual({ changed: 2, skipped: 0, pollIds: [poll.poll.id] });
    const back = await viewer.waitFor<ResultsSnapshot>((m) => m.type === 'results' && m.totalVotes === 3, { timeoutMs: 6000 });
    expect(back.totalVoters).toBe(3);
    expect(await results(poll.poll.id)).toMatchObject({ totalVotes: 3, totalVoters: 3, voidedVotes: 0 });
    // Same ids and times as before.
    const again = await db().select().from(schema.votes).where(eq(schema.votes.pollId, poll.poll.id));
    expect(again.map((v) => [v.id, v.createdAt.getTime()]).sort()).toEqual(rows.map((v) => [v.id, v.createdAt.getTime()]).sort());
    expect(await app.pollsLive.store.compare(poll.poll.id)).toBe('ok');
    await viewer.close();
  });

  it('restore skips a vote the user replaced since (single choice) or that would exceed the maximum points', async () => {
    const { headers } = await adminHeaders();
    const single = await buildPoll(db(), { options: 2 });
    const points = await buildPoll(db(), { options: 2, maxPointsPerUser: 5 });
    const [ana, bea] = [await buildUser(db()), await buildUser(db())];
    const [anaOld, beaOld] = await votesFrom(single, [
      { userId: ana.id, device: 'd', option: 0 },
      { userId: bea.id, device: 'd', option: 0 },
    ]);
    const [p1, p2] = await votesFrom(points, [
      { userId: ana.id, device: 'd', option: 0, points: 3 },
      { userId: ana.id, device: 'd', option: 1, points: 2 },
    ]);
    const ids = [anaOld, beaOld, p1, p2].map((v) => String(v!.id));
    expect((await post('/api/admin/abuse/votes/void', headers, { voteIds: ids, reason: 'revisión' })).json<VoidResult>().changed).toBe(4);

    // Ana votes again on the single-choice poll, and spends 4 of her 5 points on the points poll.
    await votesFrom(single, [{ userId: ana.id, device: 'e', option: 1 }]);
    await votesFrom(points, [{ userId: ana.id, device: 'e', option: 1, points: 1 }]);

    const res = await post('/api/admin/abuse/votes/restore', headers, { voteIds: ids });
    expect(res.statusCode, res.body).toBe(200);
    // Bea's vote and Ana's 3 points come back (1 + 3 = 4 ≤ 5); Ana's old single vote and her 2 more points do not.
    expect(res.json<VoidResult>()).toMatchObject({ changed: 2, skipped: 2 });
    const live = await db().select({ id: schema.votes.id }).from(schema.votes);
    expect(live.map((v) => String(v.id))).toEqual(expect.arrayContaining([String(beaOld!.id), String(p1!.id)]));
    const left = await db().select({ id: schema.voidedVotes.id }).from(schema.voidedVotes);
    expect(left.map((v) => String(v.id)).sort()).toEqual([String(anaOld!.id), String(p2!.id)].sort());
    expect(await results(single.poll.id)).toMatchObject({ totalVotes: 2, voidedVotes: 1 });
    expect(await results(points.poll.id)).toMatchObject({ totalVotes: 2, totalPoints: 4, voidedVotes: 1 });
  });

  it('deleting a poll deletes its voided votes', async () => {
    const { headers } = await adminHeaders();
    const poll = await buildPoll(db());
    const [vote] = await votesFrom(poll, [{ userId: (await buildUser(db())).id, device: 'd' }]);
    await post('/api/admin/abuse/votes/void', headers, { voteIds: [String(vote!.id)], reason: 'revisión' });
    expect(await db().select().from(schema.voidedVotes)).toHaveLength(1);
    expect((await app.inject({ method: 'DELETE', url: `/api/admin/polls/${poll.poll.id}`, headers })).statusCode).toBe(204);
    expect(await db().select().from(schema.voidedVotes)).toEqual([]);
  });

  it('runs a scan in the worker on request, one at a time, its progress reaching the admins watching live', async () => {
    const { admin, headers } = await adminHeaders();
    const latestBefore = await app.inject({ method: 'GET', url: '/api/admin/abuse/scans/latest', headers });
    expect(latestBefore.json<LatestAbuseScan>()).toEqual({ scan: null });

    const poll = await buildPoll(db());
    const [ana, bea] = [await buildUser(db()), await buildUser(db())];
    await votesFrom(poll, [
      { userId: ana.id, device: 'shared-phone' },
      { userId: bea.id, device: 'shared-phone' },
    ]);

    const watcher = await openWs(wsUrl, { cookie: (await signIn(app, admin)).cookie });
    watcher.send({ type: 'subscribe', topic: 'admin' });
    await watcher.waitFor((m) => m.type === 'admin-dashboard');

    // Hold the worker back until both requests are in: the second answers the queued one.
    await worker.workers.find((w) => w.name === 'maintenance')!.pause();
    const started = await post('/api/admin/abuse/scans', headers);
    expect(started.statusCode, started.body).toBe(202);
    const scan = started.json<AbuseScanView>();
    expect(scan).toMatchObject({ status: 'queued', progress: 0, devices: [], users: [], finishedAt: null });
    const twice = await post('/api/admin/abuse/scans', headers);
    expect(twice.statusCode).toBe(202);
    expect(twice.json<AbuseScanView>().id).toBe(scan.id);
    worker.workers.find((w) => w.name === 'maintenance')!.resume();

    const done = await watcher.waitFor<AbuseScanMessage>((m) => m.type === 'abuse-scan' && m.status === 'done', { timeoutMs: 15_000 });
    expect(done).toEqual({ type: 'abuse-scan', topic: 'admin', scanId: scan.id, status: 'done', progress: 100 });
    const progress = watcher.ofType('abuse-scan').map((m) => m.progress);
    expect(progress.length).toBeGreaterThanOrEqual(3);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));

    const latest = (await app.inject({ method: 'GET', url: '/api/admin/abuse/scans/latest', headers })).json<LatestAbuseScan>();
    expect(latest.scan).toMatchObject({ id: scan.id, status: 'done', progress: 100, flaggedDevices: 1, flaggedUsers: 0, suspiciousVotes: 2 });
    expect(latest.scan!.devices[0]).toMatchObject({ fingerprint: 'shared-phone', accountCount: 2 });
    const [requested] = await db().select().from(schema.abuseScans).where(eq(schema.abuseScans.id, scan.id));
    expect(requested!.requestedBy).toBe(admin.id);

    // Done: the next request starts a new scan.
    const next = await post('/api/admin/abuse/scans', headers);
    expect(next.json<AbuseScanView>().id).not.toBe(scan.id);
    await watcher.waitFor((m) => m.type === 'abuse-scan' && m.scanId === next.json<AbuseScanView>().id && m.status === 'done', { timeoutMs: 15_000 });
    await watcher.close();
  });
});
