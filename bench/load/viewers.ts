// Thousands of websocket viewers of one poll, in one process. Every viewer records each results
// snapshot it receives (receipt time, and which snapshot). The analysis runs here, on command, so
// millions of receipts never cross the IPC channel.
//
// Protocols:
// - tribuna: /ws, {type:'subscribe', topic: 'poll:{id}'}; ResultsSnapshot messages (others counted, ignored).
// - raw:     the bare ws server of bench/servers/raw-ws-server.ts (same messages as tribuna).
// - socketio: Socket.IO 4 over websocket, spoken on a plain `ws` client (engine.io v4 framing:
//            "0" open, "40" connect, "2"/"3" ping/pong, "42[event, data]"), so every server is
//            measured through the same client code; or socket.io-client itself (`client:
//            'official'`).
//
// All viewers receive the same bytes for the same snapshot, so each distinct message is parsed
// once (cache keyed by its text): the process spends its time receiving, not re-parsing.
//
// `native: true` (the default of the fan-out benchmark): the sockets live in a C program
// (viewers-native.c, compiled here with the system's cc) and this process only drives it and
// replays what it received into the same analysis. A JavaScript client spends ~10 µs of CPU per
// message received, i.e. ~100 ms per snapshot at 10,000 viewers on the machine the server also
// runs on; the native client spends a fraction of that, so the figures describe the servers.
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { io as ioClient, type Socket as IoSocket } from 'socket.io-client';
import WebSocket from 'ws';
import { readParams, serve } from '../lib/child.ts';
import { NativeViewersProcess, readNativeDump } from '../lib/nativeViewers.ts';
import { totalsSignature } from '../lib/signature.ts';
import { newHistogram, recordMs, summarize } from '../lib/stats.ts';

interface Params {
  protocol: 'tribuna' | 'raw' | 'socketio';
  /** ws://… for tribuna and raw; http://… for socketio. */
  url: string;
  origin: string;
  pollId: string;
  viewers: number;
  batchSize: number;
  client?: 'wire' | 'official';
  /** Sockets in the C client (viewers-native.c) instead of this process's ws clients. */
  native?: boolean;
}

interface SnapshotInfo {
  seq: number;
  committedAt: number;
  signature: string;
}

const params = readParams<Params>();
const loopDelay = monitorEventLoopDelay({ resolution: 10 });

/** Distinct snapshots of the current phase. */
let snapshots: SnapshotInfo[] = [];
/** Message text → snapshot index (-1: not a results snapshot of our poll). */
let parsed = new Map<string, number>();
const otherTypes: Record<string, number> = {};
const errorsSeen: string[] = [];

class Viewer {
  /** Position among this process's viewers (its forwarded address). */
  constructor(readonly index = 0) {}
  ws: WebSocket | null = null;
  io: IoSocket | null = null;
  open = false;
  subscribed = false;
  closedEarly = false;
  lastSeq = -Infinity;
  /** lastSeq when the phase started (the native client's receipts are replayed from there). */
  phaseSeq = -Infinity;
  stale = 0;
  count = 0;
  recv = new Float64Array(64);
  snap = new Int32Array(64);

  reset(): void {
    this.count = 0;
    this.stale = 0;
    this.phaseSeq = this.lastSeq;
  }

  /** Forgets the phase's receipts so they can be recorded again (the native client's replay). */
  replayPhase(): void {
    this.count = 0;
    this.stale = 0;
    this.lastSeq = this.phaseSeq;
  }

  record(index: number, at: number): void {
    const s = snapshots[index]!;
    if (s.seq <= this.lastSeq) {
      this.stale++;
      return;
    }
    this.lastSeq = s.seq;
    if (this.count === this.recv.length) {
      const recv = new Float64Array(this.count * 2);
      recv.set(this.recv);
      this.recv = recv;
      const snap = new Int32Array(this.count * 2);
      snap.set(this.snap);
      this.snap = snap;
    }
    this.recv[this.count] = at;
    this.snap[this.count] = index;
    this.count++;
  }
}

const viewers: Viewer[] = [];
let lastMessageAt = 0;
let messages = 0;
let bytes = 0;

