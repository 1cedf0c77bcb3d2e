import type { FastifyBaseLogger } from 'fastify';
import type { LiveErrorCode, LiveErrorMessage, LiveTopicFamily, ServerMessage } from '@tribuna/contracts/live';
import { LIVE_CLOSE_CODES, LIVE_MAX_SUBSCRIPTIONS_PER_SOCKET, parseTopic } from '@tribuna/contracts/live';
import { TopicChannel, Viewer, type HubSocket, type LiveUser } from './channels.ts';
import { Delivery } from './delivery.ts';
import { textFrame } from './frames.ts';
import { TopicRegistry, type TopicHandler, type TopicPacing } from './topics.ts';

export type { HubSocket } from './channels.ts';

/**
 * The hub's figures. Its pacing (TopicPacing: snapshotsPerSecond, snapshotBurst, changesEveryMs,
 * maxChangesPerMessage) is every family's unless the family's handler sets its own.
 */
export interface HubSettings extends TopicPacing {
  /**
   * Never two reads of a topic's snapshot closer than this. While a walk hands the snapshot out
   * (rolling delivery, LiveHub.rotate) the topic is read this often when it changed, so the rest of
   * the walk hands out a snapshot at most this old.
   */
  minSnapshotGapMs: number;
  /**
   * Share of this process's time a topic's changes message fan-out may take: after one that took
   * T ms the next waits at least T / share. (Snapshots need no such bound: a walk hands each viewer
   * at most one frame, the newest, so a long walk means fewer frames, never a queue of stale ones.)
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
  /**
   * The period's pings go out in this many steps, each to the next share of the sockets: a pass
   * over 10,000 sockets at once (about as long as a snapshot's) made the walks it crossed twice as
   * long, which was the vote-to-screen p99 of the fan-out bench.
   */
  keepAliveSteps: number;
  /** A tick that failed (Redis down) is retried after this long. */
  retryMs: number;
  maxSubscriptionsPerSocket: number;
  /**
   * Frames a socket may send in a burst (every frame: messages, malformed or refused ones, ws pings
   * and pongs), refilled at frameRefillPerSecond. The web client sends a ping every 25 s and a
   * subscribe or unsubscribe per poll it opens or leaves.
   */
  frameBurst: number;
  frameRefillPerSecond: number;
  /** Frames refused beyond the budget after which the socket is closed (policy violation). */
  frameOverdraft: number;
  /**
   * A fan-out hands a frame to at most this many sockets, then lets the event loop run (requests,
   * votes, taps) before the next slice: thousands of viewers never hold the process for a whole
   * pass. The pacing counts the slices' own time, not the waits between them.
   */
  fanoutSlice: number;
  /**
   * A slice also ends once it has taken this long: one socket write costs 10–30 µs on loopback
   * (more on a busy machine), so 1,000 of them could hold a request, a vote or a tap for 30 ms at
   * every step of its way through the process (measured: 28 µs per write, taps answered in
   * p50 42 ms / p99 250 ms beside a 10,000-viewer fan-out).
   */
  fanoutSliceMs: number;
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
  keepAliveSteps: 30,
  retryMs: 1000,
  maxSubscriptionsPerSocket: LIVE_MAX_SUBSCRIPTIONS_PER_SOCKET,
  changesEveryMs: 1000,
  maxChangesPerMessage: 10,
  fanoutSlice: 1000,
  fanoutSliceMs: 4,
  frameBurst: 40,
  frameRefillPerSecond: 1,
  frameOverdraft: 10,
};

export interface HubDependencies {
  log: FastifyBaseLogger;
  /** Milliseconds clock timing the fan-outs (performance.now; a test may pass its own). */
  clock?: () => number;
}

