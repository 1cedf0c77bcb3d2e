import type { Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LiveErrorMessage, ResultsSnapshot } from '@tribuna/contracts/live';
import { LIVE_CLOSE_CODES, LIVE_MAX_SUBSCRIPTIONS_PER_SOCKET, liveKeys, pollTopic } from '@tribuna/contracts/live';
import type { Database } from '@tribuna/drizzle/client';
import { testConfig } from '../../../test/support/env.ts';
import { buildPoll, buildUser } from '../../../test/support/factories.ts';
import type { App } from '../app.ts';
import { MAX_CLIENT_FRAME_BYTES } from '../plugins/websocket.ts';
import { useListeningTestApp } from '../../../test/support/server/harness.ts';
import { signIn } from '../../../test/support/server/sessions.ts';
import { connectWs, openWs, type WsClose, type WsTestClient } from '../../../test/support/server/wsClient.ts';
import { LiveHub, type HubSocket } from './hub.ts';
import { batch, insertVote } from '../../../test/support/server/pollLive.ts';
import { testPollTopic } from '../../../test/support/server/live.ts';

const PER_ADDRESS = 3;
const PER_INSTANCE = 8;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** How long a condition on the real server may take to hold (generous: the machine may be loaded). */
const eventually = { timeout: 15_000, interval: 20 };

/**
 * Websocket abuse against the real server: every frame spends the socket's budget, a socket that
 * stops reading is terminated before it can grow the server's memory, and connections are capped
 * per client address and per instance. The app trusts 127.0.0.1 as its proxy, so each test plays
 * its own fans through X-Forwarded-For.
 */
