// The soak's side load, in its own process (bench/soak.ts):
// - `viewers`: N websocket viewers of one poll (/ws, subscribe to poll:{id}), each from its own
//   forwarded address; they count what they receive and how often they lost their socket. They
//   live in the C client (bench/load/viewers-native.c in its `soak` mode) unless `native` is
//   false: 2,000 JavaScript ws clients took 0.3-0.37 cores of the two, varying over the run, and
//   the vote rate moved against them;
// - `posts`: open-loop wall posts (multipart, text only) at a fixed rate by rotating users, kept
//   going until `stop`; answers how many were acknowledged, refused and failed, and the ids.
import path from 'node:path';
import WebSocket from 'ws';
import { readParams, serve } from '../lib/child.ts';
import { NativeViewersProcess } from '../lib/nativeViewers.ts';
import { newHistogram, recordMs, summarize, type Histogram } from '../lib/stats.ts';
import { sessionCookie } from '../lib/sessionCookie.ts';

interface Params {
  baseUrl: string;
  /** The Origin the viewers send: PUBLIC_URL's (the server refuses any other). */
  origin: string;
  pollId: string;
  users: { token: string; address: string }[];
  /** Viewers in the C client (default) or in this process's ws clients. */
  native?: boolean;
}

const params = readParams<Params>();
const wsUrl = `${params.baseUrl.replace(/^http/, 'ws')}/ws`;
let native: NativeViewersProcess | null = null;

// ── viewers ────────────────────────────────────────────────────────────────────────────────
interface Viewer {
  ws: WebSocket | null;
  subscribed: boolean;
  messages: number;
  reconnects: number;
}
const viewers: Viewer[] = [];
let closing = false;
const viewerAddress = (i: number) => `172.${16 + ((i >> 16) & 15)}.${(i >> 8) & 255}.${i & 255}`;

function open(viewer: Viewer, index: number): Promise<void> {
  return new Promise((resolve) => {
    const ws = new WebSocket(wsUrl, { perMessageDeflate: false, headers: { 'x-forwarded-for': viewerAddress(index) }, handshakeTimeout: 30_000 });
    viewer.ws = ws;
    let settled = false;
    const done = () => {
      if (!settled) {
        settled = true;
        resolve();
      }
    };
    ws.on('open', () => ws.send(JSON.stringify({ type: 'subscribe', topic: `poll:${params.pollId}` })));
    ws.on('message', (data) => {
      viewer.messages++;
      if (!viewer.subscribed) {
        const text = data.toString();
        if (text.includes('"subscribed"') || text.includes('"results"') || text.includes('"snapshot"')) viewer.subscribed = true;
        done();
      }
    });
    ws.on('error', () => done());
    ws.on('close', () => {
      viewer.subscribed = false;
      done();
      if (closing) return;
      viewer.reconnects++;
      setTimeout(() => void open(viewer, index), 1000 + Math.random() * 2000);
    });
    setTimeout(done, 30_000);
  });
}

async function connectViewers(count: number, batch: number): Promise<Record<string, unknown>> {
  const started = Date.now();
  for (let i = 0; i < count; i += batch) {
    const slice = [];
    for (let j = i; j < Math.min(count, i + batch); j++) {
      const viewer: Viewer = { ws: null, subscribed: false, messages: 0, reconnects: 0 };
      viewers.push(viewer);
      slice.push(open(viewer, j));
    }
    await Promise.all(slice);
  }
  return { viewers: viewers.length, subscribed: viewers.filter((v) => v.subscribed).length, ms: Date.now() - started };
}

function viewerStatus(): Record<string, unknown> {
  return {
    viewers: viewers.length,
    subscribed: viewers.filter((v) => v.subscribed).length,
    messages: viewers.reduce((a, v) => a + v.messages, 0),
    reconnects: viewers.reduce((a, v) => a + v.reconnects, 0),
  };
}

