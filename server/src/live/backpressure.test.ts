import type { AddressInfo } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { pollTopic, type ResultsSnapshot, type VoterChange } from '@tribuna/contracts/live';
import type { Database } from '@tribuna/drizzle/client';
import { testDatabase } from '../../../test/support/db.ts';
import { testConfig } from '../../../test/support/env.ts';
import { buildPoll, buildUser } from '../../../test/support/factories.ts';
import { buildApp, type App } from '../app.ts';
import { openWs } from '../testing/wsClient.ts';
import { LiveHub, type HubSocket } from './hub.ts';
import { batch, insertVote } from '../polls/live/testing.ts';
import { testPollTopic } from './testing.ts';

const POLL = '6f1c2a4e-9b7d-4c1e-8a3f-2d5e6f7a8b9c';
const OPTION = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const silent = { warn: () => undefined, debug: () => undefined, info: () => undefined, error: () => undefined } as unknown as FastifyBaseLogger;

/** A socket whose backlog the test sets; it records every frame. */
class FakeSocket implements HubSocket {
  readyState = 1;
  bufferedAmount = 0;
  readonly frames: string[] = [];
  terminated = false;
  private readonly listeners = new Map<string, (() => void)[]>();
  send(data: Buffer | string): void {
    this.frames.push(data.toString());
  }
  ping(): void {}
  close(): void {
    this.terminate();
  }
  terminate(): void {
    this.terminated = true;
    this.readyState = 3;
    for (const listener of this.listeners.get('close') ?? []) listener();
  }
  on(event: string, listener: () => void): this {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }
  snapshots(): ResultsSnapshot[] {
    return this.frames.map((f) => JSON.parse(f) as { type: string }).filter((m): m is ResultsSnapshot => m.type === 'results');
  }
}

/** A hub over an in-memory "Redis": `vote()` bumps the totals and emits the event. */
function hubWithFakeTotals(settings: Partial<LiveHub['settings']> = {}, clock?: () => number) {
  const state = { seq: 1, votes: 0, reads: 0 };
  const hub = new LiveHub({ log: silent, clock }, { snapshotsPerSecond: 50, minSnapshotGapMs: 5, owedRetryMs: 10, ...settings });
  hub.registerTopic(
    testPollTopic(async (pollId) => {
      state.reads++;
      return { type: 'results', topic: pollTopic(pollId), pollId, seq: state.seq, totalVotes: state.votes, totalPoints: state.votes, totalVoters: state.votes, options: [], committedAt: 0 };
    }),
  );
  const vote = (added: VoterChange[] = []) => {
    state.seq++;
    state.votes++;
    hub.changed(pollTopic(POLL), { added, removed: [], seq: state.seq });
  };
  return { hub, state, vote };
}

/**
 * A hub on a virtual clock whose viewers' sends "take" `costMs` each (those `costs` picks), and
 * its viewers, all subscribed and holding their first snapshot.
 */
async function hubWithCostlySends(settings: Partial<LiveHub['settings']>, costMs: number, costs: (data: Buffer | string) => boolean) {
  let virtualMs = 0;
  const fake = hubWithFakeTotals(settings, () => virtualMs);
  const sockets = Array.from({ length: 10 }, () => {
    const socket = new FakeSocket();
    const send = socket.send.bind(socket);
    socket.send = (data) => {
      if (costs(data)) virtualMs += costMs;
      send(data);
    };
    return socket;
  });
  for (const socket of sockets) await fake.hub.subscribe(fake.hub.attach(socket, null), pollTopic(POLL));
  await vi.waitFor(() => expect(sockets.every((s) => s.snapshots().length === 1)).toBe(true));
  return { ...fake, sockets };
}

/**
 * Runs the same flood with sends costing 4 ms and costing nothing: paced by their cost, the costly
 * run sends between `min` and `max` messages, and the free one more than twice as many.
 */
async function expectPacedByCost(flood: (costMs: number) => Promise<number>, min: number, max: number) {
  const costly = await flood(4);
  const free = await flood(0);
  expect(costly).toBeGreaterThanOrEqual(min);
  expect(costly).toBeLessThanOrEqual(max);
  expect(free).toBeGreaterThan(2 * costly);
}