export interface HubStats {
  /** Open sockets on this instance. */
  connections: number;
  /** Socket × topic subscriptions on this instance. */
  subscriptions: number;
  /** Topics with at least one local viewer. */
  topics: number;
  /** Sockets owing a snapshot they skipped while slow. */
  owing: number;
  /** Snapshots built (one Redis read, one serialization each). */
  snapshots: number;
  /** Frames handed to sockets (snapshots, changes messages, statuses, resets). */
  framesSent: number;
  /** Snapshots skipped on a slow socket (it gets the newest later). */
  snapshotsDeferred: number;
  /** Changes messages (a poll's voters) skipped on a slow socket (the delivery's name for the count). */
  votersSkipped: number;
  /** Sockets terminated because their backlog passed maxBufferedBytes. */
  overflowClosed: number;
  /** Client frames dropped for want of budget. */
  framesRefused: number;
  /** Sockets closed for sending past their frame budget. */
  rateLimitClosed: number;
  /** Ticks that failed to read the totals (retried). */
  tickErrors: number;
}

/**
 * This instance's websocket fan-out, for every topic. Domains register a TopicHandler per topic
 * family (who may watch, how to read a snapshot); the hub owns the sockets, their frame budgets,
 * keepalive and delivery. A topic with snapshots keeps a coalescing timer: when its domain says it
 * changed (`changed`), the next tick reads the snapshot once, serializes it once, and a walk over
 * the local viewers hands each the newest buffer, however many changes arrived (rolling delivery:
 * a snapshot read during a walk goes to the viewers the walk has not reached, and the next walk
 * brings it to the others; see rotate). Slow sockets skip intermediate snapshots but always end
 * with the newest one. Lists of changes pushed with it (a poll's voters)
 * are merged and go out together, paced, in the message the topic's handler builds
 * (`changesMessage`). Other messages go out as they come (`publish`).
 */
export class LiveHub {
  readonly settings: HubSettings;
  readonly topics = new TopicRegistry();
  private readonly viewers = new Set<Viewer>();
  private readonly channels = new Map<string, TopicChannel>();
  private readonly delivery: Delivery;
  private readonly keepAliveTimer: NodeJS.Timeout;
  private closed = false;
  private readonly counters = { snapshots: 0, tickErrors: 0, framesRefused: 0, rateLimitClosed: 0 };
  private readonly clock: () => number;
  /** A keep-alive step is under way (its slices span several turns of the event loop). */
  private pinging = false;
  /** The sockets of the keep-alive period under way, the next one to ping, and the step. */
  private pingQueue: Viewer[] = [];
  private pingNext = 0;
  private pingStep = 0;

  constructor(
    private readonly deps: HubDependencies,
    settings: Partial<HubSettings> = {},
  ) {
    this.settings = { ...DEFAULT_HUB_SETTINGS, ...settings };
    this.clock = deps.clock ?? (() => performance.now());
    this.delivery = new Delivery(this.settings, (viewer) => this.detach(viewer));
    this.keepAliveTimer = setInterval(() => void this.keepAlive(), this.settings.keepAliveMs / this.settings.keepAliveSteps);
    this.keepAliveTimer.unref();
  }

  stats(): HubStats {
    let subscriptions = 0;
    for (const channel of this.channels.values()) subscriptions += channel.viewers.size;
    return {
      connections: this.viewers.size,
      subscriptions,
      topics: this.channels.size,
      owing: this.delivery.owingCount,
      ...this.counters,
      ...this.delivery.counters,
    };
  }

  registerTopic(handler: TopicHandler): void {
    this.topics.register(handler);
  }

  /** A family's pacing: its handler's figures where it sets them, else the hub's. */
  pacingOf(family: LiveTopicFamily): TopicPacing {
    const handler = this.topics.get(family);
    const paced = <K extends keyof TopicPacing>(name: K) => (handler ? this.paced(handler, name) : this.settings[name]);
    return {
      snapshotsPerSecond: paced('snapshotsPerSecond'),
      snapshotBurst: paced('snapshotBurst'),
      changesEveryMs: paced('changesEveryMs'),
      maxChangesPerMessage: paced('maxChangesPerMessage'),
    };
  }

