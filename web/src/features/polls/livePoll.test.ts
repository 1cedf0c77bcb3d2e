import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PollResults } from '@tribuna/contracts/api/polls';
import type { ResultsSnapshot } from '@tribuna/contracts/live';
import { FakeWebSocket } from '../../test/fakeWebSocket';
import { BACKOFF_CAP_MS, LiveClient, REFUSED_BACKOFF_BASE_MS, REFUSED_BACKOFF_CAP_MS, backoffDelay } from '../../lib/live/liveClient';
import { connectPollsToLive, watchLivePoll } from './livePoll';
import { useLiveResultsStore } from './liveResultsStore';

const P1 = 'p1';
const P2 = 'p2';
const store = () => useLiveResultsStore.getState();

function snapshot(pollId: string, seq: number, votes: number): ResultsSnapshot {
  return {
    type: 'results',
    topic: `poll:${pollId}`,
    pollId,
    seq,
    totalVotes: votes,
    totalPoints: votes,
    totalVoters: votes,
    options: [{ optionId: 'o1', totalVotes: votes, totalPoints: votes }],
    committedAt: 0,
  };
}

function results(pollId: string, votes: number, seq?: number): PollResults {
  return {
    pollId,
    totalVotes: votes,
    totalPoints: votes,
    totalVoters: votes,
    options: [{ optionId: 'o1', totalVotes: votes, totalPoints: votes, totalVoters: votes, voters: [] }],
    votersListed: false,
    ...(seq === undefined ? {} : { seq }),
  };
}