describe('live hub backpressure (fake sockets)', () => {
  let hub: LiveHub | null = null;
  afterEach(() => hub?.close());

  it('a slow socket skips intermediate snapshots, queues nothing, and gets the newest once it drains', async () => {
    const fake = hubWithFakeTotals();
    hub = fake.hub;
    const fast = new FakeSocket();
    const slow = new FakeSocket();
    for (const socket of [fast, slow]) await hub.subscribe(hub.attach(socket, null), pollTopic(POLL));
    await vi.waitFor(() => expect(slow.snapshots()).toHaveLength(1));

    // Backed up, though not past maxBufferedBytes (which would get it terminated).
    slow.bufferedAmount = hub.settings.highWaterBytes + 1;
    for (let i = 0; i < 10; i++) {
      fake.vote();
      await sleep(25);
    }
    await vi.waitFor(() => expect(fast.snapshots().at(-1)?.seq).toBe(fake.state.seq));
    expect(fast.snapshots().length).toBeGreaterThan(3);
    // Nothing was handed to the slow socket while it was backed up.
    expect(slow.frames).toHaveLength(1);
    expect(hub.stats().owing).toBe(1);
    expect(hub.stats().snapshotsDeferred).toBeGreaterThan(0);

    slow.bufferedAmount = 0;
    await vi.waitFor(() => expect(slow.snapshots().at(-1)?.seq).toBe(fake.state.seq));
    // Exactly one catch-up frame: the newest snapshot, not the backlog.
    expect(slow.snapshots()).toHaveLength(2);
    expect(slow.snapshots()[1]).toMatchObject({ totalVotes: 10 });
    expect(hub.stats().owing).toBe(0);
  });

  it('reads the totals a few times per second however many events arrive, the first at once', async () => {
    const fake = hubWithFakeTotals({ snapshotsPerSecond: 10 });
    hub = fake.hub;
    const sockets = Array.from({ length: 50 }, () => new FakeSocket());
    for (const socket of sockets) await hub.subscribe(hub.attach(socket, null), pollTopic(POLL));
    await vi.waitFor(() => expect(sockets.every((s) => s.snapshots().length === 1)).toBe(true));
    await sleep(120);
    const reads = fake.state.reads;

    const started = Date.now();
    fake.vote();
    await vi.waitFor(() => expect(sockets[0]!.snapshots()).toHaveLength(2), { interval: 2 });
    expect(Date.now() - started).toBeLessThan(50); // leading edge after a quiet spell
    for (let i = 0; i < 300; i++) fake.vote();
    await vi.waitFor(() => expect(sockets[0]!.snapshots().at(-1)?.seq).toBe(fake.state.seq));
    expect(fake.state.reads - reads).toBeLessThanOrEqual(3);
    // Every socket got the very same payload.
    expect(new Set(sockets.map((s) => s.frames.at(-1))).size).toBe(1);
  });

  it('under a sustained flood sends about snapshotsPerSecond, and delays a steady jittery stream by nothing', async () => {
    const fake = hubWithFakeTotals({ snapshotsPerSecond: 10, snapshotBurst: 3 });
    hub = fake.hub;
    const socket = new FakeSocket();
    await hub.subscribe(hub.attach(socket, null), pollTopic(POLL));
    await vi.waitFor(() => expect(socket.snapshots()).toHaveLength(1));
    await sleep(400); // the budget refills

    // 500 events over one second: about burst + rate snapshots, the last with the final totals.
    const before = socket.snapshots().length;
    for (let i = 0; i < 100; i++) {
      for (let k = 0; k < 5; k++) fake.vote();
      await sleep(10);
    }
    await vi.waitFor(() => expect(socket.snapshots().at(-1)?.seq).toBe(fake.state.seq));
    const sent = socket.snapshots().length - before;
    expect(sent).toBeGreaterThanOrEqual(5);
    expect(sent).toBeLessThanOrEqual(16);
    await sleep(400);

    // A steady 10/s stream with ±40 ms jitter: each event's snapshot goes out at once.
    const lateness: number[] = [];
    for (let i = 0; i < 15; i++) {
      await sleep(100 + (i % 2 === 0 ? 40 : -40));
      const at = Date.now();
      fake.vote();
      const seq = fake.state.seq;
      await vi.waitFor(() => expect(socket.snapshots().at(-1)?.seq).toBe(seq), { interval: 1 });
      lateness.push(Date.now() - at);
    }
    expect(Math.max(...lateness)).toBeLessThan(30);
  });

  it('spaces snapshots by how long their fan-out takes, so sends never take over the process', async () => {
    // Each snapshot send "takes" 4 ms on a virtual clock: 10 viewers make a 40 ms fan-out, which at
    // a 20% share allows one snapshot per 200 ms; the same flood without that cost is sent far more often.
    const flood = async (costMs: number) => {
      const fake = await hubWithCostlySends({ snapshotsPerSecond: 50, snapshotBurst: 1, minSnapshotGapMs: 5, maxFanoutShare: 0.2 }, costMs, () => true);
      const { sockets } = fake;
      try {
        await sleep(250);
        const before = sockets[0]!.snapshots().length;
        for (let i = 0; i < 100; i++) {
          fake.vote();
          await sleep(10);
        }
        await vi.waitFor(() => expect(sockets.every((s) => s.snapshots().at(-1)?.seq === fake.state.seq)).toBe(true));
        return sockets[0]!.snapshots().length - before;
      } finally {
        fake.hub.close();
      }
    };
    await expectPacedByCost(flood, 3, 9);
  });

  it('paces voters messages by their fan-out cost too', async () => {
    const flood = async (costMs: number) => {
      const fake = await hubWithCostlySends({ votersEveryMs: 50, maxFanoutShare: 0.2 }, costMs, (data) => String(data).includes('"voters"'));
      try {
        for (let i = 0; i < 100; i++) {
          fake.vote([{ optionId: OPTION, userId: `user-${i}`, displayName: `Fan ${i}`, avatarUrl: null, points: 1 }]);
          await sleep(10);
        }
        await sleep(300);
        return fake.sockets[0]!.frames.filter((f) => f.includes('"type":"voters"')).length;
      } finally {
        fake.hub.close();
      }
    };
    await expectPacedByCost(flood, 2, 8);
  });

  it('terminates sockets that stop answering pings', async () => {
    const fake = hubWithFakeTotals({ keepAliveMs: 20 });
    hub = fake.hub;
    const socket = new FakeSocket();
    await hub.subscribe(hub.attach(socket, null), pollTopic(POLL));
    await vi.waitFor(() => expect(socket.terminated).toBe(true));
    expect(hub.stats()).toMatchObject({ connections: 0, subscriptions: 0, topics: 0 });
  });
});