describe('websocket abuse', () => {
  let app: App;
  let database: Database;
  let baseUrl: string;
  let redis: Redis;
  const clients: WsTestClient[] = [];
  let fans = 0;
  const newFan = () => `203.0.113.${++fans}`;

  useListeningTestApp(
    { WS_MAX_CONNECTIONS_PER_ADDRESS: String(PER_ADDRESS), WS_MAX_CONNECTIONS: String(PER_INSTANCE), TRUST_PROXY: '127.0.0.1' },
    (ready) => ({ app, database, baseUrl } = ready),
  );
  beforeAll(() => {
    redis = new Redis(testConfig().redisUrl);
  });
  afterAll(() => {
    redis.disconnect();
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) {
      (client.tcp() as Socket | null)?.resume();
      await client.close();
    }
    await vi.waitFor(() => expect(app.live.stats()).toMatchObject({ sockets: 0, connections: 0, subscriptions: 0 }), eventually);
  });

  const wsUrl = () => `${baseUrl.replace(/^http/, 'ws')}/ws`;
  const attempt = async (fan: string) => {
    const outcome = await connectWs(wsUrl(), { 'x-forwarded-for': fan });
    if (!('code' in outcome)) clients.push(outcome);
    return outcome;
  };
  const open = async (fan: string, headers: Record<string, string> = {}) => {
    const client = await openWs(wsUrl(), { 'x-forwarded-for': fan, ...headers });
    clients.push(client);
    return client;
  };
  const isOpen = (outcome: WsTestClient | WsClose): outcome is WsTestClient => !('code' in outcome);
  const after = (client: WsTestClient, type: string) => client.messages.filter((m) => m.type === type);
  const budget = () => app.live.hub.settings.frameBurst;

  describe('every frame spends the budget', () => {
    // The budget does not refill here, so what a flood gets answered does not depend on how fast the
    // server reads it: exactly the burst. The refill (frameRefillPerSecond) is proven on a virtual
    // clock below ('frame budget over a long session').
    let refill: number;
    beforeEach(() => {
      refill = app.live.hub.settings.frameRefillPerSecond;
      app.live.hub.settings.frameRefillPerSecond = 0;
    });
    afterEach(() => {
      app.live.hub.settings.frameRefillPerSecond = refill;
    });

    it('a flood of pings gets at most a burst of pongs, one rate-limited error, then a policy-violation close', async () => {
      const client = await open(newFan());
      const refusedBefore = app.live.stats().framesRefused;
      for (let i = 0; i < 200; i++) client.send({ type: 'ping' });

      expect(await client.closed).toEqual({ code: LIVE_CLOSE_CODES.policyViolation, reason: 'rate limit exceeded' });
      expect(after(client, 'pong').length).toBeGreaterThan(0);
      expect(after(client, 'pong').length).toBeLessThanOrEqual(budget());
      expect(after(client, 'error')).toEqual([{ type: 'error', code: 'rate-limited' }]);
      expect(app.live.stats().framesRefused - refusedBefore).toBeGreaterThanOrEqual(app.live.hub.settings.frameOverdraft);
      await vi.waitFor(() => expect(app.live.stats()).toMatchObject({ connections: 0, sockets: 0 }), eventually);
    });

    it('so do websocket ping frames, which ws answers by itself', async () => {
      const client = await open(newFan());
      for (let i = 0; i < 200; i++) client.socket.ping();
      expect((await client.closed).code).toBe(LIVE_CLOSE_CODES.policyViolation);
      expect(after(client, 'error')).toEqual([{ type: 'error', code: 'rate-limited' }]);
    });

    it('a flood of malformed frames (not JSON, binary, unknown types) is refused the same way', async () => {
      const client = await open(newFan());
      const junk = ['not json', '[1,2', 'null', JSON.stringify({ type: 'who-knows' }), JSON.stringify({ type: 'unsubscribe' })];
      for (let i = 0; i < 200; i++) {
        if (i % 6 === 5) client.socket.send(Buffer.from([1, 2, 3]), { binary: true });
        else client.send(junk[i % junk.length]!);
      }
      expect((await client.closed).code).toBe(LIVE_CLOSE_CODES.policyViolation);
      // Junk is never answered, except for the one notice that the budget is spent.
      expect(client.messages.map((m) => m.type)).toEqual(['hello', 'error']);
      expect(after(client, 'error')).toEqual([{ type: 'error', code: 'rate-limited' }]);
    });

    it('a flood of refused subscribes (invalid id, unknown poll, too many) is refused the same way, and leaves nothing behind', async () => {
      const db = database.db;
      const fan = newFan();
      const unknown = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
      const guesser = await open(fan);
      guesser.send({ type: 'subscribe', topic: `poll:${unknown(0)}` });
      await guesser.waitFor((m) => m.type === 'error' && m.code === 'not-found');
      // Lookups of unknown polls are answered later (or never, once the socket is closed).
      for (let i = 0; i < 200; i++) guesser.send({ type: 'subscribe', topic: i % 2 === 0 ? `poll:not-a-poll-${i}` : `poll:${unknown(i)}` });

      const polls = await Promise.all(Array.from({ length: LIVE_MAX_SUBSCRIPTIONS_PER_SOCKET + 1 }, () => buildPoll(db)));
      const hoarder = await open(fan);
      for (const { poll } of polls.slice(0, LIVE_MAX_SUBSCRIPTIONS_PER_SOCKET)) hoarder.send({ type: 'subscribe', topic: `poll:${poll.id}` });
      await vi.waitFor(() => expect(app.live.stats().subscriptions).toBe(LIVE_MAX_SUBSCRIPTIONS_PER_SOCKET), eventually);
      for (let i = 0; i < 200; i++) hoarder.send({ type: 'subscribe', topic: `poll:${polls.at(-1)!.poll.id}` });

      for (const client of [guesser, hoarder]) {
        expect((await client.closed).code).toBe(LIVE_CLOSE_CODES.policyViolation);
        const errors = after(client, 'error') as LiveErrorMessage[];
        expect(errors.filter((e) => e.code === 'rate-limited')).toHaveLength(1);
        // Only what fit in the budget was looked at and answered (and the one rate-limited notice).
        expect(errors.length).toBeLessThanOrEqual(budget() + 1);
      }
      const codes = (client: WsTestClient) => new Set((after(client, 'error') as LiveErrorMessage[]).map((e) => e.code));
      expect(codes(guesser)).toContain('invalid-message');
      expect(codes(guesser)).toContain('not-found');
      expect(codes(hoarder)).toEqual(new Set(['too-many-subscriptions', 'rate-limited']));
      await vi.waitFor(() => expect(app.live.stats()).toMatchObject({ connections: 0, subscriptions: 0, topics: 0 }), eventually);
      // Unknown polls got no live totals.
      expect(await redis.exists(liveKeys.totals(testConfig().redisPrefix, unknown(1)))).toBe(0);
    });

    it('a frame larger than the limit closes the socket with 1009; one at the limit is fine', async () => {
      const client = await open(newFan());
      const ping = JSON.stringify({ type: 'ping', pad: '' });
      client.send(JSON.stringify({ type: 'ping', pad: 'x'.repeat(MAX_CLIENT_FRAME_BYTES - ping.length) }));
      await client.waitFor((m) => m.type === 'pong');

      client.send('x'.repeat(MAX_CLIENT_FRAME_BYTES + 1));
      expect((await client.closed).code).toBe(LIVE_CLOSE_CODES.messageTooBig);
      await vi.waitFor(() => expect(app.live.stats()).toMatchObject({ connections: 0, sockets: 0 }), eventually);
    });

    it('a viewer like the web client (subscribes to a few polls, comes and goes, pings) never meets the limit', async () => {
      const db = database.db;
      const polls = await Promise.all(Array.from({ length: 3 }, () => buildPoll(db)));
      const refusedBefore = app.live.stats().framesRefused;
      const client = await open(newFan());
      for (const { poll } of polls) client.send({ type: 'subscribe', topic: `poll:${poll.id}` });
      for (const { poll } of polls) await client.waitFor((m) => m.type === 'results' && m.pollId === poll.id);
      for (let round = 0; round < 3; round++) {
        client.send({ type: 'unsubscribe', topic: `poll:${polls[round]!.poll.id}` });
        client.send({ type: 'subscribe', topic: `poll:${polls[round]!.poll.id}` });
        client.send({ type: 'ping' });
        client.socket.ping();
      }
      await vi.waitFor(() => expect(after(client, 'pong')).toHaveLength(3), eventually);
      expect(after(client, 'error')).toEqual([]);
      expect(client.socket.readyState).toBe(client.socket.OPEN);
      expect(app.live.stats().framesRefused).toBe(refusedBefore);
    });

    it('visitors (no session) still watch live results', async () => {
      const db = database.db;
      const { poll, options } = await buildPoll(db, { options: 2 });
      const visitor = await open(newFan());
      expect(visitor.messages[0]).toMatchObject({ type: 'hello', userId: null });
      visitor.send({ type: 'subscribe', topic: `poll:${poll.id}` });
      await visitor.waitFor((m) => m.type === 'results' && m.pollId === poll.id);
      await app.pollsLive.store.recordVotes(batch(poll.id, [await insertVote(db, poll.id, options[0]!.id, await buildUser(db))]));
      const snapshot = await visitor.waitFor<ResultsSnapshot>((m) => m.type === 'results' && m.totalVotes === 1);
      expect(snapshot.options[0]).toMatchObject({ optionId: options[0]!.id, totalVotes: 1 });
    });
  });

  describe('a socket that stops reading', () => {
    it('is skipped, then terminated once its backlog passes maxBufferedBytes, and forgotten', async () => {
      const db = database.db;
      const { poll, options } = await buildPoll(db, { options: 2 });
      const users = await Promise.all(Array.from({ length: 10 }, () => buildUser(db)));
      // Signed in: voters messages (the big ones below) go to signed-in viewers only.
      const { cookie } = await signIn(app, await buildUser(db));
      const slow = await open(newFan(), { cookie });
      const fast = await open(newFan(), { cookie });
      for (const client of [slow, fast]) {
        client.send({ type: 'subscribe', topic: `poll:${poll.id}` });
        await client.waitFor((m) => m.type === 'results');
      }
      // The poll topic's pacing of its voters messages (polls/live/topic.ts).
      const pacing = app.live.hub.topics.get('poll')!.pacing!;
      const saved = { ...pacing };
      const overflowBefore = app.live.stats().overflowClosed;
      const serverSockets = app.websocketServer.clients.size;
      expect(serverSockets).toBe(2);

      // Voters messages of 2 MB (ten 200 kB names) fill the kernel buffers, then the process's.
      Object.assign(pacing, { changesEveryMs: 0, maxChangesPerMessage: 50 });
      slow.tcp().pause();
      const bigName = 'x'.repeat(200_000);
      try {
        for (let i = 0; i < 100 && app.live.stats().overflowClosed === overflowBefore; i++) {
          const changes = await Promise.all(users.map((user, k) => insertVote(db, poll.id, options[k % 2]!.id, user)));
          await app.pollsLive.store.recordVotes(
            batch(
              poll.id,
              changes.map((change) => ({ ...change, displayName: bigName })),
            ),
          );
          await sleep(30);
        }
      } finally {
        Object.assign(pacing, saved);
      }

      expect(app.live.stats().overflowClosed).toBe(overflowBefore + 1);
      // The server let go of it: no viewer, no subscription, no debt, no ws socket, no count.
      await vi.waitFor(() => expect(app.live.stats()).toMatchObject({ connections: 1, subscriptions: 1, owing: 0, sockets: 1 }), eventually);
      await vi.waitFor(() => expect(app.websocketServer.clients.size).toBe(1), eventually);
      // The reading viewer is unaffected and ends with the final totals.
      const finalSeq = (await app.pollsLive.store.readSnapshot(poll.id)).seq;
      await fast.waitFor((m) => m.type === 'results' && m.seq === finalSeq, { timeoutMs: 15_000 });
      expect(fast.socket.readyState).toBe(fast.socket.OPEN);
      slow.tcp().resume();
      expect((await slow.closed).code).toBe(1006);
    });
  });

  describe('connection caps', () => {
    it(`refuses the connection beyond ${PER_ADDRESS} per address with 1013, and accepts one again after one closes`, async () => {
      const fan = newFan();
      const accepted = [await open(fan), await open(fan), await open(fan)];
      expect(await attempt(fan)).toEqual({ code: LIVE_CLOSE_CODES.tryAgainLater, reason: 'too many connections from this address' });
      // Another fan behind the same proxy is counted apart.
      expect(isOpen(await attempt(newFan()))).toBe(true);

      await accepted[0]!.close();
      await vi.waitFor(() => expect(app.live.connections.count(fan)).toBe(PER_ADDRESS - 1), eventually);
      expect(isOpen(await attempt(fan))).toBe(true);
      expect(app.live.stats().socketsRefused).toBeGreaterThan(0);
    });

    it('counts exactly under concurrent connects', async () => {
      const fan = newFan();
      const outcomes = await Promise.all(Array.from({ length: 10 }, () => attempt(fan)));
      expect(outcomes.filter(isOpen)).toHaveLength(PER_ADDRESS);
      const refused = { code: LIVE_CLOSE_CODES.tryAgainLater, reason: 'too many connections from this address' };
      expect(outcomes.filter((o) => !isOpen(o))).toEqual(Array(10 - PER_ADDRESS).fill(refused));
      expect(app.live.connections.count(fan)).toBe(PER_ADDRESS);
    });

    it('releases a connection whatever closed it: the client, a dropped TCP connection, the server', async () => {
      const fan = newFan();
      const [byClient, dropped, oversized] = [await open(fan), await open(fan), await open(fan)];
      await byClient.close();
      dropped.tcp().destroy();
      oversized.send('x'.repeat(MAX_CLIENT_FRAME_BYTES + 1));
      await oversized.closed;
      await vi.waitFor(() => expect(app.live.connections.count(fan)).toBe(0), eventually);

      const flooder = await open(fan);
      for (let i = 0; i < 200; i++) flooder.send({ type: 'ping' });
      await flooder.closed;
      await vi.waitFor(() => expect(app.live.connections.count(fan)).toBe(0), eventually);
      for (let i = 0; i < PER_ADDRESS; i++) expect(isOpen(await attempt(fan))).toBe(true);
    });

    it('counts an IPv6 client by its /64', async () => {
      expect(isOpen(await attempt('2001:db8:1:2::1'))).toBe(true);
      expect(isOpen(await attempt('2001:db8:1:2::2'))).toBe(true);
      expect(isOpen(await attempt('2001:db8:1:2:aaaa::3'))).toBe(true);
      expect(await attempt('2001:db8:1:2::4')).toMatchObject({ code: LIVE_CLOSE_CODES.tryAgainLater });
      expect(isOpen(await attempt('2001:db8:1:3::1'))).toBe(true);
    });

    it(`refuses connections beyond ${PER_INSTANCE} on the instance with 1013`, async () => {
      for (let i = 0; i < PER_INSTANCE; i++) await open(newFan());
      expect(await attempt(newFan())).toEqual({ code: LIVE_CLOSE_CODES.tryAgainLater, reason: 'server full' });
      await clients.pop()!.close();
      await vi.waitFor(() => expect(app.live.stats().sockets).toBe(PER_INSTANCE - 1), eventually);
      expect(isOpen(await attempt(newFan()))).toBe(true);
    });
  });
});

