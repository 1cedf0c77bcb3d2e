import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PollVotesEvent, ResultsSnapshot } from '@tribuna/contracts/live';
import { liveKeys } from '@tribuna/contracts/live';
import { busChannel, type BusEnvelope } from '@tribuna/contracts/events';
import type { PollResults } from '@tribuna/contracts/api/polls';
import type { Database } from '@tribuna/drizzle/client';
import { testDatabase } from '../../../../test/support/db.ts';
import { testConfig } from '../../../../test/support/env.ts';
import { buildPoll, buildUser } from '../../../../test/support/factories.ts';
import { buildApp, type App } from '../../app.ts';
import { TcpProxy } from '../../../../test/support/server/tcpProxy.ts';
import { openWs } from '../../../../test/support/server/wsClient.ts';
import { defineLiveCommands } from './scripts.ts';
import { batch, insertVote, moveVote, type TestVoter } from '../../../../test/support/server/pollLive.ts';

const config = testConfig();
const prefix = config.redisPrefix;

describe('live totals in Redis', () => {
  let app: App;
  let database: Database;
  let redis: Redis;
  let events: PollVotesEvent[];
  let listener: Redis;

  beforeAll(async () => {
    database = testDatabase();
    app = await buildApp(config);
    redis = new Redis(config.redisUrl);
    listener = new Redis(config.redisUrl);
    events = [];
    listener.on('message', (_channel: string, message: string) => {
      const envelope = JSON.parse(message) as BusEnvelope;
      if (envelope.name === 'poll.votes') events.push(envelope.payload as PollVotesEvent);
    });
    await listener.subscribe(busChannel(prefix));
  });
  afterAll(async () => {
    await app.close();
    redis.disconnect();
    listener.disconnect();
    await database.close();
  });

  const totalsOf = (pollId: string) => redis.hgetall(liveKeys.totals(prefix, pollId));
  const votersOf = (pollId: string) => redis.hlen(liveKeys.voters(prefix, pollId));
  const httpResults = async (pollId: string) => (await app.inject({ method: 'GET', url: `/api/polls/${pollId}/results` })).json<PollResults>();
  const waitForEvent = async (match: (e: PollVotesEvent) => boolean) => {
    await vi.waitFor(() => expect(events.some(match)).toBe(true), { timeout: 3000 });
    return events.find(match)!;
  };

  it('applies a batch in one round trip: adds, a single-choice move, distinct voters, seq and the votes event', async () => {
    const db = database.db;
    const { poll, options } = await buildPoll(db, { options: 2 });
    const [a, b] = options as [(typeof options)[0], (typeof options)[0]];
    const ana: TestVoter = await buildUser(db);
    const bea: TestVoter = await buildUser(db);

    const empty = await app.pollsLive.store.readSnapshot(poll.id);
    expect(empty.totalVotes).toBe(0);
    expect(empty.options.map((o) => o.optionId)).toEqual([a.id, b.id]);

    // Warm the script cache, then count what one batch sends to Redis.
    await app.pollsLive.store.recordVotes(batch(poll.id, [await insertVote(db, poll.id, a.id, ana)]));
    const sendCommand = vi.spyOn(app.redis, 'sendCommand');
    const committedAt = Date.now() + 5;
    await app.pollsLive.store.recordVotes({ ...batch(poll.id, [await insertVote(db, poll.id, a.id, bea)]), committedAt });
    expect(sendCommand).toHaveBeenCalledTimes(1);
    sendCommand.mockRestore();

    let totals = await totalsOf(poll.id);
    expect(totals[`v:${a.id}`]).toBe('2');
    expect(totals[`p:${a.id}`]).toBe('2');
    expect(totals.tv).toBe('2');
    expect(totals.tp).toBe('2');
    expect(totals.at).toBe(String(committedAt));
    expect(Number(totals.seq)).toBe(empty.seq + 2);
    expect(await votersOf(poll.id)).toBe(2);

    // Ana moves her single-choice vote from a to b: one decrement, one increment, still 2 voters.
    const move = await moveVote(db, poll.id, a.id, b.id, ana);
    await app.pollsLive.store.recordVotes(move);
    totals = await totalsOf(poll.id);
    expect([totals[`v:${a.id}`], totals[`v:${b.id}`], totals.tv]).toEqual(['1', '1', '2']);
    expect(await votersOf(poll.id)).toBe(2);

    const event = await waitForEvent((e) => e.pollId === poll.id && e.seq === empty.seq + 3);
    expect(event).toMatchObject({
      added: [{ optionId: b.id, userId: ana.id, displayName: ana.displayName, points: 1 }],
      removed: [{ optionId: a.id, userId: ana.id }],
    });

    // The totals agree with PostgreSQL, and the HTTP results carry the live seq.
    const snapshot = await app.pollsLive.store.readSnapshot(poll.id);
    const results = await httpResults(poll.id);
    expect(snapshot.totalVotes).toBe(results.totalVotes);
    expect(snapshot.totalVoters).toBe(results.totalVoters);
    expect(results.seq).toBe(snapshot.seq);
    expect(await app.pollsLive.store.compare(poll.id)).toBe('ok');
  });

  it('rebuilds from PostgreSQL to the same totals as the HTTP results endpoint, with a higher seq', async () => {
    const db = database.db;
    const { poll, options } = await buildPoll(db, { options: 3, maxPointsPerUser: 10 });
    const users = await Promise.all([0, 1, 2, 3].map(() => buildUser(db)));
    await insertVote(db, poll.id, options[0]!.id, users[0]!, 3);
    await insertVote(db, poll.id, options[1]!.id, users[0]!, 2);
    await insertVote(db, poll.id, options[1]!.id, users[1]!, 5);
    await insertVote(db, poll.id, options[2]!.id, users[2]!, 1);
    await insertVote(db, poll.id, options[2]!.id, users[3]!, 4);

    const first = await app.pollsLive.store.readSnapshot(poll.id); // missing: rebuilt
    await redis.del(liveKeys.totals(prefix, poll.id), liveKeys.voters(prefix, poll.id)); // a flush
    expect(await app.pollsLive.rebuild(poll.id)).toBe('rebuilt');
    const snapshot = await app.pollsLive.store.readSnapshot(poll.id);
    expect(snapshot.seq).toBeGreaterThan(first.seq);

    const results = await httpResults(poll.id);
    const fromHttp = {
      totalVotes: results.totalVotes,
      totalPoints: results.totalPoints,
      totalVoters: results.totalVoters,
      options: results.options.map(({ optionId, totalVotes, totalPoints }) => ({ optionId, totalVotes, totalPoints })),
    };
    const { totalVotes, totalPoints, totalVoters, options: live } = snapshot;
    expect({ totalVotes, totalPoints, totalVoters, options: live }).toEqual(fromHttp);
    expect(fromHttp).toMatchObject({ totalVotes: 5, totalPoints: 15, totalVoters: 4 });
  });

  it('keeps batches recorded while a rebuild reads PostgreSQL (deltas are added to its rows)', async () => {
    const db = database.db;
    const { poll, options } = await buildPoll(db, { options: 2 });
    const [ana, bea] = await Promise.all([buildUser(db), buildUser(db)]);
    const keys = [liveKeys.totals(prefix, poll.id), liveKeys.voters(prefix, poll.id)] as const;
    const commands = defineLiveCommands(redis);

    // The rebuild begins and "reads PostgreSQL": Ana's vote is in its rows.
    expect(await commands.liveBeginRebuild(...keys, 'token-1', '0', 15_000, 60_000)).toBe(1);
    // Meanwhile Bea's batch is committed after that read and recorded: it lands as a delta.
    await app.pollsLive.store.recordVotes(batch(poll.id, [{ optionId: options[1]!.id, userId: bea.id, displayName: 'Bea', avatarUrl: null, points: 1 }]));
    // A reader sees a rebuild in progress, not partial totals.
    expect((await totalsOf(poll.id)).rb).toBe('token-1');
    // Another process asking to rebuild waits for this one.
    expect(await commands.liveBeginRebuild(...keys, 'token-2', '0', 15_000, 60_000)).toBe(-1);

    const head = '{"name":"poll.votes","origin":"live-totals","payload":{"pollId":"' + poll.id + '","committedAt":0,"added":[],"removed":[],"seq":';
    const seq = await commands.liveFinishRebuild(
      ...keys,
      'token-1',
      '1',
      60_000,
      1,
      ana.id,
      1, // voters chunk
      0,
      `${options[0]!.id},${options[1]!.id}`,
      busChannel(prefix),
      head,
      2,
      options[0]!.id,
      1,
      1,
      options[1]!.id,
      0,
      0,
    );
    expect(seq).toBeGreaterThan(0);
    const totals = await totalsOf(poll.id);
    expect(totals.rb).toBeUndefined();
    expect([totals[`v:${options[0]!.id}`], totals[`v:${options[1]!.id}`], totals.tv]).toEqual(['1', '1', '2']);
    expect(await votersOf(poll.id)).toBe(2);
    // A superseded rebuild writes nothing.
    expect(await commands.liveFinishRebuild(...keys, 'token-1', '0', 60_000, 0)).toBe(-1);
    void ana;
  });

  it('does not write partial totals when the hash is missing; the next read rebuilds them', async () => {
    const db = database.db;
    const { poll, options } = await buildPoll(db, { options: 2 });
    const ana = await buildUser(db);
    const change = await insertVote(db, poll.id, options[0]!.id, ana);
    await app.pollsLive.store.recordVotes(batch(poll.id, [change]));
    expect(await redis.exists(liveKeys.totals(prefix, poll.id))).toBe(0);
    await waitForEvent((e) => e.pollId === poll.id && e.seq === 0);

    const snapshot = await app.pollsLive.store.readSnapshot(poll.id);
    expect(snapshot.totalVotes).toBe(1);
    expect(snapshot.totalVoters).toBe(1);
  });

  it('reconcile repairs totals that drifted from PostgreSQL', async () => {
    const db = database.db;
    const { poll, options } = await buildPoll(db, { options: 2 });
    const ana = await buildUser(db);
    await app.pollsLive.store.readSnapshot(poll.id);
    await app.pollsLive.store.recordVotes(batch(poll.id, [await insertVote(db, poll.id, options[0]!.id, ana)]));
    expect(await app.pollsLive.store.reconcile(poll.id)).toBe('ok');

    await redis.hincrby(liveKeys.totals(prefix, poll.id), `v:${options[1]!.id}`, 7);
    await redis.hincrby(liveKeys.totals(prefix, poll.id), 'tv', 7);
    const before = await app.pollsLive.store.readSnapshot(poll.id);
    expect(before.totalVotes).toBe(8);
    expect(await app.pollsLive.store.reconcile(poll.id)).toBe('repaired');
    const after = await app.pollsLive.store.readSnapshot(poll.id);
    expect(after.totalVotes).toBe(1);
    expect(after.seq).toBeGreaterThan(before.seq);
  });

  it('HTTP results omit seq when the live totals are missing', async () => {
    const { poll } = await buildPoll(database.db);
    const results = await httpResults(poll.id);
    expect(results.seq).toBeUndefined();
  });
});

