import type { FastifyBaseLogger } from 'fastify';
import type {
  LiveErrorCode,
  LiveErrorMessage,
  LiveEvent,
  PointsResetMessage,
  PollStatusMessage,
  ResultsSnapshot,
  VoterChange,
  VotersMessage,
} from '@tribuna/contracts/live';
import { LIVE_CLOSE_CODES, LIVE_MAX_SUBSCRIPTIONS_PER_SOCKET } from '@tribuna/contracts/live';
import type { ServerMessage } from '@tribuna/contracts/live';
import type { PollAccess } from './access.ts';
import { PollChannel, Viewer, type HubSocket } from './channels.ts';
import { Delivery } from './delivery.ts';
import { textFrame } from './frames.ts';

export type { HubSocket } from './channels.ts';

export interface HubSettings {
  /**
   * Snapshots per poll per second under load, however many votes arrive (a token bucket: a change
   * after a quiet spell goes out at once, and jitter in a steady stream is absorbed by the burst).
   */
  snapshotsPerSecond: number;
  /** Snapshots that may go out in a row before the rate applies. */
  snapshotBurst: number;
  /** Never two snapshots of a poll closer than this. */
  minSnapshotGapMs: number;
  /**
   * Share of this process's time a poll's snapshot fan-out may take: after a fan-out that took
   * T ms the next one waits at least T / share. With many viewers (thousands of sends per
   * snapshot) snapshots go out less often instead of the sends starving everything else the
   * process does (taking votes, answering requests) and piling stale snapshots on the viewers.
   */
  maxFanoutShare: number;
  /** A socket with more than this queued is slow: it skips intermediate messages and owes the latest snapshot. */
  highWaterBytes: number;
  /** A socket with more than this queued is terminated (it stopped reading); far above highWaterBytes. */
  maxBufferedBytes: number;
  /** How often owed snapshots are retried on slow sockets. */
  owedRetryMs: number;
  /** Ping period; a socket that did not answer the previous ping is terminated. */
  keepAliveMs: number;
  /** A tick that failed (Redis down) is retried after this long. */
  retryMs: number;
  maxSubscriptionsPerSocket: number;
  /**
   * Voters messages go out at most this often per poll (the first after a quiet spell at once), and
   * no more often than maxFanoutShare allows: under a flood of votes they would otherwise cost
   * every viewer far more than the snapshots.
   */
  votersEveryMs: number;
  /** Voter changes per voters message: the newest (a display of recent voters; totals never depend on them). */
  maxVotersPerMessage: number;
  /**
   * Frames a socket may send in a burst (every frame: messages, malformed or refused ones, ws pings
   * and pongs), refilled at frameRefillPerSecond. The web client sends a ping every 25 s and a
   * subscribe or unsubscribe per poll it opens or leaves.
   */
  frameBurst: number;
  frameRefillPerSecond: number;
  /** Frames refused beyond the budget after which the socket is closed (policy violation). */
  frameOverdraft: number;
}

export const DEFAULT_HUB_SETTINGS: HubSettings = {
  snapshotsPerSecond: 10,
  snapshotBurst: 3,
  minSnapshotGapMs: 25,
  maxFanoutShare: 0.5,
  highWaterBytes: 64 * 1024,
  maxBufferedBytes: 1024 * 1024,
  owedRetryMs: 100,
  keepAliveMs: 30_000,
  retryMs: 1000,
  maxSubscriptionsPerSocket: LIVE_MAX_SUBSCRIPTIONS_PER_SOCKET,
  votersEveryMs: 1000,
  maxVotersPerMessage: 10,
  frameBurst: 40,
  frameRefillPerSecond: 1,
  frameOverdraft: 10,
};

export interface HubDependencies {
  /** The current snapshot of a poll (rebuilt first if missing). */
  readSnapshot(pollId: string): Promise<ResultsSnapshot>;
  checkAccess(pollId: string): Promise<PollAccess>;
  invalidateAccess(pollId: string): void;
  log: FastifyBaseLogger;
  /** Milliseconds clock timing the fan-outs (performance.now; a test may pass its own). */
  clock?: () => number;
}

