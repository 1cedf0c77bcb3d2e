import { OPEN, SEND_TEXT, type TopicChannel, type Viewer } from './channels.ts';
import { sendFramed } from './frames.ts';

export interface DeliveryCounters {
  /** Frames handed to sockets (snapshots, voters, statuses, resets, errors). */
  framesSent: number;
  /** Snapshots skipped on a slow socket (it gets the newest later). */
  snapshotsDeferred: number;
  /** Voters messages skipped on a slow socket. */
  votersSkipped: number;
  /** Sockets terminated because their backlog passed maxBufferedBytes. */
  overflowClosed: number;
}

export interface DeliverySettings {
  highWaterBytes: number;
  /** A socket with more than this queued in the process is terminated: it stopped reading. */
  maxBufferedBytes: number;
  owedRetryMs: number;
}

/**
 * Hands pre-serialized payloads to sockets without ever queueing unbounded data for a slow one.
 * A socket with more than `highWaterBytes` waiting in the process skips intermediate snapshots and
 * voters messages; it owes the newest snapshot of each poll it skipped, which one shared timer
 * sends as soon as the socket has drained. So every viewer ends with the final totals, and a
 * viewer that stops reading costs at most one pending snapshot per poll. A socket whose backlog
 * still passes `maxBufferedBytes` (the messages sent whatever the backlog, one big message) is
 * terminated, so no client can make the process hold more than that for it.
 */
export class Delivery {
  readonly counters: DeliveryCounters = { framesSent: 0, snapshotsDeferred: 0, votersSkipped: 0, overflowClosed: 0 };
  private readonly owing = new Set<Viewer>();
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly settings: DeliverySettings,
    /** Forgets a socket this terminated (the hub detaches it at once instead of on its close event). */
    private readonly onTerminated: (viewer: Viewer) => void,
  ) {}

  /** Sockets owing a snapshot. */
  get owingCount(): number {
    return this.owing.size;
  }

  /** The channel's newest snapshot, or, on a slow socket, a note that it is owed. */
  snapshot(viewer: Viewer, channel: TopicChannel): void {
    const socket = viewer.socket;
    if (socket.readyState !== OPEN || !channel.payload || !channel.frame) return;
    if (socket.bufferedAmount > this.settings.highWaterBytes) {
      if (socket.bufferedAmount > this.settings.maxBufferedBytes) return this.terminate(viewer);
      (viewer.owed ??= new Set()).add(channel);
      this.owing.add(viewer);
      this.counters.snapshotsDeferred++;
      this.startTimer();
      return;
    }
    viewer.owed?.delete(channel);
    sendFramed(socket, channel.payload, channel.frame);
    this.counters.framesSent++;
  }

  /** A voters message: skipped on a slow socket (the totals still arrive; the list resyncs over HTTP). */
  voters(viewer: Viewer, payload: Buffer, frame: Buffer): void {
    const socket = viewer.socket;
    if (socket.readyState !== OPEN) return;
    if (socket.bufferedAmount > this.settings.highWaterBytes) {
      if (socket.bufferedAmount > this.settings.maxBufferedBytes) return this.terminate(viewer);
      this.counters.votersSkipped++;
      return;
    }
    sendFramed(socket, payload, frame);
    this.counters.framesSent++;
  }

  /** Small, rare messages (statuses, resets, errors, pongs): sent whatever the socket's backlog, up to maxBufferedBytes. */
  now(viewer: Viewer, payload: Buffer | string): void {
    const socket = viewer.socket;
    if (socket.readyState !== OPEN) return;
    if (socket.bufferedAmount > this.settings.maxBufferedBytes) return this.terminate(viewer);
    socket.send(payload, SEND_TEXT);
    this.counters.framesSent++;
  }

  forget(viewer: Viewer): void {
    this.owing.delete(viewer);
  }

  private terminate(viewer: Viewer): void {
    this.owing.delete(viewer);
    this.counters.overflowClosed++;
    viewer.socket.terminate();
    this.onTerminated(viewer);
  }

  private startTimer(): void {
    if (this.timer || this.closed) return;
    this.timer = setInterval(() => this.payDebts(), this.settings.owedRetryMs);
    this.timer.unref();
  }

  /** Sends each slow socket that has drained the newest snapshot of every poll it skipped. */
  private payDebts(): void {
    const { highWaterBytes, maxBufferedBytes } = this.settings;
    for (const viewer of this.owing) {
      if (viewer.closed || viewer.socket.readyState !== OPEN || !viewer.owed || viewer.owed.size === 0) {
        this.owing.delete(viewer);
        continue;
      }
      const buffered = viewer.socket.bufferedAmount;
      if (buffered > maxBufferedBytes) {
        this.terminate(viewer);
        continue;
      }
      if (buffered > highWaterBytes) continue;
      for (const channel of viewer.owed) {
        if (channel.payload && channel.frame && channel.viewers.has(viewer)) {
          sendFramed(viewer.socket, channel.payload, channel.frame);
          this.counters.framesSent++;
        }
      }
      viewer.owed.clear();
      this.owing.delete(viewer);
    }
    if (this.owing.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.owing.clear();
  }
}