describe('live totals while Redis is down', () => {
  const base = testConfig();
  const redisProxy = new TcpProxy(new URL(base.redisUrl).hostname, Number(new URL(base.redisUrl).port || 6379));
  let app: App;
  let database: Database;

  beforeAll(async () => {
    database = testDatabase();
    await redisProxy.start();
    app = await buildApp(testConfig({ REDIS_URL: redisProxy.proxiedUrl(base.redisUrl) }));
    await app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await app.close();
    await redisProxy.stop();
    await database.close();
  });

  it('recordVotes rejects quickly, and the totals that missed the batch are rebuilt once Redis is back', async () => {
    const db = database.db;
    const { poll, options } = await buildPoll(db, { options: 2 });
    const [ana, bea] = await Promise.all([buildUser(db), buildUser(db)]);
    await app.pollsLive.store.recordVotes(batch(poll.id, [await insertVote(db, poll.id, options[0]!.id, ana)]));
    const before = await app.pollsLive.store.readSnapshot(poll.id);
    expect(before.totalVotes).toBe(1);

    const viewer = await openWs(`ws://127.0.0.1:${(app.server.address() as AddressInfo).port}/ws`);
    viewer.send({ type: 'subscribe', topic: `poll:${poll.id}` });
    await viewer.waitFor((m) => m.type === 'results' && m.seq === before.seq);

    await redisProxy.stop();
    await vi.waitFor(() => expect(app.redis.status).not.toBe('ready'), { timeout: 5000 });
    // The vote is committed in PostgreSQL; the live update fails fast.
    const committed = batch(poll.id, [await insertVote(db, poll.id, options[1]!.id, bea)]);
    // At once, from the client's state: not a command left to time out (commandTimeout) on a dead link.
    await expect(app.pollsLive.store.recordVotes(committed)).rejects.toThrow(/^Redis unavailable/);
    expect(app.pollsLive.stats().pendingRepairs).toBe(1);

    await redisProxy.start();
    await vi.waitFor(() => expect(app.pollsLive.stats().pendingRepairs).toBe(0), { timeout: 10_000 });
    // The viewer ends up with the totals PostgreSQL has, including the batch Redis never saw.
    const snapshot = await viewer.waitFor<ResultsSnapshot>((m) => m.type === 'results' && m.totalVotes === 2, { timeoutMs: 10_000 });
    expect(snapshot.seq).toBeGreaterThan(before.seq);
    await viewer.close();
  });
});