export interface HubStats {
  /** Open sockets on this instance. */
  connections: number;
  /** Socket × poll subscriptions on this instance. */
  subscriptions: number;
  /** Polls with at least one local viewer. */
  polls: number;
  /** Sockets owing a snapshot they skipped while slow. */
  owing: number;
  /** Snapshots built (one Redis read, one serialization each). */
  snapshots: number;
  /** Frames handed to sockets (snapshots, voters, statuses, resets). */
  framesSent: number;
  /** Snapshots skipped on a slow socket (it gets the newest later). */
  snapshotsDeferred: number;
  /** Voters messages skipped on a slow socket. */
  votersSkipped: number;
  /** Sockets terminated because their backlog passed maxBufferedBytes. */
  overflowClosed: number;
  /** Client frames dropped for want of budget. */
  framesRefused: number;
  /** Sockets closed for sending past their frame budget. */
  rateLimitClosed: number;
  /** LiveEvents received from Redis. */
  events: number;
  /** Ticks that failed to read the totals (retried). */
  tickErrors: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * This instance's websocket fan-out. Every instance receives every LiveEvent (one Redis
 * subscription) and keeps, per watched poll, a coalescing timer: on each tick it reads the totals
 * once, serializes one snapshot and hands the same buffer to every local viewer, so the cost per
 * tick is one Redis round trip and one cheap send per viewer, however many votes arrived.
 * Slow sockets skip intermediate snapshots but always end with the newest one.
 */
export class LiveHub {
  readonly settings: HubSettings;
  private readonly viewers = new Set<Viewer>();
  private readonly channels = new Map<string, PollChannel>();
  private readonly delivery: Delivery;
  private readonly keepAliveTimer: NodeJS.Timeout;
  private closed = false;
  private readonly counters = { snapshots: 0, events: 0, tickErrors: 0, framesRefused: 0, rateLimitClosed: 0 };
  private readonly clock: () => number;

  constructor(
    private readonly deps: HubDependencies,
    settings: Partial<HubSettings> = {},
  ) {
    this.settings = { ...DEFAULT_HUB_SETTINGS, ...settings };
    this.clock = deps.clock ?? (() => performance.now());
    this.delivery = new Delivery(this.settings, (viewer) => this.detach(viewer));
    this.keepAliveTimer = setInterval(() => this.keepAlive(), this.settings.keepAliveMs);
    this.keepAliveTimer.unref();
  }

  stats(): HubStats {
    let subscriptions = 0;
    for (const channel of this.channels.values()) subscriptions += channel.viewers.size;
    return {
      connections: this.viewers.size,
      subscriptions,
      polls: this.channels.size,
      owing: this.delivery.owingCount,
      ...this.counters,
      ...this.delivery.counters,
    };
  }

  /** Polls with local viewers whose results are public: those whose totals are worth reconciling. */
  watchedPolls(): string[] {
    const ids: string[] = [];
    for (const channel of this.channels.values()) if (channel.showResults) ids.push(channel.pollId);
    return ids;
  }

  // ─── sockets ────────────────────────────────────────────────────────────────────────────────

  attach(socket: HubSocket, userId: string | null): Viewer {
    const viewer = new Viewer(socket, userId, this.settings.frameBurst);
    this.viewers.add(viewer);
    socket.on('pong', () => {
      viewer.alive = true;
      this.admit(viewer);
    });
    // ws answers pings by itself; they still spend the budget.
    socket.on('ping', () => this.admit(viewer));
    socket.on('close', () => this.detach(viewer));
    socket.on('error', () => this.detach(viewer));
    return viewer;
  }

  detach(viewer: Viewer): void {
    if (viewer.closed) return;
    viewer.closed = true;
    this.viewers.delete(viewer);
    this.delivery.forget(viewer);
    viewer.pending.clear();
    for (const channel of viewer.channels.values()) this.leave(viewer, channel);
    viewer.channels.clear();
  }

  /** Any frame from the client shows the connection is alive. */
  touch(viewer: Viewer): void {
    viewer.alive = true;
  }

  sendError(viewer: Viewer, code: LiveErrorCode, pollId?: string): void {
    const message: LiveErrorMessage = pollId === undefined ? { type: 'error', code } : { type: 'error', code, pollId };
    this.delivery.now(viewer, JSON.stringify(message));
  }

  /** A reply to the client (a pong): dropped on a closed socket, and subject to maxBufferedBytes. */
  reply(viewer: Viewer, message: ServerMessage): void {
    this.delivery.now(viewer, JSON.stringify(message));
  }