/** The live client with the polls feature's `poll:{id}` handler, as the app wires them. */
describe('LiveClient with live polls', () => {
  let fetchResults: ReturnType<typeof vi.fn<(pollId: string) => Promise<PollResults>>>;
  let client: LiveClient;
  const watch = (pollId: string) => watchLivePoll(client, pollId, { fetchResults });

  beforeEach(() => {
    vi.useFakeTimers();
    store().reset();
    fetchResults = vi.fn(async (pollId: string) => results(pollId, 42, 100));
    client = new LiveClient({
      socketClass: FakeWebSocket,
      url: () => 'ws://tribuna.test/ws',
      random: () => 0.5,
      idleCloseMs: 1000,
      watchBrowser: false,
    });
    connectPollsToLive(client);
  });

  afterEach(() => {
    client.dispose();
    vi.useRealTimers();
  });

  it('opens one socket for all subscriptions and subscribes each poll once (ref-counted)', () => {
    const releaseA = watch(P1);
    const releaseB = watch(P1);
    watch(P2);
    expect(FakeWebSocket.instances).toHaveLength(1);
    expect(FakeWebSocket.last.url).toBe('ws://tribuna.test/ws');

    FakeWebSocket.last.open();
    expect(FakeWebSocket.last.sent).toEqual([
      { type: 'subscribe', topic: `poll:${P1}` },
      { type: 'subscribe', topic: `poll:${P2}` },
    ]);
    expect(store()).toMatchObject({ connected: true, subscribed: { [P1]: true, [P2]: true } });

    releaseA();
    releaseA(); // a second call of the same release does nothing
    expect(FakeWebSocket.last.sent).toHaveLength(2);
    releaseB();
    expect(FakeWebSocket.last.sent.at(-1)).toEqual({ type: 'unsubscribe', topic: `poll:${P1}` });
    expect(store().subscribed).toEqual({ [P2]: true });

    // Subscribing on an open socket sends at once.
    watch(P1);
    expect(FakeWebSocket.last.sent.at(-1)).toEqual({ type: 'subscribe', topic: `poll:${P1}` });
  });

  it('routes messages into the store and drops stale snapshots', () => {
    watch(P1);
    const socket = FakeWebSocket.last;
    socket.open();

    socket.receive(snapshot(P1, 7, 3));
    socket.receive(snapshot(P1, 6, 99));
    socket.receive(snapshot(P2, 8, 5)); // not watched
    socket.receive({
      type: 'voters',
      topic: `poll:${P1}`,
      pollId: P1,
      seq: 7,
      added: [{ optionId: 'o1', userId: 'u', displayName: 'Ana', avatarUrl: null }],
      removed: [],
    });
    socket.receive({ type: 'poll-status', topic: `poll:${P1}`, pollId: P1, status: 'closed', isFeatured: false });
    socket.receive({ type: 'points-reset', day: '2025-01-06' });
    socket.receive({ type: 'something-new' });
    socket.onmessage?.(new MessageEvent('message', { data: 'not json' }));

    expect(store().polls[P1]).toMatchObject({ seq: 7, totalVotes: 3, options: [{ optionId: 'o1', voters: [{ userId: 'u', displayName: 'Ana' }] }] });
    expect(store().polls[P2]).toBeUndefined();
    expect(store().statuses[P1]?.status).toBe('closed');
    expect(store().pointsResetCount).toBe(1);
  });

  it('reconnects with backoff, subscribes again and resyncs over HTTP', async () => {
    watch(P1);
    const first = FakeWebSocket.last;
    first.open();
    first.receive(snapshot(P1, 50, 10));

    first.drop();
    expect(store().connected).toBe(false);
    expect(store().subscribed).toEqual({});

    // attempt 0: half to all of 500 ms (random 0.5 → 375 ms)
    vi.advanceTimersByTime(374);
    expect(FakeWebSocket.instances).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeWebSocket.instances).toHaveLength(2);

    // The next try fails before opening: the delay grows.
    FakeWebSocket.last.drop();
    vi.advanceTimersByTime(749);
    expect(FakeWebSocket.instances).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(FakeWebSocket.instances).toHaveLength(3);

    const second = FakeWebSocket.last;
    second.open();
    expect(second.sent).toEqual([{ type: 'subscribe', topic: `poll:${P1}` }]);
    expect(store().subscribed).toEqual({ [P1]: true });
    expect(fetchResults).toHaveBeenCalledWith(P1);
    await vi.waitFor(() => expect(store().polls[P1]?.totalVotes).toBe(42));

    // A fresh connection restarts seq tracking; the resync set it to 100: older snapshots drop.
    second.receive(snapshot(P1, 99, 1));
    expect(store().polls[P1]?.totalVotes).toBe(42);
    second.receive(snapshot(P1, 101, 43));
    expect(store().polls[P1]?.totalVotes).toBe(43);

    // A successful open resets the backoff.
    second.drop();
    vi.advanceTimersByTime(375);
    expect(FakeWebSocket.instances).toHaveLength(4);
  });

  it('does not resync on the first connection', () => {
    watch(P1);
    FakeWebSocket.last.open();
    expect(fetchResults).not.toHaveBeenCalled();
  });

  it('closes the socket a while after the last subscription ends, without reconnecting', () => {
    const release = watch(P1);
    const socket = FakeWebSocket.last;
    socket.open();
    release();
    vi.advanceTimersByTime(999);
    expect(socket.readyState).toBe(FakeWebSocket.OPEN);
    vi.advanceTimersByTime(1);
    expect(socket.readyState).toBe(FakeWebSocket.CLOSED);
    vi.advanceTimersByTime(60_000);
    expect(FakeWebSocket.instances).toHaveLength(1);
    expect(store().connected).toBe(false);
  });

  it('keeps the socket when a poll is watched again before the idle delay (a remount)', () => {
    const release = watch(P1);
    FakeWebSocket.last.open();
    release();
    watch(P1);
    vi.advanceTimersByTime(5000);
    expect(FakeWebSocket.instances).toHaveLength(1);
    expect(FakeWebSocket.last.readyState).toBe(FakeWebSocket.OPEN);
  });

  it('opens a new connection on reconnect() (sign-in or sign-out)', async () => {
    watch(P1);
    const first = FakeWebSocket.last;
    first.open();
    client.reconnect();
    expect(first.readyState).toBe(FakeWebSocket.CLOSED);
    expect(FakeWebSocket.instances).toHaveLength(2);
    FakeWebSocket.last.open();
    expect(FakeWebSocket.last.sent).toEqual([{ type: 'subscribe', topic: `poll:${P1}` }]);
    expect(fetchResults).toHaveBeenCalledTimes(1);
  });

  it('marks a refused subscription as not live and retries a passing refusal', () => {
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => {});
    watch(P1);
    const socket = FakeWebSocket.last;
    socket.open();
    socket.receive({ type: 'error', code: 'unavailable', topic: `poll:${P1}` });
    expect(store().subscribed).toEqual({});
    vi.advanceTimersByTime(BACKOFF_CAP_MS);
    expect(socket.sent.filter((m) => (m as { type: string }).type === 'subscribe')).toHaveLength(2);
    expect(store().subscribed).toEqual({ [P1]: true });

    socket.receive({ type: 'error', code: 'not-found', topic: `poll:${P1}` });
    vi.advanceTimersByTime(BACKOFF_CAP_MS);
    expect(socket.sent.filter((m) => (m as { type: string }).type === 'subscribe')).toHaveLength(2);
    expect(store().subscribed).toEqual({});
    expect(debug.mock.calls).toEqual([
      ['Suscripción en vivo rechazada', 'unavailable', `poll:${P1}`],
      ['Suscripción en vivo rechazada', 'not-found', `poll:${P1}`],
    ]);
  });

  it('waits far longer after the server refused it as full (1013), more after each refusal, until it is greeted', () => {
    watch(P1);
    // A full server accepts the upgrade and closes at once, without hello.
    FakeWebSocket.last.open(false);
    FakeWebSocket.last.drop(1013);
    // 15 s × (½ + ½·0.5) = 11.25 s, then 22.5 s: not the 375 ms of a dropped connection.
    vi.advanceTimersByTime(11_249);
    expect(FakeWebSocket.instances).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeWebSocket.instances).toHaveLength(2);
    FakeWebSocket.last.open(false);
    FakeWebSocket.last.drop(1013);
    vi.advanceTimersByTime(22_499);
    expect(FakeWebSocket.instances).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(FakeWebSocket.instances).toHaveLength(3);

    // Accepted and greeted: the next refusal starts from the shortest wait again.
    FakeWebSocket.last.open();
    FakeWebSocket.last.drop(1013);
    vi.advanceTimersByTime(11_250);
    expect(FakeWebSocket.instances).toHaveLength(4);
  });

  it('after a policy-violation close (1008) neither the tab nor sign-in cut the wait short', () => {
    const visible = new LiveClient({ socketClass: FakeWebSocket, url: () => 'ws://tribuna.test/ws', random: () => 0.5, watchBrowser: true });
    try {
      watchLivePoll(visible, P1, { fetchResults });
      FakeWebSocket.last.open();
      FakeWebSocket.last.drop(1008);
      document.dispatchEvent(new Event('visibilitychange'));
      window.dispatchEvent(new Event('online'));
      visible.reconnect();
      vi.advanceTimersByTime(11_249);
      expect(FakeWebSocket.instances).toHaveLength(1);
      vi.advanceTimersByTime(1);
      expect(FakeWebSocket.instances).toHaveLength(2);

      // An ordinary drop is still cut short by the network coming back.
      FakeWebSocket.last.open();
      FakeWebSocket.last.drop();
      window.dispatchEvent(new Event('online'));
      expect(FakeWebSocket.instances).toHaveLength(3);
    } finally {
      visible.dispose();
    }
  });

  it('gives up on a silent connection and reconnects', () => {
    watch(P1);
    const socket = FakeWebSocket.last;
    socket.open();
    vi.advanceTimersByTime(25_000);
    expect(socket.sent.at(-1)).toEqual({ type: 'ping' });
    vi.advanceTimersByTime(50_000);
    expect(socket.readyState).toBe(FakeWebSocket.CLOSED);
    expect(store().connected).toBe(false);
    vi.advanceTimersByTime(500);
    expect(FakeWebSocket.instances).toHaveLength(2);
  });
});

describe('backoffDelay', () => {
  it('grows exponentially with jitter and is capped at 10 s', () => {
    expect(backoffDelay(0, () => 0)).toBe(250);
    expect(backoffDelay(0, () => 1)).toBe(500);
    expect(backoffDelay(3, () => 1)).toBe(4000);
    expect(backoffDelay(10, () => 1)).toBe(BACKOFF_CAP_MS);
    expect(backoffDelay(10, () => 0)).toBe(BACKOFF_CAP_MS / 2);
    expect(backoffDelay(0, () => 1, REFUSED_BACKOFF_BASE_MS, REFUSED_BACKOFF_CAP_MS)).toBe(REFUSED_BACKOFF_BASE_MS);
    expect(backoffDelay(10, () => 1, REFUSED_BACKOFF_BASE_MS, REFUSED_BACKOFF_CAP_MS)).toBe(REFUSED_BACKOFF_CAP_MS);
  });
});
