import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LiveErrorMessage, PollStatusMessage, ResultsSnapshot, VoterChange, VotersMessage } from '@tribuna/contracts/live';
import { LIVE_MAX_SUBSCRIPTIONS_PER_SOCKET, liveKeys } from '@tribuna/contracts/live';
import { BUS_ORIGINS, busChannel, encodeBusMessage } from '@tribuna/contracts/events';
import { schema } from '@tribuna/drizzle';
import type { Database } from '@tribuna/drizzle/client';
import { testDatabase } from '../../../test/support/db.ts';
import { testConfig } from '../../../test/support/env.ts';
import { buildPoll, buildUser } from '../../../test/support/factories.ts';
import { buildApp, type App } from '../app.ts';
import { asUser, signIn } from '../../../test/support/server/sessions.ts';
import { openWs, type WsTestClient } from '../../../test/support/server/wsClient.ts';
import { batch, insertVote } from '../../../test/support/server/pollLive.ts';

const config = testConfig();
const prefix = config.redisPrefix;
const isResults = (pollId: string) => (m: { type: string; pollId?: string }) => m.type === 'results' && m.pollId === pollId;
/** A change as a voters message names it: without the points (voterPrivacy.test.ts). */
const listed = ({ points: _points, ...voter }: VoterChange) => voter;