  /**
   * Spends one token of the socket's frame budget for a frame it sent; false: drop the frame. Refused
   * frames spend too (the budget goes into debt), so a socket that keeps sending faster than the
   * refill sinks: the first refused frame since the last admitted one is answered 'rate-limited'
   * (with the poll of a refused subscribe, which the client retries later), and past frameOverdraft
   * the socket is closed as a policy violation.
   */
  admit(viewer: Viewer, subscribePollId?: unknown): boolean {
    if (viewer.closed) return false;
    const now = Date.now();
    const { frameBurst, frameRefillPerSecond, frameOverdraft } = this.settings;
    viewer.tokens = Math.min(frameBurst, viewer.tokens + ((now - viewer.tokensAt) / 1000) * frameRefillPerSecond) - 1;
    viewer.tokensAt = now;
    if (viewer.tokens >= 0) {
      viewer.warned = false;
      return true;
    }
    this.counters.framesRefused++;
    if (viewer.tokens < -frameOverdraft) {
      this.counters.rateLimitClosed++;
      viewer.socket.close(LIVE_CLOSE_CODES.policyViolation, 'rate limit exceeded');
      this.detach(viewer);
    } else if (!viewer.warned) {
      viewer.warned = true;
      const pollId = typeof subscribePollId === 'string' && UUID.test(subscribePollId) ? subscribePollId.toLowerCase() : undefined;
      this.sendError(viewer, 'rate-limited', pollId);
    }
    return false;
  }

  /**
   * Starts sending a poll's results to this socket: at once the current snapshot, then every
   * coalesced change. A poll that is missing or a draft is refused (the socket stays open); a poll
   * whose results are hidden only gets status changes. The frame was admitted (admit) already.
   */
  async subscribe(viewer: Viewer, pollId: unknown): Promise<void> {
    if (typeof pollId !== 'string' || !UUID.test(pollId)) return this.sendError(viewer, 'invalid-message');
    const id = pollId.toLowerCase();
    if (viewer.closed || viewer.pending.has(id)) return;
    const existing = viewer.channels.get(id);
    if (existing) {
      // Subscribing again asks for the current state.
      this.sendCurrent(viewer, existing);
      return;
    }
    if (viewer.channels.size + viewer.pending.size >= this.settings.maxSubscriptionsPerSocket) {
      return this.sendError(viewer, 'too-many-subscriptions', id);
    }

    viewer.pending.add(id);
    let access: PollAccess;
    try {
      access = await this.deps.checkAccess(id);
    } catch (err) {
      this.deps.log.warn({ err, pollId: id }, 'live subscribe: poll lookup failed');
      if (viewer.pending.delete(id)) this.sendError(viewer, 'unavailable', id);
      return;
    }
    // Unsubscribed (or closed) while the lookup ran.
    if (!viewer.pending.delete(id) || viewer.closed || this.closed) return;
    if (!access.visible) return this.sendError(viewer, 'poll-not-found', id);

    let channel = this.channels.get(id);
    if (!channel) {
      channel = new PollChannel(id, access.showResults, this.settings.snapshotBurst);
      this.channels.set(id, channel);
    }
    channel.viewers.add(viewer);
    viewer.channels.set(id, channel);
    this.sendCurrent(viewer, channel);
  }

  unsubscribe(viewer: Viewer, pollId: unknown): void {
    if (typeof pollId !== 'string') return;
    const id = pollId.toLowerCase();
    viewer.pending.delete(id);
    const channel = viewer.channels.get(id);
    if (!channel) return;
    viewer.channels.delete(id);
    this.leave(viewer, channel);
  }

  private leave(viewer: Viewer, channel: PollChannel): void {
    channel.viewers.delete(viewer);
    channel.awaitingFirst.delete(viewer);
    viewer.owed?.delete(channel);
    if (channel.viewers.size === 0 && this.channels.get(channel.pollId) === channel) {
      this.channels.delete(channel.pollId);
      if (channel.timer) clearTimeout(channel.timer);
      channel.timer = null;
    }
  }

  /** The newest snapshot when it is known to be current, else the next tick's (scheduled now). */
  private sendCurrent(viewer: Viewer, channel: PollChannel): void {
    if (!channel.showResults) return;
    if (channel.payload && !channel.dirty && !channel.running) {
      this.delivery.snapshot(viewer, channel);
      return;
    }
    channel.awaitingFirst.add(viewer);
    if (!channel.payload) channel.dirty = true;
    this.schedule(channel);
  }

  // ─── events from Redis ──────────────────────────────────────────────────────────────────────

  /** A raw message of the live channel. Anything malformed is ignored. */
  handleRawEvent(raw: string): void {
    let event: LiveEvent;
    try {
      event = JSON.parse(raw) as LiveEvent;
    } catch {
      return;
    }
    if (event && typeof event === 'object') this.handleEvent(event);
  }