describe('frame budget over a long session (virtual clock)', () => {
  const silent = { warn: () => undefined } as unknown as FastifyBaseLogger;

  afterEach(() => {
    vi.useRealTimers();
  });

  /** A client that answers every server ping (as browsers do) and records what it receives. */
  class ClientSocket implements HubSocket {
    readyState = 1;
    bufferedAmount = 0;
    closedWith: number | null = null;
    readonly frames: string[] = [];
    private readonly listeners = new Map<string, (() => void)[]>();
    send(data: Buffer | string): void {
      this.frames.push(data.toString());
    }
    ping(): void {
      for (const listener of this.listeners.get('pong') ?? []) listener();
    }
    close(code: number): void {
      this.closedWith = code;
    }
    terminate(): void {
      this.readyState = 3;
    }
    on(event: string, listener: () => void): this {
      this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
      return this;
    }
  }

  it('a viewer that pings every 25 s and browses a few polls for hours never meets the limit', async () => {
    vi.useFakeTimers();
    const hub = new LiveHub({ log: silent });
    hub.registerTopic(
      testPollTopic(async (pollId) => ({
        type: 'results',
        topic: pollTopic(pollId),
        pollId,
        seq: 1,
        totalVotes: 0,
        totalPoints: 0,
        totalVoters: 0,
        options: [],
        committedAt: 0,
      })),
    );
    try {
      const socket = new ClientSocket();
      const viewer = hub.attach(socket, null);
      const polls = Array.from({ length: 4 }, (_, i) => `6f1c2a4e-9b7d-4c1e-8a3f-2d5e6f7a8b${String(i).padStart(2, '0')}`);
      const frame = async (pollId?: string, kind: 'subscribe' | 'unsubscribe' | 'ping' = 'ping') => {
        const topic = pollId === undefined ? undefined : pollTopic(pollId);
        expect(hub.admit(viewer, kind === 'subscribe' ? topic : undefined)).toBe(true);
        if (kind === 'subscribe') await hub.subscribe(viewer, topic!);
        if (kind === 'unsubscribe') hub.unsubscribe(viewer, topic!);
      };
      for (const pollId of polls.slice(0, 3)) await frame(pollId, 'subscribe');
      // Three hours: a ping every 25 s (the server's keep-alive pings are answered on their own),
      // and every 75 s the fan leaves a poll and opens another.
      for (let second = 25; second <= 3 * 3600; second += 25) {
        await vi.advanceTimersByTimeAsync(25_000);
        await frame();
        if (second % 75 === 0) {
          const step = second / 75 - 1;
          await frame(polls[step % 4], 'unsubscribe');
          await frame(polls[(step + 3) % 4], 'subscribe');
        }
      }
      expect(socket.frames.filter((f) => f.includes('"error"'))).toEqual([]);
      expect(socket.closedWith).toBeNull();
      expect(hub.stats()).toMatchObject({ connections: 1, framesRefused: 0, rateLimitClosed: 0 });
    } finally {
      hub.close();
    }
  });
});