/** Two server instances sharing one Redis prefix and one database, as behind a load balancer. */
describe('live fan-out across server instances', () => {
  let a: App;
  let b: App;
  let database: Database;
  let publisher: Redis;
  const clients: WsTestClient[] = [];

  const wsUrl = (app: App) => `ws://127.0.0.1:${(app.server.address() as AddressInfo).port}/ws`;
  const connect = async (app: App, headers?: Record<string, string>) => {
    const client = await openWs(wsUrl(app), headers);
    clients.push(client);
    return client;
  };
  // What the worker publishes: an event heard by every instance.
  const publishAsWorker = (day: string) => publisher.publish(busChannel(prefix), encodeBusMessage('points.reset', { day }, BUS_ORIGINS.worker));

  beforeAll(async () => {
    database = testDatabase();
    a = await buildApp(config);
    b = await buildApp(config);
    await a.listen({ host: '127.0.0.1', port: 0 });
    await b.listen({ host: '127.0.0.1', port: 0 });
    publisher = new Redis(config.redisUrl);
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await a.close();
    await b.close();
    publisher.disconnect();
    await database.close();
  });

  it('a vote recorded on instance A reaches a websocket client of instance B: snapshot and voters', async () => {
    const db = database.db;
    const { poll, options } = await buildPoll(db, { options: 2 });
    const ana = await buildUser(db);
    // Voters messages go to signed-in viewers only.
    const viewer = await connect(b, { cookie: (await signIn(a, await buildUser(db))).cookie });
    viewer.send({ type: 'subscribe', topic: `poll:${poll.id}` });
    const initial = await viewer.waitFor<ResultsSnapshot>(isResults(poll.id));
    expect(initial).toMatchObject({ totalVotes: 0, totalVoters: 0 });
    expect(initial.options.map((o) => o.optionId)).toEqual(options.map((o) => o.id));
    expect(b.live.stats()).toMatchObject({ connections: 1, subscriptions: 1, topics: 1 });

    const change = await insertVote(db, poll.id, options[1]!.id, ana);
    const committedAt = Date.now();
    await a.pollsLive.store.recordVotes({ ...batch(poll.id, [change]), committedAt });

    const snapshot = await viewer.waitFor<ResultsSnapshot>((m) => isResults(poll.id)(m) && (m as ResultsSnapshot).totalVotes === 1);
    expect(snapshot.seq).toBeGreaterThan(initial.seq);
    expect(snapshot.committedAt).toBe(committedAt);
    expect(snapshot.totalVoters).toBe(1);
    expect(snapshot.options.find((o) => o.optionId === options[1]!.id)).toEqual({ optionId: options[1]!.id, totalVotes: 1, totalPoints: 1 });
    const voters = await viewer.waitFor<VotersMessage>((m) => m.type === 'voters' && m.pollId === poll.id);
    expect(voters.added).toEqual([listed(change)]);
    expect(voters.seq).toBe(snapshot.seq);

    // The HTTP resync source agrees and carries the seq.
    const results = (await b.inject({ method: 'GET', url: `/api/polls/${poll.id}/results` })).json<{ totalVotes: number; seq?: number }>();
    expect(results).toMatchObject({ totalVotes: 1, seq: snapshot.seq });
  });

  it('rebuilds missing totals from PostgreSQL when a viewer subscribes', async () => {
    const db = database.db;
    const { poll, options } = await buildPoll(db, { options: 2, maxPointsPerUser: 10 });
    const [ana, bea] = await Promise.all([buildUser(db), buildUser(db)]);
    await insertVote(db, poll.id, options[0]!.id, ana, 4);
    await insertVote(db, poll.id, options[1]!.id, bea, 2);
    await insertVote(db, poll.id, options[1]!.id, ana, 1);
    expect(await publisher.exists(liveKeys.totals(prefix, poll.id))).toBe(0);

    const viewer = await connect(a);
    viewer.send({ type: 'subscribe', topic: `poll:${poll.id}` });
    const snapshot = await viewer.waitFor<ResultsSnapshot>(isResults(poll.id));
    expect(snapshot).toMatchObject({ totalVotes: 3, totalPoints: 7, totalVoters: 2 });
    expect(snapshot.options).toEqual([
      { optionId: options[0]!.id, totalVotes: 1, totalPoints: 4 },
      { optionId: options[1]!.id, totalVotes: 2, totalPoints: 3 },
    ]);
    expect(await publisher.exists(liveKeys.totals(prefix, poll.id))).toBe(1);
  });

  it('a vote cast over HTTP on instance A reaches a websocket client of instance B', async () => {
    const db = database.db;
    const { poll, options } = await buildPoll(db, { options: 2 });
    const ana = await buildUser(db);
    const viewer = await connect(b, { cookie: (await signIn(a, await buildUser(db))).cookie });
    viewer.send({ type: 'subscribe', topic: `poll:${poll.id}` });
    const initial = await viewer.waitFor<ResultsSnapshot>(isResults(poll.id));

    const res = await a.inject({
      method: 'POST',
      url: `/api/polls/${poll.id}/votes`,
      headers: asUser(await signIn(a, ana)),
      payload: { optionId: options[0]!.id, deviceFingerprint: 'live-test-device' },
    });
    expect(res.statusCode, res.body).toBe(201);

    const snapshot = await viewer.waitFor<ResultsSnapshot>((m) => isResults(poll.id)(m) && (m as ResultsSnapshot).totalVotes === 1);
    expect(snapshot.seq).toBeGreaterThan(initial.seq);
    expect(snapshot.options[0]).toEqual({ optionId: options[0]!.id, totalVotes: 1, totalPoints: 1 });
    const voters = await viewer.waitFor<VotersMessage>((m) => m.type === 'voters' && m.pollId === poll.id);
    expect(voters.added).toEqual([expect.objectContaining({ optionId: options[0]!.id, userId: ana.id, displayName: ana.displayName })]);
  });

  it('coalesces a burst of 200 batches into a few snapshots ending with the final totals and the highest seq', async () => {
    const db = database.db;
    const { poll, options } = await buildPoll(db, { options: 3 });
    const users = await Promise.all(Array.from({ length: 20 }, () => buildUser(db)));
    const cookie = (await signIn(a, await buildUser(db))).cookie;
    const viewers = [await connect(b, { cookie }), await connect(a, { cookie })];
    for (const viewer of viewers) viewer.send({ type: 'subscribe', topic: `poll:${poll.id}` });
    const initial = await Promise.all(viewers.map((v) => v.waitFor<ResultsSnapshot>(isResults(poll.id))));
    const firstIndex = viewers.map((v) => v.messages.indexOf(initial[viewers.indexOf(v)]!));
    const snapshotsBefore = b.live.stats().snapshots;

    const changes: VoterChange[] = [];
    for (let i = 0; i < 200; i++) changes.push(await insertVote(db, poll.id, options[i % 3]!.id, users[i % 20]!));
    // The pacing's bounds grow with the time the burst takes to go through: a slow machine spreads
    // the same 200 batches over more of the budget (snapshotsPerSecond, changesEveryMs: the poll topic's pacing).
    const { snapshotsPerSecond, snapshotBurst, changesEveryMs, maxChangesPerMessage } = b.live.hub.pacingOf('poll');
    const floodStart = Date.now();
    const snapshotBudget = () => snapshotBurst + Math.ceil(((Date.now() - floodStart) * snapshotsPerSecond) / 1000);
    const votersBudget = () => 1 + Math.ceil((Date.now() - floodStart) / changesEveryMs);
    await Promise.all(changes.map((change) => a.pollsLive.store.recordVotes(batch(poll.id, [change]))));
    const finalSeq = Number(await publisher.hget(liveKeys.totals(prefix, poll.id), 'seq'));

    for (const [i, viewer] of viewers.entries()) {
      const last = await viewer.waitFor<ResultsSnapshot>((m) => isResults(poll.id)(m) && (m as ResultsSnapshot).seq === finalSeq, {
        from: firstIndex[i]!,
      });
      expect(last).toMatchObject({ totalVotes: 200, totalPoints: 200, totalVoters: 20 });
      expect(last.options.map((o) => o.totalVotes)).toEqual([67, 67, 66]);
      const received = viewer.ofType('results').filter((m) => m.pollId === poll.id);
      const afterInitial = received.slice(1);
      expect(afterInitial.length).toBeGreaterThan(0);
      expect(afterInitial.length).toBeLessThan(changes.length / 4);
      expect(afterInitial.length).toBeLessThanOrEqual(snapshotBudget());
      for (let k = 1; k < received.length; k++) expect(received[k]!.seq).toBeGreaterThan(received[k - 1]!.seq);
      expect(received.at(-1)!.seq).toBe(finalSeq);
      // Voter changes are merged too, at a slower cadence, keeping the newest ones.
      const votersMessages = () => viewer.ofType('voters').filter((m) => m.pollId === poll.id);
      await vi.waitFor(() => expect(votersMessages().at(-1)?.added.at(-1)).toEqual(listed(changes.at(-1)!)), { timeout: 3000 });
      expect(votersMessages().length).toBeLessThanOrEqual(votersBudget());
      for (const message of votersMessages()) expect(message.added.length).toBeLessThanOrEqual(maxChangesPerMessage);
    }
    expect(b.live.stats().snapshots - snapshotsBefore).toBeLessThanOrEqual(snapshotBudget());
  });

  it('sends poll-status to the poll subscribers and points-reset to every socket', async () => {
    const db = database.db;
    const { poll } = await buildPoll(db);
    const { poll: other } = await buildPoll(db);
    const watcher = await connect(b);
    const bystander = await connect(a);
    watcher.send({ type: 'subscribe', topic: `poll:${poll.id}` });
    bystander.send({ type: 'subscribe', topic: `poll:${other.id}` });
    await watcher.waitFor(isResults(poll.id));
    await bystander.waitFor(isResults(other.id));

    // Published on A, heard on B through the event bus.
    await a.events.publish('poll.changed', { pollId: poll.id, status: 'closed', isFeatured: true });
    const status = await watcher.waitFor<PollStatusMessage>((m) => m.type === 'poll-status');
    expect(status).toEqual({ type: 'poll-status', topic: `poll:${poll.id}`, pollId: poll.id, status: 'closed', isFeatured: true });

    await b.events.publish('poll.changed', { pollId: poll.id, status: 'active', isFeatured: false });
    await watcher.waitFor((m) => m.type === 'poll-status' && m.status === 'active');

    await publishAsWorker('2025-06-01');
    for (const client of [watcher, bystander]) {
      expect(await client.waitFor((m) => m.type === 'points-reset')).toEqual({ type: 'points-reset', day: '2025-06-01' });
    }
    expect(bystander.ofType('poll-status')).toEqual([]);
  });

  it('refuses bad subscriptions with an error message and keeps the socket open', async () => {
    const db = database.db;
    const { poll: draft } = await buildPoll(db, { status: 'draft' });
    const client = await connect(b);
    client.send({ type: 'subscribe', topic: `poll:${'not-a-uuid'}` });
    expect(await client.waitFor((m) => m.type === 'error')).toEqual({ type: 'error', code: 'invalid-message', topic: 'poll:not-a-uuid' });
    client.send({ type: 'subscribe', topic: `poll:${'00000000-0000-4000-8000-000000000000'}` });
    expect(await client.waitFor((m) => m.type === 'error' && m.code === 'not-found')).toMatchObject({
      topic: 'poll:00000000-0000-4000-8000-000000000000',
    });
    client.send({ type: 'subscribe', topic: `poll:${draft.id}` });
    await client.waitFor((m) => m.type === 'error' && m.code === 'not-found' && m.topic === `poll:${draft.id}`);
    client.send({ type: 'subscribe' });
    client.send({ type: 'who-knows' });
    client.send('[1,2');
    client.send(JSON.stringify(null));
    client.send({ type: 'ping' });
    await client.waitFor((m) => m.type === 'pong');

    const polls = await Promise.all(Array.from({ length: LIVE_MAX_SUBSCRIPTIONS_PER_SOCKET + 1 }, () => buildPoll(db)));
    for (const { poll } of polls) client.send({ type: 'subscribe', topic: `poll:${poll.id}` });
    const tooMany = await client.waitFor<LiveErrorMessage>((m) => m.type === 'error' && m.code === 'too-many-subscriptions');
    expect(polls.map((p) => `poll:${p.poll.id}`)).toContain(tooMany.topic);
    for (const { poll } of polls) if (`poll:${poll.id}` !== tooMany.topic) await client.waitFor(isResults(poll.id));
    expect(client.socket.readyState).toBe(client.socket.OPEN);
  });

  it('stops sending a poll after unsubscribe and forgets the socket when it closes', async () => {
    const db = database.db;
    const { poll, options } = await buildPoll(db);
    const ana = await buildUser(db);
    const client = await connect(b);
    client.send({ type: 'subscribe', topic: `poll:${poll.id}` });
    await client.waitFor(isResults(poll.id));
    client.send({ type: 'unsubscribe', topic: `poll:${poll.id}` });
    client.send({ type: 'ping' });
    await client.waitFor((m) => m.type === 'pong');
    const count = client.messages.length;
    await a.pollsLive.store.recordVotes(batch(poll.id, [await insertVote(db, poll.id, options[0]!.id, ana)]));
    await new Promise((r) => setTimeout(r, 300));
    expect(client.messages.slice(count).filter((m) => m.type === 'results' || m.type === 'voters')).toEqual([]);

    const before = b.live.stats().connections;
    await client.close();
    await vi.waitFor(() => expect(b.live.stats().connections).toBe(before - 1));
  });

  it('never sends results of a poll whose results are hidden, but does send its status', async () => {
    const db = database.db;
    const { poll, options } = await buildPoll(db);
    await db.update(schema.polls).set({ showResults: false }).where(eq(schema.polls.id, poll.id));
    const ana = await buildUser(db);
    const client = await connect(b);
    const subscribed = b.live.stats().subscriptions;
    client.send({ type: 'subscribe', topic: `poll:${poll.id}` });
    await vi.waitFor(() => expect(b.live.stats().subscriptions).toBe(subscribed + 1));
    await a.pollsLive.store.recordVotes(batch(poll.id, [await insertVote(db, poll.id, options[0]!.id, ana)]));
    await a.events.publish('poll.changed', { pollId: poll.id, status: 'closed', isFeatured: false });
    await client.waitFor((m) => m.type === 'poll-status');
    expect(client.messages.filter((m) => m.type === 'results' || m.type === 'voters')).toEqual([]);
  });

  it('still refuses a websocket from a foreign Origin, and reports the signed-in user in hello', async () => {
    await expect(openWs(wsUrl(b), { origin: 'https://evil.example' })).rejects.toThrow(/403/);
    const own = await connect(b, { origin: config.publicUrl });
    expect(own.messages[0]).toMatchObject({ type: 'hello', userId: null });
  });
});
