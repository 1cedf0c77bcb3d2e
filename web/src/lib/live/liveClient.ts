import type { LiveClientMessage, LiveErrorCode, LiveServerMessage, PointsResetMessage, ServerMessage } from '@tribuna/contracts/live';
import { LIVE_CLOSE_CODES } from '@tribuna/contracts/liveTopics';

/** A message about one topic (it names it in `topic`). */
export type TopicMessage = Exclude<Extract<LiveServerMessage, { topic: string }>, { type: 'error' }>;
/** A message for every socket (no topic). */
export type BroadcastMessage = PointsResetMessage;

/**
 * What a feature registers for a topic it watches (features/polls/livePoll.ts for `poll:{id}`).
 * The client knows nothing of what the messages mean.
 */
export interface LiveTopicHandler {
  /** A message about the topic. */
  onMessage(message: TopicMessage): void;
  /** Whether the server is sending the topic now (subscribed on an open socket; false after a refusal or a drop). */
  onSubscribed?(subscribed: boolean): void;
  /** A new connection opened: called before the topic is subscribed again on it. */
  onReconnect?(): void;
  /** Messages may have been lost while the socket was away (or the server refused for a while): catch up over HTTP. */
  onResync?(): void | Promise<void>;
}

/** The part of a browser WebSocket the client uses (a test passes a fake with the same shape). */
export interface SocketLike {
  readonly readyState: number;
  onopen: ((event: Event) => void) | null;
  onmessage: ((event: MessageEvent) => void) | null;
  onclose: ((event: CloseEvent) => void) | null;
  onerror: ((event: Event) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

export type SocketClass = new (url: string) => SocketLike;

export interface LiveClientOptions {
  /** The WebSocket class; by default the browser's, looked up when connecting. */
  socketClass?: SocketClass;
  /** Where to connect; by default /ws on this origin (wss on https). */
  url?: () => string;
  random?: () => number;
  /** How long the socket stays open once nothing is subscribed (a quick remount reuses it). */
  idleCloseMs?: number;
  /** Listen to the browser's online and visibility events to reconnect at once. */
  watchBrowser?: boolean;
}

const OPEN = 1;
const BACKOFF_BASE_MS = 500;
export const BACKOFF_CAP_MS = 10_000;
/**
 * After the server closed the socket as full (tryAgainLater) or for too many messages
 * (policyViolation): a much longer wait, growing until a server greets us again, that a tab becoming
 * visible or the network coming back does not cut short.
 */
export const REFUSED_BACKOFF_BASE_MS = 15_000;
export const REFUSED_BACKOFF_CAP_MS = 120_000;
const HEARTBEAT_MS = 25_000;
/** No message at all (pongs included) for this long: the connection is dead even if not closed. */
const SILENCE_LIMIT_MS = 60_000;

/**
 * Delay before reconnect attempt `attempt` (0-based): exponential, capped at 10 s (or `cap`), with
 * jitter so thousands of phones dropped by the same network blip do not come back in the same instant.
 */
export function backoffDelay(attempt: number, random: () => number = Math.random, base = BACKOFF_BASE_MS, cap = BACKOFF_CAP_MS): number {
  const ceiling = Math.min(cap, base * 2 ** attempt);
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

function defaultUrl(): string {
  const scheme = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${window.location.host}/ws`;
}

function parse(data: unknown): LiveServerMessage | ServerMessage | null {
  if (typeof data !== 'string') return null;
  try {
    const message = JSON.parse(data) as { type?: unknown } | null;
    return message && typeof message.type === 'string' ? (message as LiveServerMessage | ServerMessage) : null;
  } catch {
    return null;
  }
}

/**
 * The app's one websocket, for every topic. Features subscribe to topics with a handler
 * (ref-counted: the socket subscribes a topic once however many watch it) and get the topic's
 * messages routed to them. The socket opens with the first subscription, closes a while after the
 * last one ends, reconnects with backoff when it drops, then subscribes again and asks each
 * handler to resync over HTTP, since messages sent while it was away are lost.
 */
export class LiveClient {
  private readonly options: Required<Omit<LiveClientOptions, 'socketClass'>> & { socketClass?: SocketClass };
  /** Handlers by topic; a topic is subscribed while it has at least one. */
  private readonly refs = new Map<string, Set<LiveTopicHandler>>();
  private readonly broadcastListeners = new Set<(message: BroadcastMessage) => void>();
  private readonly connectionListeners = new Set<(connected: boolean) => void>();
  private socket: SocketLike | null = null;
  private attempt = 0;
  /** Connections the server refused in a row (see REFUSED_BACKOFF_BASE_MS), and until when to wait. */
  private refusals = 0;
  private refusedUntil = 0;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  private idleTimer: ReturnType<typeof setTimeout> | null = null;
  private heartbeatTimer: ReturnType<typeof setInterval> | null = null;
  private lastMessageAt = 0;
  /** Topics that were subscribed when a connection dropped: resynced when the next one opens. */
  private readonly needsResync = new Set<string>();
  private readonly retryTimers = new Set<ReturnType<typeof setTimeout>>();
  private readonly browserListeners: Array<[EventTarget, string, () => void]> = [];

  constructor(options: LiveClientOptions = {}) {
    this.options = {
      url: options.url ?? defaultUrl,
      random: options.random ?? Math.random,
      idleCloseMs: options.idleCloseMs ?? 15_000,
      watchBrowser: options.watchBrowser ?? typeof window !== 'undefined',
      socketClass: options.socketClass,
    };
    if (this.options.watchBrowser) {
      const wake = () => this.reconnectSoon();
      const onVisible = () => {
        if (document.visibilityState === 'visible') this.reconnectSoon();
      };
      this.listen(window, 'online', wake);
      this.listen(document, 'visibilitychange', onVisible);
    }
  }

  /** Watches `topic` with `handler` until the returned function is called (once). */
  subscribe(topic: string, handler: LiveTopicHandler): () => void {
    // Each call is its own registration, even with the same handler object.
    const registration: LiveTopicHandler = { ...handler };
    const handlers = this.refs.get(topic) ?? new Set<LiveTopicHandler>();
    const first = handlers.size === 0;
    handlers.add(registration);
    this.refs.set(topic, handlers);
    this.clearIdleTimer();
    if (first && this.isOpen()) this.sendSubscribe(topic);
    else if (!first && this.isOpen()) registration.onSubscribed?.(true);
    this.ensureConnected();

    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.release(topic, registration);
    };
  }

  /** Messages for every socket (the daily points reset); until the returned function is called. */
  onBroadcast(listener: (message: BroadcastMessage) => void): () => void {
    this.broadcastListeners.add(listener);
    return () => this.broadcastListeners.delete(listener);
  }

  /** Whether the socket is open, each time it changes; until the returned function is called. */
  onConnectionChange(listener: (connected: boolean) => void): () => void {
    this.connectionListeners.add(listener);
    return () => this.connectionListeners.delete(listener);
  }

  /**
   * Opens a new connection now (e.g. after sign-in or sign-out: the socket's user is fixed at open),
   * or once the wait after a refusal is over.
   */
  reconnect(): void {
    if (!this.socket && !this.reconnectTimer) return;
    this.dropSocket();
    this.clearReconnectTimer();
    if (this.refs.size > 0) this.connectWhenAllowed();
  }

  /** Closes the socket and forgets every subscription (between tests). */
  stop(): void {
    for (const timer of this.retryTimers) clearTimeout(timer);
    this.retryTimers.clear();
    this.refs.clear();
    this.needsResync.clear();
    this.clearIdleTimer();
    this.clearReconnectTimer();
    this.dropSocket();
  }

  /** stop(), and no longer listens to the browser's events nor tells its listeners anything. */
  dispose(): void {
    this.stop();
    this.broadcastListeners.clear();
    this.connectionListeners.clear();
    for (const [target, type, listener] of this.browserListeners) target.removeEventListener(type, listener);
    this.browserListeners.length = 0;
  }

  /** Topics with at least one watcher. */
  get subscriptions(): string[] {
    return [...this.refs.keys()];
  }

  private listen(target: EventTarget, type: string, listener: () => void) {
    target.addEventListener(type, listener);
    this.browserListeners.push([target, type, listener]);
  }

  private release(topic: string, registration: LiveTopicHandler) {
    const handlers = this.refs.get(topic);
    if (!handlers?.delete(registration)) return;
    if (handlers.size > 0) return;
    // The last watcher left: the topic is no longer live here.
    registration.onSubscribed?.(false);
    this.refs.delete(topic);
    this.needsResync.delete(topic);
    if (this.isOpen()) this.send({ type: 'unsubscribe', topic });
    if (this.refs.size === 0) this.scheduleIdleClose();
  }

  private handlersOf(topic: string): LiveTopicHandler[] {
    return [...(this.refs.get(topic) ?? [])];
  }

  private setConnected(connected: boolean) {
    for (const listener of this.connectionListeners) listener(connected);
  }

  private isOpen(): boolean {
    return this.socket !== null && this.socket.readyState === OPEN;
  }

  private ensureConnected() {
    if (this.socket || this.reconnectTimer || this.refs.size === 0) return;
    this.connectWhenAllowed();
  }

  private connect() {
    const SocketImpl = this.options.socketClass ?? (globalThis.WebSocket as unknown as SocketClass | undefined);
    if (!SocketImpl) return;
    let socket: SocketLike;
    try {
      socket = new SocketImpl(this.options.url());
    } catch (error) {
      console.debug('No se pudo abrir la conexión en vivo', error);
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    // Handlers ignore a socket that is no longer the current one (replaced or dropped).
    socket.onopen = () => {
      if (this.socket === socket) this.handleOpen();
    };
    socket.onmessage = (event) => {
      if (this.socket === socket) this.handleMessage(event.data);
    };
    socket.onclose = (event) => {
      if (this.socket === socket) this.handleClose(event.code);
    };
    socket.onerror = () => {
      // A close event follows; nothing to do here.
    };
  }

  private handleOpen() {
    this.attempt = 0;
    this.lastMessageAt = Date.now();
    const topics = this.subscriptions;
    for (const topic of topics) for (const handler of this.handlersOf(topic)) handler.onReconnect?.();
    this.setConnected(true);
    for (const topic of topics) this.sendSubscribe(topic);
    for (const topic of topics.filter((t) => this.needsResync.has(t))) this.resync(topic);
    this.needsResync.clear();
    this.startHeartbeat();
  }

  private resync(topic: string) {
    const failed = (error: unknown) => console.debug('No se pudieron actualizar los datos en vivo', topic, error);
    for (const handler of this.handlersOf(topic)) {
      try {
        void Promise.resolve(handler.onResync?.()).catch(failed);
      } catch (error) {
        failed(error);
      }
    }
  }

  private handleMessage(data: unknown) {
    this.lastMessageAt = Date.now();
    const message = parse(data);
    if (!message) return;
    switch (message.type) {
      case 'results':
      case 'voters':
      case 'poll-status':
      case 'feed-post':
      case 'post-updated':
      case 'post-deleted':
      case 'post-reactions':
      case 'comment-created':
      case 'comment-updated':
      case 'comment-deleted':
      case 'comment-reactions':
      case 'admin-dashboard':
      case 'abuse-scan':
      case 'notifications':
      case 'video-upload':
      case 'group-post':
      case 'group-requests':
      case 'group-relation':
      case 'moderation-count':
        for (const handler of this.handlersOf(message.topic)) handler.onMessage(message);
        return;
      case 'points-reset':
        for (const listener of this.broadcastListeners) listener(message);
        return;
      case 'error':
        this.handleRefusal(message.code, message.topic);
        return;
      case 'hello':
        this.refusals = 0;
        return;
      case 'pong':
        return;
      default:
        // Every message type of the contracts is routed above (a new one fails to compile here
        // until it is); one this version does not know (a newer server) is ignored.
        message satisfies never;
    }
  }

  /**
   * The server refused a subscription: the topic is not live on this socket. A passing refusal
   * (rate limit, live data unavailable) is retried after a while; the others are final.
   */
  private handleRefusal(code: LiveErrorCode, topic: string | undefined) {
    console.debug('Suscripción en vivo rechazada', code, topic);
    if (!topic || !this.refs.has(topic)) return;
    for (const handler of this.handlersOf(topic)) handler.onSubscribed?.(false);
    if (code !== 'rate-limited' && code !== 'unavailable') return;
    const socket = this.socket;
    const timer = setTimeout(
      () => {
        this.retryTimers.delete(timer);
        if (this.socket === socket && this.refs.has(topic) && this.isOpen()) {
          this.sendSubscribe(topic);
          this.resync(topic);
        }
      },
      backoffDelay(3, this.options.random),
    );
    this.retryTimers.add(timer);
  }

  private handleClose(code?: number) {
    this.socket = null;
    this.stopHeartbeat();
    this.markDisconnected();
    if (this.refs.size === 0) return;
    for (const topic of this.refs.keys()) this.needsResync.add(topic);
    if (code === LIVE_CLOSE_CODES.tryAgainLater || code === LIVE_CLOSE_CODES.policyViolation) {
      const delay = backoffDelay(this.refusals, this.options.random, REFUSED_BACKOFF_BASE_MS, REFUSED_BACKOFF_CAP_MS);
      this.refusals += 1;
      this.refusedUntil = Date.now() + delay;
      this.scheduleReconnect(delay);
      return;
    }
    this.scheduleReconnect();
  }

  private scheduleReconnect(delay?: number) {
    this.clearReconnectTimer();
    if (delay === undefined) {
      delay = backoffDelay(this.attempt, this.options.random);
      this.attempt += 1;
    }
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      if (this.refs.size > 0) this.connect();
    }, delay);
  }

  /** The network came back or the tab became visible: skip the rest of the backoff (not a refusal's). */
  private reconnectSoon() {
    if (!this.reconnectTimer || Date.now() < this.refusedUntil) return;
    this.clearReconnectTimer();
    this.attempt = 0;
    if (this.refs.size > 0) this.connect();
  }

  /** Connects now, or when the server's refusal wait ends. */
  private connectWhenAllowed() {
    const wait = this.refusedUntil - Date.now();
    if (wait > 0) this.scheduleReconnect(wait);
    else this.connect();
  }

  private sendSubscribe(topic: string) {
    this.send({ type: 'subscribe', topic });
    for (const handler of this.handlersOf(topic)) handler.onSubscribed?.(true);
  }

  /** Every topic stops being live; listeners hear the socket is closed. */
  private markDisconnected() {
    for (const topic of this.refs.keys()) for (const handler of this.handlersOf(topic)) handler.onSubscribed?.(false);
    this.setConnected(false);
  }

  private send(message: LiveClientMessage) {
    if (this.isOpen()) this.socket!.send(JSON.stringify(message));
  }

  private startHeartbeat() {
    this.stopHeartbeat();
    this.heartbeatTimer = setInterval(() => {
      if (Date.now() - this.lastMessageAt > SILENCE_LIMIT_MS) {
        // Half-open connection (a phone that changed networks): give up on it and reconnect.
        const socket = this.socket;
        this.socket = null;
        socket?.close();
        this.handleClose();
        return;
      }
      this.send({ type: 'ping' });
    }, HEARTBEAT_MS);
  }

  private stopHeartbeat() {
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    this.heartbeatTimer = null;
  }

  private scheduleIdleClose() {
    this.clearIdleTimer();
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (this.refs.size > 0) return;
      this.clearReconnectTimer();
      this.dropSocket();
    }, this.options.idleCloseMs);
  }

  /** Closes the current socket on purpose: no reconnect follows from it. */
  private dropSocket() {
    const socket = this.socket;
    this.socket = null;
    this.stopHeartbeat();
    if (socket) {
      socket.onopen = socket.onmessage = socket.onclose = socket.onerror = null;
      socket.close();
      for (const topic of this.refs.keys()) this.needsResync.add(topic);
    }
    this.markDisconnected();
  }

  private clearIdleTimer() {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }

  private clearReconnectTimer() {
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = null;
  }
}

/** The app's single live connection. */
export const liveClient = new LiveClient();