  handleEvent(event: LiveEvent): void {
    this.counters.events++;
    switch (event.kind) {
      case 'votes': {
        const channel = this.channels.get(event.pollId);
        if (!channel || !channel.showResults) return;
        const { maxVotersPerMessage } = this.settings;
        if (Array.isArray(event.added) && event.added.length > 0) {
          channel.added.push(...event.added);
          if (channel.added.length > 2 * maxVotersPerMessage) channel.added.splice(0, channel.added.length - maxVotersPerMessage);
        }
        if (Array.isArray(event.removed) && event.removed.length > 0) {
          channel.removed.push(...event.removed);
          if (channel.removed.length > 2 * maxVotersPerMessage) channel.removed.splice(0, channel.removed.length - maxVotersPerMessage);
        }
        if (typeof event.seq === 'number' && event.seq > channel.votersSeq) channel.votersSeq = event.seq;
        channel.dirty = true;
        this.schedule(channel);
        return;
      }
      case 'poll-status': {
        this.deps.invalidateAccess(event.pollId);
        const channel = this.channels.get(event.pollId);
        if (!channel) return;
        const message: PollStatusMessage = {
          type: 'poll-status',
          pollId: event.pollId,
          status: event.status,
          isFeatured: event.isFeatured,
        };
        const payload = Buffer.from(JSON.stringify(message));
        for (const viewer of channel.viewers) this.delivery.now(viewer, payload);
        void this.refreshAccess(channel.pollId);
        return;
      }
      case 'points-reset': {
        const message: PointsResetMessage = { type: 'points-reset', day: event.day };
        const payload = Buffer.from(JSON.stringify(message));
        for (const viewer of this.viewers) this.delivery.now(viewer, payload);
        return;
      }
    }
  }

  /** Events may have been missed (the subscriber reconnected): every watched poll refreshes. */
  resyncAll(): void {
    for (const channel of this.channels.values()) {
      if (!channel.showResults) continue;
      channel.dirty = true;
      this.schedule(channel);
    }
  }

  /** Re-reads whether the poll's results are public (an admin may have changed it). */
  async refreshAccess(pollId: string): Promise<void> {
    let access: PollAccess;
    try {
      access = await this.deps.checkAccess(pollId);
    } catch {
      return;
    }
    const channel = this.channels.get(pollId);
    if (!channel) return;
    const shown = access.visible && access.showResults;
    if (shown === channel.showResults) return;
    channel.showResults = shown;
    if (shown) {
      for (const viewer of channel.viewers) channel.awaitingFirst.add(viewer);
      channel.dirty = true;
      this.schedule(channel);
    } else {
      channel.payload = null;
      channel.frame = null;
      channel.seq = -1;
      channel.awaitingFirst.clear();
      channel.added = [];
      channel.removed = [];
    }
  }

  async refreshAllAccess(): Promise<void> {
    await Promise.all([...this.channels.keys()].map((id) => this.refreshAccess(id)));
  }

  // ─── ticks ─────────────────────────────────────────────────────────────────────────────────

  /** When the totals of a dirty channel may be read next: the snapshot budget, the minimum gap, a retry delay. */
  private totalsDueAt(channel: PollChannel, now: number): number {
    const { snapshotsPerSecond, snapshotBurst, minSnapshotGapMs } = this.settings;
    channel.tokens = Math.min(snapshotBurst, channel.tokens + ((now - channel.tokensAt) * snapshotsPerSecond) / 1000);
    channel.tokensAt = now;
    const byBudget = channel.tokens >= 1 ? now : now + Math.ceil(((1 - channel.tokens) * 1000) / snapshotsPerSecond);
    const gap = Math.max(minSnapshotGapMs, Math.ceil(channel.fanoutMs / this.settings.maxFanoutShare));
    return Math.max(byBudget, channel.lastReadAt + gap, channel.retryAt);
  }

  /**
   * Arms the channel's one timer for its next due work: the totals when dirty (within the snapshot
   * budget), else pending voters no sooner than votersEveryMs after the last ones.
   */
  private schedule(channel: PollChannel): void {
    if (channel.running || this.closed) return;
    const votersPending = channel.added.length > 0 || channel.removed.length > 0;
    if (!channel.dirty && !votersPending) return;
    const dueAt = channel.dirty ? this.totalsDueAt(channel, Date.now()) : channel.votersDueAt;
    if (channel.timer !== null) {
      if (channel.timerAt <= dueAt) return;
      clearTimeout(channel.timer);
    }
    channel.timerAt = dueAt;
    channel.timer = setTimeout(this.runTick, Math.max(0, dueAt - Date.now()), channel);
  }