function snapshotIndex(text: string, extract: (text: string) => unknown): number {
  let index = parsed.get(text);
  if (index !== undefined) return index;
  index = -1;
  try {
    const message = extract(text) as {
      type?: string;
      pollId?: string;
      seq?: number;
      committedAt?: number;
      code?: string;
      totalVotes: number;
      totalPoints: number;
      options: { optionId: string; totalVotes: number; totalPoints: number }[];
    } | null;
    if (message && message.type === 'results' && message.pollId === params.pollId) {
      index = snapshots.length;
      snapshots.push({ seq: Number(message.seq), committedAt: Number(message.committedAt), signature: totalsSignature(message) });
    } else if (message) {
      const type = String(message.type);
      otherTypes[type] = (otherTypes[type] ?? 0) + 1;
      if (type === 'error' && errorsSeen.length < 5) errorsSeen.push(text.slice(0, 200));
    }
  } catch {
    // not JSON: ignored
  }
  // Only results snapshots repeat across viewers; others are rare (hello, subscribed).
  if (index >= 0 || parsed.size < 100_000) parsed.set(text, index);
  return index;
}

const parseJson = (text: string) => JSON.parse(text) as unknown;

/** `42["results",{…}]` → the snapshot; anything else → null. */
function socketIoEvent(text: string): unknown {
  if (!text.startsWith('42')) return null;
  const [event, data] = JSON.parse(text.slice(2)) as [string, unknown];
  if (event === 'results') return data;
  return { type: event };
}

/** Where a viewer's websocket connects: Socket.IO's engine.io endpoint, or the given ws:// URL. */
function websocketUrl(): string {
  return params.protocol === 'socketio' ? `${params.url.replace(/^http/, 'ws')}/socket.io/?EIO=4&transport=websocket` : params.url;
}

function connectWs(viewer: Viewer): Promise<void> {
  return new Promise((resolve) => {
    let settled = false;
    const done = () => {
      if (!settled) {
        settled = true;
        clearTimeout(timer);
        resolve();
      }
    };
    const timer = setTimeout(done, 30_000);
    const url = websocketUrl();
    // Each viewer is its own fan, with its own address behind the trusted (loopback) proxy.
    const forwardedFor = `10.${(viewer.index >> 16) & 255}.${(viewer.index >> 8) & 255}.${viewer.index & 255}`;
    const ws = new WebSocket(url, {
      perMessageDeflate: false,
      skipUTF8Validation: true,
      origin: params.origin,
      handshakeTimeout: 30_000,
      headers: { 'x-forwarded-for': forwardedFor },
    });
    viewer.ws = ws;
    ws.on('open', () => {
      viewer.open = true;
      if (params.protocol === 'tribuna') ws.send(JSON.stringify({ type: 'subscribe', topic: `poll:${params.pollId}` }));
      else if (params.protocol !== 'socketio') ws.send(JSON.stringify({ type: 'subscribe', pollId: params.pollId }));
    });
    ws.on('message', (data: WebSocket.RawData) => {
      const at = Date.now();
      const buffer = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
      messages++;
      bytes += buffer.length;
      lastMessageAt = at;
      const text = buffer.toString('utf8');
      if (params.protocol === 'socketio') {
        // engine.io control frames.
        if (text === '2') return void ws.send('3');
        if (text.startsWith('0')) return void ws.send('40');
        if (text.startsWith('40')) return void ws.send(`42${JSON.stringify(['subscribe', params.pollId])}`);
      }
      const index = snapshotIndex(text, params.protocol === 'socketio' ? socketIoEvent : parseJson);
      if (index >= 0) {
        viewer.record(index, at);
        if (!viewer.subscribed) {
          viewer.subscribed = true;
          done();
        }
      } else if (!viewer.subscribed && (text.includes('"subscribed"') || text.includes('"error"'))) {
        viewer.subscribed = !text.includes('"error"');
        done();
      }
    });
    ws.on('error', (err) => {
      if (errorsSeen.length < 5) errorsSeen.push(`socket error: ${err.message}`);
      done();
    });
    ws.on('close', () => {
      if (viewer.open) viewer.closedEarly = true;
      viewer.open = false;
      done();
    });
  });
}

