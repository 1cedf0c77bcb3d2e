import type { AddressInfo } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { pollTopic, type ResultsSnapshot, type VoterChange } from '@tribuna/contracts/live';
import type { Database } from '@tribuna/drizzle/client';
import { testDatabase } from '../../../test/support/db.ts';
import { testConfig } from '../../../test/support/env.ts';
import { buildPoll, buildUser } from '../../../test/support/factories.ts';
import { buildApp, type App } from '../app.ts';
import { signIn } from '../../../test/support/server/sessions.ts';
import { openWs } from '../../../test/support/server/wsClient.ts';
import { LiveHub, type HubSocket } from './hub.ts';
import { batch, insertVote } from '../../../test/support/server/pollLive.ts';
import { testPollTopic } from '../../../test/support/server/live.ts';

const POLL = '6f1c2a4e-9b7d-4c1e-8a3f-2d5e6f7a8b9c';
const OPTION = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const silent = { warn: () => undefined, debug: () => undefined, info: () => undefined, error: () => undefined } as unknown as FastifyBaseLogger;

/** A socket whose backlog the test sets; it records every frame and when (on the test's clock) it was sent. */
class FakeSocket implements HubSocket {
  readyState = 1;
  bufferedAmount = 0;
  readonly frames: string[] = [];
  readonly sentAt: number[] = [];
  terminated = false;
  private readonly listeners = new Map<string, (() => void)[]>();
  send(data: Buffer | string): void {
    this.frames.push(data.toString());
    this.sentAt.push(Date.now());
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
  /** When each frame of `type` was sent. */
  timesOf(type: string): number[] {
    return this.sentAt.filter((_, i) => this.frames[i]!.includes(`"type":"${type}"`));
  }
}

/** Time passing on the fake clock (timers due meanwhile fire, and the promises they start settle). */
const advance = (ms: number) => vi.advanceTimersByTimeAsync(ms);
/** Gaps between consecutive times. */
const gaps = (times: number[]) => times.slice(1).map((t, i) => t - times[i]!);

/**
 * A hub over an in-memory "Redis": `vote()` bumps the totals and emits the event. `cost` is the
 * clock the hub times its fan-outs with (by default the fake performance.now: fan-outs take no time).
 */
function hubWithFakeTotals(settings: Partial<LiveHub['settings']> = {}, cost?: () => number) {
  const state = { seq: 1, votes: 0, reads: 0 };
  const hub = new LiveHub({ log: silent, clock: cost }, { snapshotsPerSecond: 50, minSnapshotGapMs: 5, owedRetryMs: 10, ...settings });
  hub.registerTopic(
    testPollTopic(async (pollId) => {
      state.reads++;
      return {
        type: 'results',
        topic: pollTopic(pollId),
        pollId,
        seq: state.seq,
        totalVotes: state.votes,
        totalPoints: state.votes,
        totalVoters: state.votes,
        options: [],
        committedAt: 0,
      };
    }),
  );
  const vote = (added: VoterChange[] = []) => {
    state.seq++;
    state.votes++;
    hub.changed(pollTopic(POLL), { added, removed: [], seq: state.seq });
  };
  return { hub, state, vote };
}

/** Viewers of POLL on `hub`, subscribed and holding their first snapshot (sent at once). */
async function viewers(hub: LiveHub, count: number): Promise<FakeSocket[]> {
  const sockets = Array.from({ length: count }, () => new FakeSocket());
  for (const socket of sockets) await hub.subscribe(hub.attach(socket, null), pollTopic(POLL));
  await advance(0);
  for (const socket of sockets) expect(socket.snapshots()).toHaveLength(1);
  return sockets;
}

/**
 * A hub whose 10 viewers' sends "take" `costMs` each (those `costs` picks) on the clock it times
 * fan-outs with, and its viewers, all subscribed and holding their first snapshot.
 */
async function hubWithCostlySends(settings: Partial<LiveHub['settings']>, costMs: number, costs: (data: Buffer | string) => boolean) {
  let spentMs = 0;
  const fake = hubWithFakeTotals(settings, () => spentMs);
  const sockets = await viewers(fake.hub, 10);
  for (const socket of sockets) {
    const send = socket.send.bind(socket);
    socket.send = (data) => {
      if (costs(data)) spentMs += costMs;
      send(data);
    };
  }
  return { ...fake, sockets };
}

/** One second of votes, one every 10 ms (with `added` voters), then `tailMs` of quiet. */
async function floodForOneSecond(vote: (added?: VoterChange[]) => void, { votersToo = false, tailMs = 0 } = {}) {
  for (let i = 0; i < 100; i++) {
    vote(votersToo ? [{ optionId: OPTION, userId: `user-${i}`, displayName: `Fan ${i}`, avatarUrl: null, points: 1 }] : []);
    await advance(10);
  }
  await advance(tailMs);
}

describe('live hub backpressure (fake sockets, fake clock)', () => {
  let hub: LiveHub | null = null;
  beforeEach(() => {
    // Pacing reads Date.now and arms setTimeout: on the fake clock every statement about time is exact.
    vi.useFakeTimers({ now: new Date('2025-06-01T20:00:00Z') });
  });
  afterEach(() => {
    hub?.close();
    hub = null;
    vi.useRealTimers();
  });

  it('hands a snapshot to many viewers a slice at a time, letting other work run between slices', async () => {
    const fake = hubWithFakeTotals();
    hub = fake.hub;
    const sockets = await viewers(hub, 5);
    hub.settings.fanoutSlice = 2;
    const order: string[] = [];
    sockets.forEach((socket, i) => {
      const send = socket.send.bind(socket);
      socket.send = (data) => {
        order.push(`viewer ${i}`);
        // Work that arrives while the first viewer is served (a request, a vote) runs before the third is.
        if (i === 0) setImmediate(() => order.push('other work'));
        send(data);
      };
    });
    fake.vote();
    await advance(1000);
    expect(order).toEqual(['viewer 0', 'viewer 1', 'other work', 'viewer 2', 'viewer 3', 'viewer 4']);
    for (const socket of sockets) expect(socket.snapshots().at(-1)!.totalVotes).toBe(1);
  });

  it('ends a slice once it has taken fanoutSliceMs, however few sockets it reached (checked every 32)', async () => {
    // Each write costs 0.1 ms on the hub's clock: 32 writes are 3.2 ms, 64 are 6.4 ms (past 4 ms).
    let now = 0;
    const fake = hubWithFakeTotals({ fanoutSlice: 1000, fanoutSliceMs: 4 }, () => now);
    hub = fake.hub;
    const sockets = await viewers(hub, 70);
    const order: string[] = [];
    sockets.forEach((socket, i) => {
      const send = socket.send.bind(socket);
      socket.send = (data) => {
        now += 0.1;
        order.push(`viewer ${i}`);
        if (i === 0) setImmediate(() => order.push('other work'));
        send(data);
      };
    });
    fake.vote();
    await advance(1000);
    expect(order.indexOf('other work')).toBe(64);
    expect(order.filter((o) => o.startsWith('viewer'))).toHaveLength(70);
    for (const socket of sockets) expect(socket.snapshots().at(-1)!.totalVotes).toBe(1);
  });

  it("holds a family to its own pacing (a post's reaction counts): a flood reaches a viewer 250 ms apart at least, the newest last", async () => {
    const state = { seq: 1 };
    hub = new LiveHub({ log: silent }, { snapshotsPerSecond: 50, minSnapshotGapMs: 5, owedRetryMs: 10 });
    hub.registerTopic({
      ...testPollTopic(async (pollId) => ({
        type: 'results',
        topic: pollTopic(pollId),
        pollId,
        seq: state.seq,
        totalVotes: state.seq,
        totalPoints: 0,
        totalVoters: 0,
        options: [],
        committedAt: 0,
      })),
      pacing: { snapshotsPerSecond: 4, snapshotBurst: 1 },
    });
    const [socket] = (await viewers(hub, 1)) as [FakeSocket];
    for (let i = 0; i < 100; i++) {
      state.seq++;
      hub.changed(pollTopic(POLL));
      await advance(10);
    }
    await advance(1000);
    const times = socket.timesOf('results');
    // The first snapshot, then at most 4 a second over the flood's second, and the trailing newest.
    expect(times.length).toBeLessThanOrEqual(1 + 4 + 1);
    expect(Math.min(...gaps(times))).toBeGreaterThanOrEqual(250);
    expect(socket.snapshots().at(-1)!.seq).toBe(state.seq);
  });

  it('a slow socket skips intermediate snapshots, queues nothing, and gets the newest once it drains', async () => {
    const fake = hubWithFakeTotals();
    hub = fake.hub;
    const [fast, slow] = (await viewers(hub, 2)) as [FakeSocket, FakeSocket];

    // Backed up, though not past maxBufferedBytes (which would get it terminated).
    slow.bufferedAmount = hub.settings.highWaterBytes + 1;
    for (let i = 0; i < 10; i++) {
      fake.vote();
      await advance(25);
    }
    // Votes 25 ms apart are within the budget (50/s): each one's snapshot went out to the fast socket.
    expect(fast.snapshots().map((s) => s.seq)).toEqual(Array.from({ length: 11 }, (_, i) => 1 + i));
    // Nothing was handed to the slow socket while it was backed up.
    expect(slow.frames).toHaveLength(1);
    expect(hub.stats()).toMatchObject({ owing: 1, snapshotsDeferred: 10 });

    slow.bufferedAmount = 0;
    await advance(hub.settings.owedRetryMs);
    // Exactly one catch-up frame: the newest snapshot, not the backlog.
    expect(slow.snapshots()).toHaveLength(2);
    expect(slow.snapshots()[1]).toMatchObject({ seq: fake.state.seq, totalVotes: 10 });
    expect(hub.stats().owing).toBe(0);
  });

  it('reads the totals a few times per second however many events arrive, the first at once', async () => {
    const fake = hubWithFakeTotals({ snapshotsPerSecond: 10 });
    hub = fake.hub;
    const sockets = await viewers(hub, 50);
    await advance(1000); // a quiet spell
    const reads = fake.state.reads;

    fake.vote();
    await advance(0);
    // Leading edge after a quiet spell: read and sent with no time passing.
    expect(fake.state.reads - reads).toBe(1);
    for (const socket of sockets) expect(socket.snapshots()).toHaveLength(2);

    // 300 events at once: one more read, sent to everyone once the minimum gap has passed.
    for (let i = 0; i < 300; i++) fake.vote();
    await advance(hub.settings.minSnapshotGapMs - 1);
    expect(sockets[0]!.snapshots()).toHaveLength(2);
    await advance(1);
    expect(sockets[0]!.snapshots().at(-1)?.seq).toBe(fake.state.seq);
    await advance(1000);
    expect(fake.state.reads - reads).toBe(2);
    expect(sockets[0]!.snapshots()).toHaveLength(3);
    // Every socket got the very same payload.
    expect(new Set(sockets.map((s) => s.frames.at(-1))).size).toBe(1);
  });

  it('under a sustained flood sends about snapshotsPerSecond, and delays a steady jittery stream by nothing', async () => {
    const fake = hubWithFakeTotals({ snapshotsPerSecond: 10, snapshotBurst: 3 });
    hub = fake.hub;
    const [socket] = (await viewers(hub, 1)) as [FakeSocket];
    await advance(400); // the budget refills

    // 500 events over one second: the burst, then one snapshot per 100 ms, the last with the final totals.
    const floodStart = Date.now();
    for (let i = 0; i < 100; i++) {
      for (let k = 0; k < 5; k++) fake.vote();
      await advance(10);
    }
    await advance(1000);
    expect(socket.snapshots().at(-1)?.seq).toBe(fake.state.seq);
    const sent = socket
      .timesOf('results')
      .map((t) => t - floodStart)
      .filter((t) => t >= 0);
    // The burst goes out as the events come (10 ms apart), then one snapshot per 100 ms: by every
    // send, no more than burst + rate × elapsed; over the second, that many.
    expect(sent.slice(0, 3)).toEqual([0, 10, 20]);
    sent.forEach((t, k) => expect(k + 1).toBeLessThanOrEqual(3 + (t * 10) / 1000));
    expect(sent.length).toBe(3 + 10);
    await advance(400);

    // A steady 10/s stream with ±40 ms jitter: each event's snapshot goes out at once.
    for (let i = 0; i < 15; i++) {
      await advance(100 + (i % 2 === 0 ? 40 : -40));
      fake.vote();
      await advance(0);
      expect(socket.snapshots().at(-1)?.seq).toBe(fake.state.seq);
    }
  });

  it('rolls: a snapshot read during a walk goes to the viewers not reached yet, the others get it on the next walk', async () => {
    // Reads allowed at once while a walk is under way; one viewer per slice once all have subscribed.
    const fake = hubWithFakeTotals({ snapshotsPerSecond: 50, snapshotBurst: 1, minSnapshotGapMs: 0 });
    hub = fake.hub;
    const sockets = await viewers(hub, 10);
    hub.settings.fanoutSlice = 1;
    await advance(100);
    // A vote lands while the walk of the first change is handing its snapshot to the third viewer.
    let voted = false;
    const send = sockets[2]!.send.bind(sockets[2]!);
    sockets[2]!.send = (data) => {
      send(data);
      if (!voted) {
        voted = true;
        fake.vote();
      }
    };
    fake.vote();
    await advance(200);
    const seqs = sockets.map((socket) => socket.snapshots().map((snapshot) => snapshot.seq));
    // The viewers reached before the newer read (0–2 at least) got the first change, then the second
    // on the next walk (within the budget: 20 ms later); those reached after it skip straight to it.
    const firstSkipping = seqs.findIndex((seq) => seq.length === 2);
    expect(firstSkipping).toBeGreaterThan(2);
    for (const seq of seqs.slice(0, firstSkipping)) expect(seq).toEqual([1, 2, 3]);
    for (const seq of seqs.slice(firstSkipping)) expect(seq).toEqual([1, 3]);
    expect(gaps(sockets[0]!.timesOf('results')).at(-1)).toBe(20);
  });

  it('hands each viewer at most one frame per walk, and walks within the snapshot budget', async () => {
    // Sends that "take" 4 ms each on the hub's clock: 10 viewers make a 40 ms walk in 4 slices.
    const fake = await hubWithCostlySends({ snapshotsPerSecond: 50, snapshotBurst: 1, minSnapshotGapMs: 5 }, 4, () => true);
    hub = fake.hub;
    await advance(250);
    const start = Date.now();
    await floodForOneSecond(fake.vote, { tailMs: 300 });
    for (const socket of fake.sockets) {
      expect(socket.snapshots().at(-1)?.seq).toBe(fake.state.seq);
      const seqs = socket.snapshots().map((snapshot) => snapshot.seq);
      // Increasing: never the same snapshot twice, never an older one after a newer.
      seqs.slice(1).forEach((seq, i) => expect(seq).toBeGreaterThan(seqs[i]!));
      const sent = socket.timesOf('results').filter((t) => t >= start);
      sent.forEach((t, k) => expect(k + 1).toBeLessThanOrEqual(1 + ((t - start) * 50) / 1000));
    }
  });

  it('paces voters messages by their fan-out cost too', async () => {
    // A voters message "takes" 4 ms per viewer: 40 ms at a 20% share, one per 200 ms instead of one per changesEveryMs.
    const flood = async (costMs: number) => {
      const fake = await hubWithCostlySends({ changesEveryMs: 50, maxFanoutShare: 0.2 }, costMs, (data) => String(data).includes('"voters"'));
      try {
        await floodForOneSecond(fake.vote, { votersToo: true, tailMs: 300 });
        return fake.sockets[0]!.timesOf('voters');
      } finally {
        fake.hub.close();
      }
    };
    const costly = await flood(4);
    const free = await flood(0);
    // Over 1.3 s: without the cost, one message per changesEveryMs; with it, the first two changesEveryMs
    // apart (no fan-out measured yet), then one per 200 ms once the 40 ms fan-out is known.
    expect(gaps(free)).toEqual(Array(20).fill(50));
    expect(gaps(costly)).toEqual([50, ...Array(5).fill(200)]);
  });

  it('terminates sockets that stop answering pings', async () => {
    const fake = hubWithFakeTotals({ keepAliveMs: 20, keepAliveSteps: 1 });
    hub = fake.hub;
    const [socket] = (await viewers(hub, 1)) as [FakeSocket];
    await advance(20); // pinged
    expect(socket.terminated).toBe(false);
    await advance(20); // no pong since
    expect(socket.terminated).toBe(true);
    expect(hub.stats()).toMatchObject({ connections: 0, subscriptions: 0, topics: 0 });
  });

  it('pings in slices like a fan-out, letting other work run between them', async () => {
    let now = 0;
    const fake = hubWithFakeTotals({ keepAliveMs: 20, keepAliveSteps: 1, fanoutSlice: 1000, fanoutSliceMs: 4 }, () => now);
    hub = fake.hub;
    const sockets = await viewers(hub, 70);
    const order: string[] = [];
    sockets.forEach((socket, i) => {
      socket.ping = () => {
        now += 0.1;
        order.push(`ping ${i}`);
        if (i === 0) setImmediate(() => order.push('other work'));
      };
    });
    await advance(25); // one pass (the next is due at 40 ms)
    expect(order.indexOf('other work')).toBe(64);
    expect(order.filter((o) => o.startsWith('ping'))).toHaveLength(70);
  });

  it('spreads the pings of a period over its steps, each socket pinged once per period', async () => {
    const fake = hubWithFakeTotals({ keepAliveMs: 30, keepAliveSteps: 3 });
    hub = fake.hub;
    const sockets = await viewers(hub, 9);
    const pingedAt: number[][] = sockets.map(() => []);
    sockets.forEach((socket, i) => {
      socket.ping = () => {
        pingedAt[i]!.push(Date.now());
        // Answered, as a live client does.
        for (const listener of (socket as unknown as { listeners: Map<string, (() => void)[]> }).listeners.get('pong') ?? []) listener();
      };
    });
    const start = Date.now();
    await advance(10);
    expect(pingedAt.filter((times) => times.length === 1)).toHaveLength(3);
    await advance(20);
    // A third of the sockets per step; after a period every socket once.
    expect(pingedAt.map((times) => times.length)).toEqual(Array(9).fill(1));
    expect(new Set(pingedAt.map((times) => times[0]! - start))).toEqual(new Set([10, 20, 30]));
    await advance(30);
    expect(pingedAt.map((times) => times.length)).toEqual(Array(9).fill(2));
    // Answered sockets stay open.
    expect(sockets.every((socket) => !socket.terminated)).toBe(true);
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
    // Signed in: the big voters messages below go to signed-in viewers only.
    const { cookie } = await signIn(app, await buildUser(db));
    const slow = await openWs(url, { cookie });
    const fast = await openWs(url, { cookie });
    for (const client of [slow, fast]) {
      client.send({ type: 'subscribe', topic: `poll:${poll.id}` });
      await client.waitFor((m) => m.type === 'results');
    }

    // Big voter changes on every tick fill the kernel buffers quickly; then the hub must stop queueing.
    // (The backlog may pass the default maxBufferedBytes with such messages: see abuse.test.ts.)
    Object.assign(app.live.hub.settings, { maxBufferedBytes: 256 * 1024 * 1024 });
    // The poll topic's pacing of its voters messages (polls/live/topic.ts): every tick, 50 changes each.
    Object.assign(app.live.hub.topics.get('poll')!.pacing!, { changesEveryMs: 0, maxChangesPerMessage: 50 });
    slow.tcp().pause();
    const bigName = 'x'.repeat(200_000);
    // Rounds of 10 votes, each round's snapshot received by the fast viewer before the next, until the
    // hub skips a snapshot for the slow one (how many rounds that takes depends on the kernel's buffers).
    let votes = 0;
    for (let round = 0; round < 50 && app.live.stats().snapshotsDeferred === 0; round++) {
      for (let k = 0; k < 10; k++, votes++) {
        const change = await insertVote(db, poll.id, options[votes % 2]!.id, users[votes % 5]!);
        await app.pollsLive.store.recordVotes(batch(poll.id, [{ ...change, displayName: bigName }]));
      }
      const seq = (await app.pollsLive.store.readSnapshot(poll.id)).seq;
      await fast.waitFor((m) => m.type === 'results' && m.seq === seq, { timeoutMs: 15_000 });
    }
    // The hub noticed the backlog: it skipped snapshots for this socket, which now owes the newest.
    expect(app.live.stats().snapshotsDeferred).toBeGreaterThan(0);
    const finalSeq = (await app.pollsLive.store.readSnapshot(poll.id)).seq;
    await fast.waitFor((m) => m.type === 'results' && m.seq === finalSeq, { timeoutMs: 15_000 });
    await vi.waitFor(() => expect(app.live.stats()).toMatchObject({ owing: 1 }), { timeout: 15_000 });

    slow.tcp().resume();
    const last = await slow.waitFor<ResultsSnapshot>((m) => m.type === 'results' && m.seq === finalSeq, { timeoutMs: 15_000 });
    expect(last).toMatchObject({ totalVotes: votes, totalVoters: 5 });
    const received = slow.ofType('results');
    for (let k = 1; k < received.length; k++) expect(received[k]!.seq).toBeGreaterThan(received[k - 1]!.seq);
    await slow.close();
    await fast.close();
  });
});
