import type { LiveClientMessage, LiveErrorCode, LiveServerMessage } from '@tribuna/contracts/live';
import type { ServerMessage } from '@tribuna/contracts/live';
import { LIVE_CLOSE_CODES, parseTopic, pollTopic } from '@tribuna/contracts/liveTopics';
import { fetchPollResults } from '../polls/api';
import { useLiveResultsStore, type SequencedResults } from './liveResultsStore';

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

type Store = Pick<
  ReturnType<typeof useLiveResultsStore.getState>,
  | 'applyResults'
  | 'applySnapshot'
  | 'applyVoters'
  | 'applyPollStatus'
  | 'notePointsReset'
  | 'setConnected'
  | 'setSubscribed'
  | 'forgetSeq'
>;

export interface LiveClientOptions {
  /** The WebSocket class; by default the browser's, looked up when connecting. */
  socketClass?: SocketClass;
  /** Where to connect; by default /ws on this origin (wss on https). */
  url?: () => string;
  /** The resync source after a reconnect. */
  fetchResults?: (pollId: string) => Promise<SequencedResults>;
  store?: () => Store;
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
 * The app's one websocket. Components subscribe to polls (ref-counted: the socket subscribes a poll
 * once however many components watch it); typed messages land in the live results store. The
 * socket opens with the first subscription, closes a while after the last one ends, reconnects
 * with backoff when it drops, and then subscribes again and resyncs each poll over HTTP, since
 * snapshots sent while it was away are lost.
 */
export class LiveClient {
  private readonly options: Required<Omit<LiveClientOptions, 'socketClass'>> & { socketClass?: SocketClass };
  private readonly refs = new Map<string, number>();
  private socket: SocketLike | null = null;
  private attempt = 0;
  /** Connections the server refused in a row (see REFUSED_BACKOFF_BASE_MS), and until when to wait. */
  private refusals = 0;
  private refusedUntil = 0;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  private idleTimer: ReturnType<typeof setTimeout> | null = null;
  private heartbeatTimer: ReturnType<typeof setInterval> | null = null;
  private lastMessageAt = 0;
  /** Polls that were subscribed when a connection dropped: resynced when the next one opens. */
  private readonly needsResync = new Set<string>();
  private readonly retryTimers = new Set<ReturnType<typeof setTimeout>>();
  private readonly browserListeners: Array<[EventTarget, string, () => void]> = [];

  constructor(options: LiveClientOptions = {}) {
    this.options = {
      url: options.url ?? defaultUrl,
      fetchResults: options.fetchResults ?? ((pollId) => fetchPollResults(pollId)),
      store: options.store ?? (() => useLiveResultsStore.getState()),
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

  /** Watches a poll's live results until the returned function is called (once). */
  subscribe(pollId: string): () => void {
    const count = this.refs.get(pollId) ?? 0;
    this.refs.set(pollId, count + 1);
    this.clearIdleTimer();
    if (count === 0 && this.isOpen()) this.sendSubscribe(pollId);
    this.ensureConnected();

    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.release(pollId);
    };
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

  /** stop(), and no longer listens to the browser's events. */
  dispose(): void {
    this.stop();
    for (const [target, type, listener] of this.browserListeners) target.removeEventListener(type, listener);
    this.browserListeners.length = 0;
  }

  /** Polls with at least one watcher. */
  get subscriptions(): string[] {
    return [...this.refs.keys()];
  }

  private listen(target: EventTarget, type: string, listener: () => void) {
    target.addEventListener(type, listener);
    this.browserListeners.push([target, type, listener]);
  }

  private release(pollId: string) {
    const count = this.refs.get(pollId) ?? 0;
    if (count > 1) {
      this.refs.set(pollId, count - 1);
      return;
    }
    this.refs.delete(pollId);
    this.needsResync.delete(pollId);
    if (this.isOpen()) this.send({ type: 'unsubscribe', topic: pollTopic(pollId) });
    this.options.store().setSubscribed(pollId, false);
    if (this.refs.size === 0) this.scheduleIdleClose();
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
    const store = this.options.store();
    const pollIds = this.subscriptions;
    store.forgetSeq(pollIds);
    store.setConnected(true);
    for (const pollId of pollIds) this.sendSubscribe(pollId);
    for (const pollId of pollIds.filter((id) => this.needsResync.has(id))) void this.resync(pollId);
    this.needsResync.clear();
    this.startHeartbeat();
  }

  private async resync(pollId: string) {
    try {
      const results = await this.options.fetchResults(pollId);
      if (this.refs.has(pollId)) this.options.store().applyResults(results);
    } catch (error) {
      console.debug('No se pudieron actualizar los resultados', error);
    }
  }

  private handleMessage(data: unknown) {
    this.lastMessageAt = Date.now();
    const message = parse(data);
    if (!message) return;
    const store = this.options.store();
    switch (message.type) {
      case 'results':
        if (this.refs.has(message.pollId)) store.applySnapshot(message);
        return;
      case 'voters':
        if (this.refs.has(message.pollId)) store.applyVoters(message);
        return;
      case 'poll-status':
        store.applyPollStatus(message);
        return;
      case 'points-reset':
        store.notePointsReset();
        return;
      case 'error':
        this.handleRefusal(message.code, pollOf(message.topic));
        return;
      case 'hello':
        this.refusals = 0;
        return;
      case 'pong':
        return;
    }
  }

  /**
   * The server refused a subscription: the poll is not live on this socket. A passing refusal
   * (rate limit, live totals unavailable) is retried after a while; the others are final.
   */
  private handleRefusal(code: LiveErrorCode, pollId: string | undefined) {
    console.debug('Suscripción en vivo rechazada', code, pollId);
    if (!pollId || !this.refs.has(pollId)) return;
    this.options.store().setSubscribed(pollId, false);
    if (code !== 'rate-limited' && code !== 'unavailable') return;
    const socket = this.socket;
    const timer = setTimeout(() => {
      this.retryTimers.delete(timer);
      if (this.socket === socket && this.refs.has(pollId) && this.isOpen()) {
        this.sendSubscribe(pollId);
        void this.resync(pollId);
      }
    }, backoffDelay(3, this.options.random));
    this.retryTimers.add(timer);
  }

  private handleClose(code?: number) {
    this.socket = null;
    this.stopHeartbeat();
    this.options.store().setConnected(false);
    if (this.refs.size === 0) return;
    for (const pollId of this.refs.keys()) this.needsResync.add(pollId);
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

  private sendSubscribe(pollId: string) {
    this.send({ type: 'subscribe', topic: pollTopic(pollId) });
    this.options.store().setSubscribed(pollId, true);
  }

  private send(message: LiveClientMessage | { type: 'ping' }) {
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
      for (const pollId of this.refs.keys()) this.needsResync.add(pollId);
    }
    this.options.store().setConnected(false);
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

/** The poll of a `poll:{id}` topic, undefined for any other topic. */
function pollOf(topic: string | undefined): string | undefined {
  const parsed = topic === undefined ? null : parseTopic(topic);
  return parsed?.family === 'poll' && parsed.key !== null ? parsed.key : undefined;
}