function connectOfficial(viewer: Viewer): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, 30_000);
    const socket = ioClient(params.url, { transports: ['websocket'], forceNew: true, reconnection: false, timeout: 30_000 });
    viewer.io = socket;
    socket.on('connect', () => {
      viewer.open = true;
      socket.emit('subscribe', params.pollId);
    });
    socket.on('subscribed', () => {
      viewer.subscribed = true;
      clearTimeout(timer);
      resolve();
    });
    socket.on('results', (snapshot: SnapshotInfo & Parameters<typeof totalsSignature>[0] & { pollId: string }) => {
      const at = Date.now();
      messages++;
      lastMessageAt = at;
      if (snapshot.pollId !== params.pollId) return;
      const index = snapshots.length;
      snapshots.push({ seq: Number(snapshot.seq), committedAt: Number(snapshot.committedAt), signature: totalsSignature(snapshot) });
      viewer.record(index, at);
    });
    socket.on('connect_error', (err) => {
      if (errorsSeen.length < 5) errorsSeen.push(`connect_error: ${err.message}`);
      clearTimeout(timer);
      resolve();
    });
    socket.on('disconnect', () => {
      if (viewer.open) viewer.closedEarly = true;
      viewer.open = false;
    });
  });
}

async function connectAll(): Promise<{ type: 'connected' } & Record<string, unknown>> {
  const started = Date.now();
  const official = params.protocol === 'socketio' && params.client === 'official';
  for (let start = 0; start < params.viewers; start += params.batchSize) {
    const batch: Promise<void>[] = [];
    for (let i = start; i < Math.min(params.viewers, start + params.batchSize); i++) {
      const viewer = new Viewer(i);
      viewers.push(viewer);
      batch.push(official ? connectOfficial(viewer) : connectWs(viewer));
    }
    await Promise.all(batch);
  }
  return {
    type: 'connected' as const,
    viewers: viewers.length,
    open: viewers.filter((v) => v.open).length,
    subscribed: viewers.filter((v) => v.subscribed).length,
    ms: Date.now() - started,
    errors: errorsSeen,
  };
}

interface AnalyzeCommand {
  /** [committedAt, weight] of every commit (vote batch or published snapshot) of the phase, sorted. */
  events: [number, number][];
  /** The totals every viewer must end with. */
  finalSignature: string;
}

function analyze(
  { events, finalSignature }: AnalyzeCommand,
  eventLoopDelay = { p50Ms: loopDelay.percentile(50) / 1e6, p99Ms: loopDelay.percentile(99) / 1e6, maxMs: loopDelay.max / 1e6 },
): { type: 'analysis' } & Record<string, unknown> {
  const newest = newHistogram(); // receipt − committedAt of the snapshot (its newest commit)
  const oldestBound = newHistogram(); // receipt − committedAt of the previous snapshot received (upper bound)
  const perEvent = newHistogram(); // per commit (weighted): receipt of the first snapshot including it − its commit
  let undelivered = 0;
  let withFinal = 0;
  let withoutAny = 0;
  let received = 0;
  let stale = 0;
  const sorted = [...events].filter((e) => e[1] > 0).sort((a, b) => a[0] - b[0]);
  const eventAt = Float64Array.from(sorted.map((e) => e[0]));
  const weight = Float64Array.from(sorted.map((e) => e[1]));
  const finalMismatches: string[] = [];
  for (const viewer of viewers) {
    received += viewer.count;
    stale += viewer.stale;
    if (viewer.count === 0) {
      withoutAny++;
      continue;
    }
    let prevCommitted = NaN;
    for (let k = 0; k < viewer.count; k++) {
      const s = snapshots[viewer.snap[k]!]!;
      const at = viewer.recv[k]!;
      recordMs(newest, Math.max(0, at - s.committedAt));
      if (Number.isFinite(prevCommitted)) recordMs(oldestBound, Math.max(0, at - prevCommitted));
      prevCommitted = s.committedAt;
    }
    // Merge walk: snapshots arrive in seq order, so their committedAt never decreases.
    let k = 0;
    for (let e = 0; e < eventAt.length; e++) {
      const t = eventAt[e]!;
      while (k < viewer.count && snapshots[viewer.snap[k]!]!.committedAt < t) k++;
      if (k === viewer.count) {
        for (let rest = e; rest < eventAt.length; rest++) undelivered += weight[rest]!;
        break;
      }
      recordMs(perEvent, Math.max(0, viewer.recv[k]! - t), weight[e]!);
    }
    const last = snapshots[viewer.snap[viewer.count - 1]!]!;
    if (last.signature === finalSignature) withFinal++;
    else if (finalMismatches.length < 3) finalMismatches.push(last.signature);
  }
  const totalWeight = weight.reduce((a, b) => a + b, 0);
  // How long after the last commit the last viewer got it: a server that kept up drains at once.
  let lastReceiptAt = 0;
  for (const viewer of viewers) if (viewer.count > 0) lastReceiptAt = Math.max(lastReceiptAt, viewer.recv[viewer.count - 1]!);
  const lastEventAt = eventAt.length ? eventAt[eventAt.length - 1]! : NaN;
  return {
    type: 'analysis' as const,
    viewers: viewers.length,
    open: viewers.filter((v) => v.open).length,
    closedEarly: viewers.filter((v) => v.closedEarly).length,
    withFinal,
    withoutAny,
    deliveryRatio: viewers.length ? withFinal / viewers.length : 0,
    finalMismatches,
    distinctSnapshots: snapshots.length,
    snapshotsReceived: received,
    staleDropped: stale,
    messages,
    bytes,
    otherMessageTypes: otherTypes,
    errors: errorsSeen,
    events: sorted.length,
    eventWeight: totalWeight,
    undeliveredWeight: undelivered,
    drainMs: lastReceiptAt - lastEventAt,
    perSnapshotNewest: summarize(newest),
    perSnapshotOldestBound: summarize(oldestBound),
    perEvent: summarize(perEvent),
    eventLoopDelay,
  };
}