  private readonly runTick = (channel: PollChannel): void => {
    void this.tick(channel);
  };

  private async tick(channel: PollChannel): Promise<void> {
    channel.timer = null;
    if (this.closed || this.channels.get(channel.pollId) !== channel) return;
    const now = Date.now();
    const readTotals = channel.dirty && now >= this.totalsDueAt(channel, now);
    const votersPending = channel.added.length > 0 || channel.removed.length > 0;
    const sendVoters = votersPending && now >= channel.votersDueAt;
    if (!readTotals && !sendVoters) {
      this.schedule(channel);
      return;
    }
    channel.running = true;
    if (readTotals) {
      channel.dirty = false;
      channel.tokens -= 1;
      channel.lastReadAt = now;
    }
    const { added, removed, votersSeq } = channel;
    if (sendVoters) {
      channel.added = [];
      channel.removed = [];
      channel.votersSeq = 0;
      // Voters messages are the bigger ones: paced by their own fan-out cost like the snapshots.
      channel.votersDueAt = now + Math.max(this.settings.votersEveryMs, Math.ceil(channel.votersFanoutMs / this.settings.maxFanoutShare));
    }
    try {
      if (readTotals) {
        const snapshot = await this.deps.readSnapshot(channel.pollId);
        if (this.closed || this.channels.get(channel.pollId) !== channel || !channel.showResults) return;
        if (snapshot.seq > channel.seq) {
          channel.seq = snapshot.seq;
          channel.payload = Buffer.from(JSON.stringify(snapshot));
          channel.frame = textFrame(channel.payload);
          this.counters.snapshots++;
          channel.awaitingFirst.clear();
          const started = this.clock();
          for (const viewer of channel.viewers) this.delivery.snapshot(viewer, channel);
          channel.fanoutMs = this.clock() - started;
        } else if (channel.awaitingFirst.size > 0) {
          for (const viewer of channel.awaitingFirst) this.delivery.snapshot(viewer, channel);
          channel.awaitingFirst.clear();
        }
      }
      if (sendVoters) this.broadcastVoters(channel, added, removed, votersSeq || channel.seq);
    } catch (err) {
      if (this.closed) return;
      this.counters.tickErrors++;
      this.deps.log.warn({ err, pollId: channel.pollId }, 'live snapshot failed; retrying');
      channel.dirty = true;
      channel.retryAt = Date.now() + this.settings.retryMs;
      if (sendVoters) {
        // Keep the voter changes for the retry (the oldest go first if the list overflows).
        const max = this.settings.maxVotersPerMessage;
        channel.added = added.concat(channel.added).slice(-max);
        channel.removed = removed.concat(channel.removed).slice(-max);
        if (votersSeq > channel.votersSeq) channel.votersSeq = votersSeq;
        channel.votersDueAt = channel.retryAt;
      }
    } finally {
      channel.running = false;
      if (this.channels.get(channel.pollId) === channel) this.schedule(channel);
    }
  }

  private broadcastVoters(
    channel: PollChannel,
    added: VoterChange[],
    removed: { optionId: string; userId: string }[],
    seq: number,
  ): void {
    const max = this.settings.maxVotersPerMessage;
    const message: VotersMessage = {
      type: 'voters',
      pollId: channel.pollId,
      seq,
      added: added.length > max ? added.slice(-max) : added,
      removed: removed.length > max ? removed.slice(-max) : removed,
    };
    const payload = Buffer.from(JSON.stringify(message));
    const frame = textFrame(payload);
    const started = this.clock();
    for (const viewer of channel.viewers) this.delivery.voters(viewer, payload, frame);
    channel.votersFanoutMs = this.clock() - started;
  }

  private keepAlive(): void {
    for (const viewer of this.viewers) {
      if (!viewer.alive) {
        viewer.socket.terminate();
        this.detach(viewer);
        continue;
      }
      viewer.alive = false;
      try {
        viewer.socket.ping();
      } catch {
        // closing already
      }
    }
  }

  close(): void {
    this.closed = true;
    clearInterval(this.keepAliveTimer);
    this.delivery.close();
    for (const channel of this.channels.values()) if (channel.timer) clearTimeout(channel.timer);
    this.channels.clear();
  }
}
