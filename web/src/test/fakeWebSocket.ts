import type { SocketLike } from '../lib/live/liveClient';

/**
 * A WebSocket stand-in for unit tests: records what the client sends and lets the test open,
 * message and close it by hand. Every instance is kept in `FakeWebSocket.instances`.
 */
export class FakeWebSocket implements SocketLike {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSING = 2;
  static readonly CLOSED = 3;
  static instances: FakeWebSocket[] = [];

  /** The newest socket. */
  static get last(): FakeWebSocket {
    const socket = FakeWebSocket.instances[FakeWebSocket.instances.length - 1];
    if (!socket) throw new Error('No socket was opened');
    return socket;
  }

  static reset() {
    FakeWebSocket.instances = [];
  }

  readyState = FakeWebSocket.CONNECTING;
  readonly sent: unknown[] = [];
  onopen: ((event: Event) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;

  constructor(readonly url: string) {
    FakeWebSocket.instances.push(this);
  }

  send(data: string) {
    if (this.readyState !== FakeWebSocket.OPEN) throw new Error('send on a socket that is not open');
    this.sent.push(JSON.parse(data));
  }

  close() {
    this.readyState = FakeWebSocket.CLOSED;
  }

  /** The server accepted the connection (and greets it, like ours, unless `hello` is false: a full server about to close it). */
  open(hello = true) {
    this.readyState = FakeWebSocket.OPEN;
    this.onopen?.(new Event('open'));
    if (hello) this.receive({ type: 'hello', serverTime: new Date().toISOString(), userId: null });
  }

  receive(message: unknown) {
    this.onmessage?.(new MessageEvent('message', { data: JSON.stringify(message) }));
  }

  /** The connection dropped (server restart, network loss), or the server closed it with `code`. */
  drop(code = 1006) {
    this.readyState = FakeWebSocket.CLOSED;
    this.onclose?.(new CloseEvent('close', { code }));
  }
}