// ─── native client ────────────────────────────────────────────────────────────────────────────

/** The C client (bench/lib/nativeViewers.ts) and the replay of what it received. */
class NativeViewers {
  private constructor(private readonly proc: NativeViewersProcess) {}

  static start(): NativeViewers {
    const { viewers: count, batchSize, protocol, pollId, origin } = params;
    return new NativeViewers(
      NativeViewersProcess.start(path.dirname(process.argv[2]!), { url: websocketUrl(), origin, viewers: count, batchSize, protocol, pollId }),
    );
  }

  request(command: string): Promise<Record<string, unknown>> {
    return this.proc.request(command);
  }

  async connect(): Promise<{ type: 'connected' } & Record<string, unknown>> {
    const reply = await this.request('connect');
    for (let i = 0; i < params.viewers; i++) viewers.push(new Viewer(i));
    return { ...reply, type: 'connected' };
  }

  /** Replays the phase's receipts into the viewers, then runs the shared analysis. */
  async analyze(command: AnalyzeCommand): Promise<{ type: 'analysis' } & Record<string, unknown>> {
    const file = path.join(path.dirname(process.argv[2]!), `viewers-native-${params.protocol}.dump`);
    const reply = await this.request(`dump ${file}`);
    if (reply.type !== 'dumped') throw new Error(String(reply.message));
    const indexes: number[] = [];
    const extract = params.protocol === 'socketio' ? socketIoEvent : parseJson;
    readNativeDump(file, {
      payload: (text) => void indexes.push(snapshotIndex(text, extract)),
      viewer: (i, flags) => {
        const viewer = viewers[i]!;
        viewer.open = flags.open;
        viewer.subscribed = flags.subscribed;
        viewer.closedEarly = flags.closedEarly;
        viewer.replayPhase();
      },
      record: (i, payload, receivedAt) => {
        const index = indexes[payload]!;
        if (index >= 0) viewers[i]!.record(index, receivedAt);
      },
    });
    messages = Number(reply.messages);
    bytes = Number(reply.bytes);
    for (const e of (reply.errors as string[]) ?? []) if (errorsSeen.length < 5) errorsSeen.push(e);
    // The C client's longest stretches of work per epoll round stand for its event-loop delay.
    return analyze(command, reply.busy as { p50Ms: number; p99Ms: number; maxMs: number });
  }
}

const native = params.native ? NativeViewers.start() : null;

serve({
  connect: async () => (native ? native.connect() : connectAll()),
  /** Forgets what was received so far (a new phase starts). */
  reset: async () => {
    if (native) await native.request('reset');
    snapshots = [];
    parsed = new Map();
    for (const v of viewers) v.reset();
    for (const k of Object.keys(otherTypes)) delete otherTypes[k];
    messages = 0;
    bytes = 0;
    loopDelay.reset();
    loopDelay.enable();
    return { type: 'reset-done' };
  },
  /** When the last message arrived (for quiescence). */
  status: async () => (native ? { ...(await native.request('status')), type: 'status' } : { type: 'status', lastMessageAt, messages, now: Date.now() }),
  analyze: (message) => (native ? native.analyze(message as unknown as AnalyzeCommand) : analyze(message as unknown as AnalyzeCommand)),
  close: async () => {
    if (native) return { ...(await native.request('close')), type: 'closed' };
    for (const v of viewers) {
      v.ws?.terminate();
      v.io?.disconnect();
    }
    await new Promise((r) => setTimeout(r, 500));
    return { type: 'closed' };
  },
});