describe('a slow viewer on a real socket', () => {
  let app: App;
  let database: Database;

  beforeAll(async () => {
    database = testDatabase();
    app = await buildApp(testConfig());
    await app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('a viewer that stops reading still ends with the final totals once it reads again', async () => {
    const db = database.db;
    const { poll, options } = await buildPoll(db, { options: 2 });
    const users = await Promise.all(Array.from({ length: 5 }, () => buildUser(db)));
    const url = `ws://127.0.0.1:${(app.server.address() as AddressInfo).port}/ws`;
    const slow = await openWs(url);
    const fast = await openWs(url);
    for (const client of [slow, fast]) {
      client.send({ type: 'subscribe', topic: `poll:${poll.id}` });
      await client.waitFor((m) => m.type === 'results');
    }

    // Big voter changes on every tick fill the kernel buffers quickly; then the hub must stop queueing.
    // (The backlog may pass the default maxBufferedBytes with such messages: see abuse.test.ts.)
    Object.assign(app.live.hub.settings, { votersEveryMs: 0, maxVotersPerMessage: 50, maxBufferedBytes: 256 * 1024 * 1024 });
    slow.tcp().pause();
    const bigName = 'x'.repeat(200_000);
    for (let i = 0; i < 60; i++) {
      const change = await insertVote(db, poll.id, options[i % 2]!.id, users[i % 5]!);
      await app.pollsLive.store.recordVotes(batch(poll.id, [{ ...change, displayName: bigName }]));
      if (i % 10 === 9) await sleep(120);
    }
    const finalSeq = (await app.pollsLive.store.readSnapshot(poll.id)).seq;
    await fast.waitFor((m) => m.type === 'results' && m.seq === finalSeq, { timeoutMs: 10_000 });
    // The hub noticed the backlog: it skipped snapshots for this socket, which now owes the newest.
    await vi.waitFor(() => expect(app.live.stats()).toMatchObject({ owing: 1, snapshotsDeferred: expect.any(Number) }), { timeout: 5000 });
    expect(app.live.stats().snapshotsDeferred).toBeGreaterThan(0);

    slow.tcp().resume();
    const last = await slow.waitFor<ResultsSnapshot>((m) => m.type === 'results' && m.seq === finalSeq, { timeoutMs: 15_000 });
    expect(last).toMatchObject({ totalVotes: 60, totalVoters: 5 });
    const received = slow.ofType('results');
    for (let k = 1; k < received.length; k++) expect(received[k]!.seq).toBeGreaterThan(received[k - 1]!.seq);
    await slow.close();
    await fast.close();
  });
});
