import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeWebSocket } from '../../test/fakeWebSocket';
import { LIVE_CLOSE_CODES } from '@tribuna/contracts/liveTopics';
import { LiveClient, type LiveTopicHandler } from './liveClient';

const spyHandler = () => ({ onMessage: vi.fn(), onSubscribed: vi.fn(), onReconnect: vi.fn(), onResync: vi.fn() }) satisfies LiveTopicHandler;

describe('LiveClient (any topic)', () => {
  let client: LiveClient;

  beforeEach(() => {
    vi.useFakeTimers();
    client = new LiveClient({ socketClass: FakeWebSocket, url: () => 'ws://tribuna.test/ws', random: () => 0.5, idleCloseMs: 1000, watchBrowser: false });
  });
  afterEach(() => {
    client.dispose();
    vi.useRealTimers();
  });

  it("routes each topic's messages to its own handlers only, and broadcasts to the broadcast listeners", () => {
    const feed = spyHandler();
    const poll = spyHandler();
    const resets = vi.fn();
    client.onBroadcast(resets);
    client.subscribe('feed', feed);
    client.subscribe('poll:p1', poll);
    const socket = FakeWebSocket.last;
    socket.open();
    expect(socket.sent).toEqual([
      { type: 'subscribe', topic: 'feed' },
      { type: 'subscribe', topic: 'poll:p1' },
    ]);
    expect(feed.onSubscribed).toHaveBeenLastCalledWith(true);

    const status = { type: 'poll-status', topic: 'poll:p1', pollId: 'p1', status: 'closed', isFeatured: false };
    socket.receive(status);
    socket.receive({ ...status, topic: 'poll:p2', pollId: 'p2' });
    socket.receive({ type: 'points-reset', day: '2026-11-24' });
    expect(poll.onMessage).toHaveBeenCalledTimes(1);
    expect(poll.onMessage).toHaveBeenCalledWith(status);
    expect(feed.onMessage).not.toHaveBeenCalled();
    expect(resets).toHaveBeenCalledWith({ type: 'points-reset', day: '2026-11-24' });

    // The wall's messages reach the wall's topics the same way.
    const post = spyHandler();
    client.subscribe('post:x1', post);
    const newPost = { type: 'feed-post', topic: 'feed', postId: 'x2', authorId: 'u9' };
    const comment = { type: 'comment-deleted', topic: 'post:x1', postId: 'x1', commentId: 'c1', commentCount: 0 };
    socket.receive(newPost);
    socket.receive(comment);
    expect(feed.onMessage).toHaveBeenCalledWith(newPost);
    expect(post.onMessage).toHaveBeenCalledWith(comment);
    expect(poll.onMessage).toHaveBeenCalledTimes(1);
  });

  it('tells only the refused topic, and asks every handler to resync after a reconnect', () => {
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => {});
    const mine = spyHandler();
    const admin = spyHandler();
    client.subscribe('user:u1', mine);
    client.subscribe('admin', admin);
    FakeWebSocket.last.open();
    FakeWebSocket.last.receive({ type: 'error', code: 'forbidden', topic: 'admin' });
    expect(admin.onSubscribed).toHaveBeenLastCalledWith(false);
    expect(mine.onSubscribed).toHaveBeenLastCalledWith(true);
    expect(debug).toHaveBeenCalledWith('Suscripción en vivo rechazada', 'forbidden', 'admin');

    FakeWebSocket.last.drop();
    vi.advanceTimersByTime(375);
    FakeWebSocket.last.open();
    for (const handler of [mine, admin]) {
      expect(handler.onReconnect).toHaveBeenCalledTimes(2); // each connection, the first one too
      expect(handler.onResync).toHaveBeenCalledTimes(1); // only after the drop: messages may be lost
    }
  });

  it('comes back after the usual short backoff when the server closes it for a restart (1012), and resyncs', () => {
    const poll = spyHandler();
    client.subscribe('poll:p1', poll);
    FakeWebSocket.last.open();
    const before = FakeWebSocket.instances.length;

    FakeWebSocket.last.drop(LIVE_CLOSE_CODES.serviceRestart);
    // Not the long wait after a refusal (REFUSED_BACKOFF_BASE_MS): the first reconnect delay.
    vi.advanceTimersByTime(375);
    expect(FakeWebSocket.instances.length).toBe(before + 1);
    FakeWebSocket.last.open();
    expect(FakeWebSocket.last.sent).toEqual([{ type: 'subscribe', topic: 'poll:p1' }]);
    expect(poll.onResync).toHaveBeenCalledTimes(1);
  });

  it("routes a user's notifications message to that user's topic only", () => {
    const mine = spyHandler();
    const other = spyHandler();
    client.subscribe('user:00000000-0000-4000-8000-000000000001', mine);
    client.subscribe('user:00000000-0000-4000-8000-000000000002', other);
    FakeWebSocket.last.open();
    const message = { type: 'notifications', topic: 'user:00000000-0000-4000-8000-000000000001', unreadCount: 2, reason: 'new' };
    FakeWebSocket.last.receive(message);
    expect(mine.onMessage).toHaveBeenCalledWith(message);
    expect(other.onMessage).not.toHaveBeenCalled();
  });

  it("routes a clip's video-upload message to its author's topic", () => {
    const mine = spyHandler();
    client.subscribe('user:00000000-0000-4000-8000-000000000001', mine);
    FakeWebSocket.last.open();
    const message = {
      type: 'video-upload',
      topic: 'user:00000000-0000-4000-8000-000000000001',
      uploadId: '00000000-0000-4000-8000-000000000011',
      status: 'published',
      postId: '00000000-0000-4000-8000-000000000012',
    };
    FakeWebSocket.last.receive(message);
    expect(mine.onMessage).toHaveBeenCalledWith(message);
  });

  it("routes an abuse scan's progress to the admin topic's handlers", () => {
    const admin = spyHandler();
    const feed = spyHandler();
    client.subscribe('admin', admin);
    client.subscribe('feed', feed);
    FakeWebSocket.last.open();
    const message = { type: 'abuse-scan', topic: 'admin', scanId: '00000000-0000-4000-8000-000000000009', status: 'running', progress: 40 };
    FakeWebSocket.last.receive(message);
    expect(admin.onMessage).toHaveBeenCalledWith(message);
    expect(feed.onMessage).not.toHaveBeenCalled();
  });

  it('unsubscribes a topic only when its last watcher leaves', () => {
    const first = client.subscribe('feed', spyHandler());
    const second = client.subscribe('feed', spyHandler());
    FakeWebSocket.last.open();
    first();
    expect(FakeWebSocket.last.sent).toEqual([{ type: 'subscribe', topic: 'feed' }]);
    second();
    expect(FakeWebSocket.last.sent.at(-1)).toEqual({ type: 'unsubscribe', topic: 'feed' });
  });
});