// ── posts ──────────────────────────────────────────────────────────────────────────────────
let posting: { stop: boolean; done: Promise<void> } | null = null;
let postStats = { acked: 0, refused: 0, failed: 0, statusCounts: {} as Record<string, number>, ids: [] as string[] };
let postLatency: Histogram = newHistogram();
let nextUser = 0;

async function postOnce(n: number): Promise<void> {
  const u = params.users[nextUser]!;
  nextUser = (nextUser + 1) % params.users.length;
  const form = new FormData();
  form.set('content', `Soak ${n}: ¿quién se queda esta semana? #episodio`);
  const started = performance.now();
  try {
    const res = await fetch(`${params.baseUrl}/api/posts`, {
      method: 'POST',
      body: form,
      headers: { cookie: sessionCookie(u.token), 'x-forwarded-for': u.address, 'x-requested-with': 'tribuna' },
      signal: AbortSignal.timeout(15_000),
    });
    const body = (await res.json().catch(() => null)) as { id?: string; post?: { id?: string } } | null;
    if (res.ok) {
      postStats.acked++;
      recordMs(postLatency, performance.now() - started);
      const id = body?.id ?? body?.post?.id;
      if (id) postStats.ids.push(id);
    } else {
      postStats.refused++;
      postStats.statusCounts[res.status] = (postStats.statusCounts[res.status] ?? 0) + 1;
    }
  } catch {
    postStats.failed++;
  }
}

function startPosting(ratePerSecond: number): void {
  const state = { stop: false, done: Promise.resolve() };
  const inFlight = new Set<Promise<void>>();
  state.done = (async () => {
    const interval = 1000 / ratePerSecond;
    const t0 = performance.now();
    for (let n = 0; !state.stop; n++) {
      const due = t0 + n * interval;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const p = postOnce(n).finally(() => inFlight.delete(p));
      inFlight.add(p);
    }
    await Promise.all(inFlight);
  })();
  posting = state;
}

async function connectNative(count: number, batch: number): Promise<Record<string, unknown>> {
  native = NativeViewersProcess.start(path.dirname(process.argv[2]!), {
    url: wsUrl,
    origin: params.origin,
    viewers: count,
    batchSize: batch,
    protocol: 'tribuna',
    pollId: params.pollId,
    soak: true,
  });
  const { type: _type, ...reply } = await native.request('connect');
  return { ...reply, client: 'native' };
}

async function nativeStatus(): Promise<Record<string, unknown>> {
  const { viewers: count, subscribed, messages, reconnects } = await native!.request('status');
  return { viewers: count, subscribed, messages, reconnects };
}

serve({
  connect: async (message) => {
    const count = Number(message.viewers);
    const batch = Number(message.batch ?? 100);
    return { type: 'connected', ...(params.native === false ? await connectViewers(count, batch) : await connectNative(count, batch)) };
  },
  status: async () => ({ type: 'status', ...(native ? await nativeStatus() : viewerStatus()) }),
  'posts-start': (message) => {
    postStats = { acked: 0, refused: 0, failed: 0, statusCounts: {}, ids: [] };
    postLatency = newHistogram();
    startPosting(Number(message.ratePerSecond));
    return { type: 'posts-started' };
  },
  /** Counters since the last `posts-take` (latency included), without stopping. */
  'posts-take': () => {
    const taken = { ...postStats, latency: summarize(postLatency) };
    postStats = { acked: 0, refused: 0, failed: 0, statusCounts: {}, ids: [] };
    postLatency = newHistogram();
    return { type: 'posts-taken', ...taken };
  },
  'posts-stop': async () => {
    if (posting) {
      posting.stop = true;
      await posting.done;
    }
    const taken = { ...postStats, latency: summarize(postLatency) };
    return { type: 'posts-stopped', ...taken };
  },
  close: async () => {
    closing = true;
    if (native) {
      const status = await nativeStatus();
      await native.request('close');
      return { type: 'closed', ...status };
    }
    for (const v of viewers) v.ws?.close();
    return { type: 'closed', ...viewerStatus() };
  },
});