  /** One figure of a handler's pacing, the hub's where the handler sets none. */
  private paced<K extends keyof TopicPacing>(handler: TopicHandler, name: K): number {
    return handler.pacing?.[name] ?? this.settings[name];
  }

  /** Keys of the topics of `family` with local viewers and snapshots on (e.g. the polls worth reconciling). */
  watched(family: string): string[] {
    const keys: string[] = [];
    for (const channel of this.channels.values()) {
      if (channel.snapshots && channel.handler.family === family && channel.key !== null) keys.push(channel.key);
    }
    return keys;
  }

  // ─── sockets ────────────────────────────────────────────────────────────────────────────────

  attach(socket: HubSocket, user: LiveUser | null): Viewer {
    const viewer = new Viewer(socket, user, this.settings.frameBurst);
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

  /**
   * Closes the sockets of a session that ended, or of a user whose role or suspension changed
   * (LIVE_CLOSE_CODES.sessionChanged): the client reconnects at once as whatever its cookie says
   * now, so a deleted or signed-out account stops hearing its `user:{id}` topic on every instance.
   */
  disconnect(change: { sessionId?: string; userId?: string }): number {
    let closed = 0;
    for (const viewer of [...this.viewers]) {
      const user = viewer.user;
      if (!user) continue;
      if ((change.sessionId && user.sessionId === change.sessionId) || (change.userId && user.id === change.userId)) {
        viewer.socket.close(LIVE_CLOSE_CODES.sessionChanged, 'session changed');
        this.detach(viewer);
        closed++;
      }
    }
    return closed;
  }

  /** Any frame from the client shows the connection is alive. */
  touch(viewer: Viewer): void {
    viewer.alive = true;
  }

  sendError(viewer: Viewer, code: LiveErrorCode, topic?: string): void {
    const message: LiveErrorMessage = topic === undefined ? { type: 'error', code } : { type: 'error', code, topic };
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
   * (with the topic of a refused subscribe, which the client retries later), and past frameOverdraft
   * the socket is closed as a policy violation.
   */
  admit(viewer: Viewer, subscribeTopic?: string): boolean {
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
      this.sendError(viewer, 'rate-limited', subscribeTopic === undefined ? undefined : (this.canonical(subscribeTopic)?.topic ?? undefined));
    }
    return false;
  }

  /** The handler, canonical name and key of a topic string; null when malformed or of an unknown family. */
  private canonical(topic: string): { handler: TopicHandler; topic: string; key: string | null } | null {
    const parsed = parseTopic(topic);
    if (!parsed) return null;
    const handler = this.topics.get(parsed.family);
    if (!handler) return null;
    const key = handler.normalizeKey(parsed.key);
    if (key === undefined) return null;
    return { handler, topic: key === null ? parsed.family : `${parsed.family}:${key}`, key };
  }

  /**
   * Starts sending a topic to this socket: at once its current snapshot (topics with snapshots),
   * then every change. The topic's handler decides whether this socket's user may watch it; a
   * refusal (`not-found`, `forbidden`) leaves the socket open. The frame was admitted already.
   */
  async subscribe(viewer: Viewer, topic: string): Promise<void> {
    const target = this.canonical(topic);
    if (!target) return this.sendError(viewer, 'invalid-message', topic.length <= 100 ? topic : undefined);
    const name = target.topic;
    if (viewer.closed || viewer.pending.has(name)) return;
    const existing = viewer.channels.get(name);
    if (existing) {
      // Subscribing again asks for the current state.
      this.sendCurrent(viewer, existing);
      return;
    }
    if (viewer.channels.size + viewer.pending.size >= this.settings.maxSubscriptionsPerSocket) {
      return this.sendError(viewer, 'too-many-subscriptions', name);
    }

    viewer.pending.add(name);
    let decision;
    try {
      decision = await target.handler.authorize(target.key, viewer.user);
    } catch (err) {
      this.deps.log.warn({ err, topic: name }, 'live subscribe: access check failed');
      if (viewer.pending.delete(name)) this.sendError(viewer, 'unavailable', name);
      return;
    }
    // Unsubscribed (or closed) while the check ran.
    if (!viewer.pending.delete(name) || viewer.closed || this.closed) return;
    if (!decision.ok) return this.sendError(viewer, decision.code, name);

    let channel = this.channels.get(name);
    if (!channel) {
      const snapshots = decision.snapshots && target.handler.readSnapshot !== undefined;
      channel = new TopicChannel(name, target.key, target.handler, snapshots, this.paced(target.handler, 'snapshotBurst'));
      this.channels.set(name, channel);
    }
    channel.viewers.add(viewer);
    viewer.channels.set(name, channel);
    this.sendCurrent(viewer, channel);
  }

  unsubscribe(viewer: Viewer, topic: string): void {
    const name = this.canonical(topic)?.topic;
    if (name === undefined) return;
    viewer.pending.delete(name);
    const channel = viewer.channels.get(name);
    if (!channel) return;
    viewer.channels.delete(name);
    this.leave(viewer, channel);
  }

  /** The keys of the local topics of `family` with viewers (e.g. the posts watched on this instance). */
  topicKeys(family: LiveTopicFamily): string[] {
    const keys: string[] = [];
    for (const channel of this.channels.values()) if (channel.handler.family === family && channel.key !== null) keys.push(channel.key);
    return keys;
  }

  /**
   * Asks the handler of each of `topics` again whether its local viewers (only the sockets of
   * `userIds`, when given) may still watch it, and drops the subscriptions refused at once: a fan
   * removed from a private group stops hearing it and its posts. Each user (or visitor) is asked
   * once per topic; a check that fails keeps the subscription (logged). Resolves to the number dropped.
   */
  async recheckAccess(topics: Iterable<string>, userIds?: ReadonlySet<string>): Promise<number> {
    let dropped = 0;
    await Promise.all(
      [...new Set(topics)].map(async (topic) => {
        const channel = this.channels.get(topic);
        if (!channel) return;
        // Sockets of one user with the same powers (role, second factor, suspension) get one answer.
        const byUser = new Map<string, Viewer[]>();
        for (const viewer of channel.viewers) {
          if (userIds && (viewer.userId === null || !userIds.has(viewer.userId))) continue;
          const { user } = viewer;
          const key = user ? `${user.id}|${user.role}|${user.level ?? ''}|${user.isSuspended === true}` : '';
          const list = byUser.get(key) ?? [];
          list.push(viewer);
          byUser.set(key, list);
        }
        await Promise.all(
          [...byUser.values()].map(async (viewers) => {
            let decision;
            try {
              decision = await channel.handler.authorize(channel.key, viewers[0]!.user);
            } catch (err) {
              this.deps.log.warn({ err, topic }, 'live access recheck failed; the subscription stays');
              return;
            }
            if (decision.ok) return;
            for (const viewer of viewers) {
              if (viewer.channels.get(topic) !== channel) continue;
              viewer.channels.delete(topic);
              this.leave(viewer, channel);
              dropped++;
            }
          }),
        );
      }),
    );
    return dropped;
  }

  private leave(viewer: Viewer, channel: TopicChannel): void {
    channel.viewers.delete(viewer);
    channel.awaitingFirst.delete(viewer);
    channel.delivered.delete(viewer);
    viewer.owed?.delete(channel);
    if (channel.viewers.size === 0 && this.channels.get(channel.topic) === channel) {
      this.channels.delete(channel.topic);
      if (channel.timer) clearTimeout(channel.timer);
      channel.timer = null;
    }
  }

  /** The newest snapshot when it is known to be current, else the next tick's (scheduled now). */
  private sendCurrent(viewer: Viewer, channel: TopicChannel): void {
    if (!channel.snapshots) return;
    if (channel.payload && !channel.dirty && !channel.running) {
      this.sendSnapshot(viewer, channel);
      return;
    }
    channel.awaitingFirst.add(viewer);
    if (!channel.payload) channel.dirty = true;
    this.schedule(channel);
  }

  // ─── changes from the domains ──────────────────────────────────────────────────────────────

  /**
   * A topic's state changed: its snapshot is read again at the next paced tick. `changes` (a poll's
   * voters) are appended to the pending lists, keeping the newest maxChangesPerMessage, and go out
   * together at most every changesEveryMs (the topic's pacing) in the topic's changesMessage.
   * Without local viewers this costs nothing.
   */
  changed(topic: string, changes?: { added: unknown[]; removed: unknown[]; seq: number }): void {
    const channel = this.channels.get(topic);
    if (!channel || !channel.snapshots) return;
    if (changes) {
      const max = this.paced(channel.handler, 'maxChangesPerMessage');
      if (changes.added.length > 0) {
        channel.added.push(...changes.added);
        if (channel.added.length > 2 * max) channel.added.splice(0, channel.added.length - max);
      }
      if (changes.removed.length > 0) {
        channel.removed.push(...changes.removed);
        if (channel.removed.length > 2 * max) channel.removed.splice(0, channel.removed.length - max);
      }
      if (changes.seq > channel.changesSeq) channel.changesSeq = changes.seq;
    }
    channel.dirty = true;
    this.schedule(channel);
  }

  /** Whether `topic` has viewers on this instance (a domain may skip work no one here would see). */
  hasViewers(topic: string): boolean {
    const channel = this.channels.get(topic);
    return channel !== undefined && channel.viewers.size > 0;
  }

  /**
   * A message for every local viewer of `topic` (small and rare: sent whatever a socket's backlog),
   * but the sockets of the users in `skip` (who must not read it: a comment of somebody they muted
   * or are in a block with, issue 29).
   */
  publish(topic: string, message: object, skip?: ReadonlySet<string>): void {
    const channel = this.channels.get(topic);
    if (!channel) return;
    const payload = Buffer.from(JSON.stringify(message));
    for (const viewer of channel.viewers) {
      if (skip && viewer.userId !== null && skip.has(viewer.userId)) continue;
      this.delivery.now(viewer, payload);
    }
  }

  /** The signed-in users watching `topic` on this instance (each once). */
  viewerIds(topic: string): string[] {
    const channel = this.channels.get(topic);
    if (!channel) return [];
    const ids = new Set<string>();
    for (const viewer of channel.viewers) if (viewer.userId !== null) ids.add(viewer.userId);
    return [...ids];
  }

  /** A message for every socket of this instance (e.g. the daily points reset). */
  broadcast(message: object): void {
    const payload = Buffer.from(JSON.stringify(message));
    for (const viewer of this.viewers) this.delivery.now(viewer, payload);
  }

  /** Changes may have been missed (a subscriber reconnected): every watched topic with snapshots refreshes. */
  resyncAll(): void {
    for (const channel of this.channels.values()) {
      if (!channel.snapshots) continue;
      channel.dirty = true;
      this.schedule(channel);
    }
  }

  /**
   * Asks the topic's handler again whether its snapshots are public (an admin may have hidden a
   * poll's results): viewers then start or stop receiving them. Subscriptions stay.
   */
  async refreshAccess(topic: string): Promise<void> {
    const channel = this.channels.get(topic);
    if (!channel || !channel.handler.readSnapshot) return;
    let decision;
    try {
      decision = await channel.handler.authorize(channel.key, null);
    } catch {
      return;
    }
    if (this.channels.get(topic) !== channel) return;
    const shown = decision.ok && decision.snapshots;
    if (shown === channel.snapshots) return;
    channel.snapshots = shown;
    if (shown) {
      for (const viewer of channel.viewers) channel.awaitingFirst.add(viewer);
      channel.dirty = true;
      this.schedule(channel);
    } else {
      channel.payload = null;
      channel.frame = null;
      channel.seq = -1;
      channel.awaitingFirst.clear();
      channel.delivered.clear();
      channel.added = [];
      channel.removed = [];
    }
  }

  /** refreshAccess for every local topic of `family`. */
  async refreshAllAccess(family: string): Promise<void> {
    await Promise.all([...this.channels.values()].filter((c) => c.handler.family === family).map((c) => this.refreshAccess(c.topic)));
  }

  // ─── ticks ─────────────────────────────────────────────────────────────────────────────────

  /** When the totals of a dirty channel may be read next: the snapshot budget, the minimum gap, a retry delay. */
  private totalsDueAt(channel: TopicChannel, now: number): number {
    const { minSnapshotGapMs } = this.settings;
    const snapshotsPerSecond = this.paced(channel.handler, 'snapshotsPerSecond');
    const snapshotBurst = this.paced(channel.handler, 'snapshotBurst');
    channel.tokens = Math.min(snapshotBurst, channel.tokens + ((now - channel.tokensAt) * snapshotsPerSecond) / 1000);
    channel.tokensAt = now;
    // During a walk a read only refreshes what the rest of the walk hands out: the walks spend the budget.
    if (channel.rolling) return Math.max(channel.lastReadAt + minSnapshotGapMs, channel.retryAt);
    const byBudget = channel.tokens >= 1 ? now : now + Math.ceil(((1 - channel.tokens) * 1000) / snapshotsPerSecond);
    return Math.max(byBudget, channel.lastReadAt + minSnapshotGapMs, channel.retryAt);
  }

  /** How long until the snapshot budget allows another walk (0: now). */
  private walkWaitMs(channel: TopicChannel, now: number): number {
    const snapshotsPerSecond = this.paced(channel.handler, 'snapshotsPerSecond');
    channel.tokens = Math.min(this.paced(channel.handler, 'snapshotBurst'), channel.tokens + ((now - channel.tokensAt) * snapshotsPerSecond) / 1000);
    channel.tokensAt = now;
    return channel.tokens >= 1 ? 0 : Math.ceil(((1 - channel.tokens) * 1000) / snapshotsPerSecond);
  }

  /**
   * Arms the channel's one timer for its next due work: the totals when dirty (within the snapshot
   * budget), else pending changes no sooner than changesEveryMs after the last ones.
   */
  private schedule(channel: TopicChannel): void {
    if (channel.running || this.closed) return;
    const changesPending = channel.added.length > 0 || channel.removed.length > 0;
    if (!channel.dirty && !changesPending) return;
    const dueAt = channel.dirty ? this.totalsDueAt(channel, Date.now()) : channel.changesDueAt;
    if (channel.timer !== null) {
      if (channel.timerAt <= dueAt) return;
      clearTimeout(channel.timer);
    }
    channel.timerAt = dueAt;
    channel.timer = setTimeout(this.runTick, Math.max(0, dueAt - Date.now()), channel);
  }

  private readonly runTick = (channel: TopicChannel): void => {
    void this.tick(channel);
  };

  private async tick(channel: TopicChannel): Promise<void> {
    channel.timer = null;
    if (this.closed || this.channels.get(channel.topic) !== channel) return;
    const now = Date.now();
    const readTotals = channel.dirty && now >= this.totalsDueAt(channel, now);
    const changesPending = channel.added.length > 0 || channel.removed.length > 0;
    const sendChanges = changesPending && now >= channel.changesDueAt;
    if (!readTotals && !sendChanges) {
      this.schedule(channel);
      return;
    }
    channel.running = true;
    if (readTotals) {
      channel.dirty = false;
      channel.lastReadAt = now;
    }
    const { added, removed, changesSeq } = channel;
    if (sendChanges) {
      channel.added = [];
      channel.removed = [];
      channel.changesSeq = 0;
      // Paced by their own fan-out cost like the snapshots: they may be the bigger messages.
      channel.changesDueAt = now + Math.max(this.paced(channel.handler, 'changesEveryMs'), Math.ceil(channel.changesFanoutMs / this.settings.maxFanoutShare));
    }
    try {
      if (readTotals) {
        const snapshot = await channel.handler.readSnapshot!(channel.key);
        if (this.closed || this.channels.get(channel.topic) !== channel || !channel.snapshots) return;
        if (snapshot.seq > channel.seq) {
          channel.seq = snapshot.seq;
          channel.payload = Buffer.from(JSON.stringify(snapshot));
          channel.frame = textFrame(channel.payload);
          this.counters.snapshots++;
          // Every viewer (those awaiting their first snapshot too) is behind now: the rotation reaches them.
          channel.awaitingFirst.clear();
          this.roll(channel);
        } else if (channel.awaitingFirst.size > 0) {
          for (const viewer of channel.awaitingFirst) this.sendSnapshot(viewer, channel);
          channel.awaitingFirst.clear();
        }
      }
      if (sendChanges) await this.broadcastChanges(channel, added, removed, changesSeq || channel.seq);
    } catch (err) {
      if (this.closed) return;
      this.counters.tickErrors++;
      this.deps.log.warn({ err, topic: channel.topic }, 'live snapshot failed; retrying');
      channel.dirty = true;
      channel.retryAt = Date.now() + this.settings.retryMs;
      if (sendChanges) {
        // Keep the changes for the retry (the oldest go first if the list overflows).
        const max = this.paced(channel.handler, 'maxChangesPerMessage');
        channel.added = added.concat(channel.added).slice(-max);
        channel.removed = removed.concat(channel.removed).slice(-max);
        if (changesSeq > channel.changesSeq) channel.changesSeq = changesSeq;
        channel.changesDueAt = channel.retryAt;
      }
    } finally {
      channel.running = false;
      if (this.channels.get(channel.topic) === channel) this.schedule(channel);
    }
  }

  /** The channel's newest snapshot to one viewer, remembered so a rotation does not send it twice. */
  private sendSnapshot(viewer: Viewer, channel: TopicChannel): void {
    channel.delivered.set(viewer, channel.seq);
    this.delivery.snapshot(viewer, channel);
  }

  /** Starts a rotation unless one is under way (it picks up the newer snapshot by itself). */
  private roll(channel: TopicChannel): void {
    if (channel.rolling) return;
    channel.rolling = true;
    void this.rotate(channel).finally(() => {
      channel.rolling = false;
    });
  }

  /**
   * Rolling delivery: walks the channel's viewers in slices, handing each one that is behind the
   * channel's newest snapshot *as it is at that moment*. A snapshot read while the walk is under way
   * does not queue a second pass behind the first: the viewers not reached yet get the newer one
   * directly, and those reached before it get it on the next walk, which starts at once. So a change
   * reaches every viewer within about one walk of its read, each viewer gets at most one frame per
   * snapshot, and viewers reached stay in order. Ends when a walk finds nobody behind.
   */
  private async rotate(channel: TopicChannel): Promise<void> {
    for (;;) {
      // Each walk spends the topic's snapshot budget (it hands a viewer at most one frame); reads go
      // on while it waits, so it starts with the newest.
      const wait = this.walkWaitMs(channel, Date.now());
      if (wait > 0) await new Promise<void>((resolve) => setTimeout(resolve, wait));
      if (this.closed || this.channels.get(channel.topic) !== channel || !channel.snapshots) return;
      channel.tokens -= 1;
      const startSeq = channel.seq;
      const spent = await this.inSlices(channel.viewers, (viewer) => {
        if ((channel.delivered.get(viewer) ?? -1) < channel.seq) this.sendSnapshot(viewer, channel);
      });
      channel.fanoutMs = spent;
      if (this.closed || this.channels.get(channel.topic) !== channel || !channel.snapshots) return;
      if (channel.seq === startSeq) return;
    }
  }

  /**
   * The topic's message of the pending changes (the newest maxChangesPerMessage of each list) to its
   * audience, framed once; a slow socket skips it (the delivery's `voters` path: totals still arrive).
   */
  private async broadcastChanges(channel: TopicChannel, added: unknown[], removed: unknown[], seq: number): Promise<void> {
    if (!channel.handler.changesMessage) return;
    const max = this.paced(channel.handler, 'maxChangesPerMessage');
    const message = channel.handler.changesMessage(
      channel.key,
      added.length > max ? added.slice(-max) : added,
      removed.length > max ? removed.slice(-max) : removed,
      seq,
    );
    if (message === null) return;
    const payload = Buffer.from(JSON.stringify(message));
    const frame = textFrame(payload);
    const signedInOnly = channel.handler.changesAudience === 'signed-in';
    channel.changesFanoutMs = await this.fanOut(channel, (viewer) => {
      if (!signedInOnly || viewer.user !== null) this.delivery.voters(viewer, payload, frame);
    });
  }

  /**
   * Hands a frame to every viewer of the channel, `fanoutSlice` sockets or `fanoutSliceMs` at a
   * time, whichever ends first, with the event loop let run in between (a viewer who leaves meanwhile is skipped, one who joins is reached).
   * Resolves to the time the slices themselves took, for the pacing.
   */
  private fanOut(channel: TopicChannel, send: (viewer: Viewer) => void): Promise<number> {
    return this.inSlices(channel.viewers, send);
  }

  /**
   * Runs `each` over `viewers` in slices of at most fanoutSlice sockets or fanoutSliceMs, whichever
   * ends first, letting the event loop run between slices; stops once the hub is closed. Resolves
   * to the time the slices themselves took.
   */
  private async inSlices(viewers: Iterable<Viewer>, each: (viewer: Viewer) => void): Promise<number> {
    const { fanoutSlice: slice, fanoutSliceMs: sliceMs } = this.settings;
    let spent = 0;
    let inSlice = 0;
    let started = this.clock();
    for (const viewer of viewers) {
      each(viewer);
      ++inSlice;
      // The clock is read every 32 sockets: its cost stays far below the writes'.
      if (inSlice < slice && (inSlice & 31) !== 0) continue;
      const now = this.clock();
      if (inSlice < slice && now - started < sliceMs) continue;
      spent += now - started;
      inSlice = 0;
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (this.closed) return spent;
      started = this.clock();
    }
    return spent + (this.clock() - started);
  }

  /**
   * One step of the keep-alive period: pings the next share of the sockets that were open when the
   * period began (terminating those that did not answer their previous ping), in slices like a
   * fan-out. Every socket is pinged once per keepAliveMs, and never 10,000 of them in one go.
   */
  private async keepAlive(): Promise<void> {
    if (this.pinging) return;
    this.pinging = true;
    try {
      const steps = this.settings.keepAliveSteps;
      if (this.pingStep === 0) {
        // A copy: terminated sockets leave the set during the period; sockets opened meanwhile wait for the next.
        this.pingQueue = [...this.viewers];
        this.pingNext = 0;
      }
      const last = this.pingStep === steps - 1;
      const end = last ? this.pingQueue.length : Math.min(this.pingQueue.length, this.pingNext + Math.ceil(this.pingQueue.length / steps));
      const share = this.pingQueue.slice(this.pingNext, end);
      this.pingNext = end;
      this.pingStep = last ? 0 : this.pingStep + 1;
      if (last) this.pingQueue = [];
      await this.inSlices(share, (viewer) => {
        if (viewer.closed) return;
        if (!viewer.alive) {
          viewer.socket.terminate();
          this.detach(viewer);
          return;
        }
        viewer.alive = false;
        try {
          viewer.socket.ping();
        } catch {
          // closing already
        }
      });
    } finally {
      this.pinging = false;
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
