import type { TopicHandler } from './topics.ts';

/** The part of a `ws` server socket the hub uses (a test may pass a fake). */
export interface HubSocket {
  readonly readyState: number;
  /** Bytes queued in the process and not yet handed to the kernel. */
  readonly bufferedAmount: number;
  send(data: Buffer | string, options?: { binary?: boolean }): void;
  ping(): void;
  close(code: number, reason: string): void;
  terminate(): void;
  on(event: 'ping' | 'pong' | 'close' | 'error', listener: () => void): unknown;
}

export const OPEN = 1;
/** One options object for every send: the payloads are JSON text. */
export const SEND_TEXT = { binary: false } as const;

/** Who a socket was opened as (the session of its upgrade request); fixed for the socket's life. */
export interface LiveUser {
  id: string;
  role: string;
  /** The session's assurance level ('aal2': verified with a second factor); the admin topic may require it. */
  level?: string;
  /** A suspended account holds no role powers (the admin topic refuses a suspended admin). */
  isSuspended?: boolean;
  /** The session the socket was opened with: when it ends (sign-out, account deletion) the socket is closed. */
  sessionId?: string;
}

/** One socket. Its user is fixed for the socket's life (null: a visitor). */
export class Viewer {
  alive = true;
  closed = false;
  /** Subscribed topics by their canonical name. */
  readonly channels = new Map<string, TopicChannel>();
  /** Topics whose subscribe is waiting for the handler's access check. */
  readonly pending = new Set<string>();
  /** Channels whose newest snapshot this slow socket skipped. */
  owed: Set<TopicChannel> | null = null;
  /** Frame budget (token bucket, see LiveHub.admit); below zero it is a debt the refill repays first. */
  tokens: number;
  tokensAt = Date.now();
  /** Told 'rate-limited' since its last admitted frame. */
  warned = false;

  constructor(
    readonly socket: HubSocket,
    readonly user: LiveUser | null,
    burst: number,
  ) {
    this.tokens = burst;
  }

  get userId(): string | null {
    return this.user?.id ?? null;
  }
}

/**
 * The local viewers of one topic and, for a topic with snapshots, its coalescing state: the newest
 * snapshot (read from the topic's handler at most at the paced rate) and the pending changes list.
 */
export class TopicChannel {
  readonly viewers = new Set<Viewer>();
  /** Viewers that have not received any snapshot of this topic yet. */
  readonly awaitingFirst = new Set<Viewer>();
  dirty = false;
  /** A tick is reading the snapshot (or sending the changes message). */
  running = false;
  /** Rolling delivery (LiveHub.rotate): the seq last handed to each viewer. */
  readonly delivered = new Map<Viewer, number>();
  /** A rotation is handing the newest snapshot to the viewers behind it. */
  rolling = false;
  timer: NodeJS.Timeout | null = null;
  /** When the pending timer fires. */
  timerAt = 0;
  /** Snapshot budget (token bucket): refilled at snapshotsPerSecond up to snapshotBurst. */
  tokens = 0;
  tokensAt = 0;
  /** When the totals were last read, and when they may be read again after a failure. */
  lastReadAt = 0;
  retryAt = 0;
  /** How long the last complete rotation (and changes message's fan-out) over every local viewer took (ms, its slices only). */
  fanoutMs = 0;
  changesFanoutMs = 0;
  /** Pending changes may go out from then on. */
  changesDueAt = 0;
  /** The newest snapshot, serialized once (and framed once, see frames.ts), and its seq. */
  payload: Buffer | null = null;
  frame: Buffer | null = null;
  seq = -1;
  /** Pending changes (LiveHub.changed; a poll's voters), sent together at most every changesEveryMs. */
  added: unknown[] = [];
  removed: unknown[] = [];
  /** The newest seq among the pending changes (0: none given; the snapshot's seq is sent then). */
  changesSeq = 0;

  constructor(
    /** The canonical topic (`poll:{id}`, `feed`, …). */
    readonly topic: string,
    /** Its key (`{id}` of `poll:{id}`), null for a family-wide topic. */
    readonly key: string | null,
    readonly handler: TopicHandler,
    /** Whether snapshots are sent (a poll whose results are hidden only gets its status changes). */
    public snapshots: boolean,
    burst: number,
  ) {
    this.tokens = burst;
    this.tokensAt = Date.now();
  }
}
