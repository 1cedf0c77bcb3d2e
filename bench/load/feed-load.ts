// Load for the feed benchmark, in its own process. Commands (one round each):
// - `feed`, `group`, `following`: closed loop with autocannon, signed-in readers (a rotating session cookie and its
//   X-Forwarded-For address per request) alternating first pages of both sorts and deep cursor
//   pages replayed from a list collected beforehand; latency per kind (first / deep) from our own
//   histograms, overall from autocannon's; `feed` reads the public wall, `group` a large group's
//   wall (its members), `following` the 'Siguiendo' wall of readers who each follow 1,000 people,
//   `muted` the public wall of readers who each muted 1,000 people (issue 29);
// - `health`: GET /api/health at the same concurrency (the baseline);
// - `react`: POST /api/posts/:id/reactions on random posts with random types, rotating users;
//   the answer's myReaction per (post, user) is kept for the integrity check; stops gracefully
//   (every toggle in flight gets its answer);
// - `feed-open`, `react-open`: open loops over pre-opened keep-alive connections, feed requests or
//   toggles due at a fixed rate, latency from each one's due time.
import autocannon, { type AutocannonClient, type Result } from 'autocannon';
import { readParams, serve } from '../lib/child.ts';
import { buildRequest, KeepAlivePool } from '../lib/keepAlivePool.ts';
import { runOpenLoop } from '../lib/openLoop.ts';
import { encode, newHistogram, recordMs, summarize, type Histogram } from '../lib/stats.ts';
import { sessionCookie } from '../lib/sessionCookie.ts';

interface Params {
  baseUrl: string;
  connections: number;
  /** The open loops' pool of keep-alive connections. */
  openLoopConnections: number;
  users: { token: string; address: string }[];
  /** Feed paths: first pages (both sorts) and deep cursor pages. */
  firstPaths: string[];
  deepPaths: string[];
  /** Posts the reaction load taps. */
  postIds: string[];
  /**
   * The other walls measured like the public one (issue 28): a group's wall and the 'Siguiendo'
   * wall, each with its first and deep paths and the readers (indexes into `users`) who read it.
   */
  walls: Record<'group' | 'following' | 'muted', { firstPaths: string[]; deepPaths: string[]; readers: number[] }>;
  /** Who reads the public wall in `feed` rounds and its open loop (indexes into `users`): readers who hide nobody. */
  publicReaders: number[];
}

type Message = { type: string } & Record<string, unknown>;

const params = readParams<Params>();
const MAX_DRAIN_MS = 15_000;
const REACTION_TYPES = ['like', 'love', 'haha', 'wow', 'sad', 'angry'] as const;
const cookies = params.users.map((u) => sessionCookie(u.token));
let nextUser = Math.floor(Math.random() * params.users.length);
const takeUser = () => {
  const u = nextUser;
  nextUser = (nextUser + 1) % params.users.length;
  return u;
};
const pick = <T>(items: T[]): T => items[Math.floor(Math.random() * items.length)]!;
let nextPublicReader = Math.floor(Math.random() * params.publicReaders.length);
const takePublicReader = () => {
  nextPublicReader = (nextPublicReader + 1) % params.publicReaders.length;
  return params.publicReaders[nextPublicReader]!;
};

/** The final answer per (post, user) over every react round: what the database must hold. */
const reactionState = new Map<string, string | null>();

function commonFields(result: Result) {
  return {
    connections: result.connections,
    durationS: result.duration,
    ok2xx: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    latency: {
      p50Ms: result.latency.p50,
      p90Ms: result.latency.p90,
      p99Ms: result.latency.p99,
      p999Ms: result.latency.p99_9,
      maxMs: result.latency.max,
      meanMs: result.latency.mean,
    },
  };
}

/** Rotates over the readers of one wall (indexes into params.users). */
const wallCursor: Record<string, number> = {};
function takeReader(wall: keyof Params['walls']): number {
  const readers = params.walls[wall].readers;
  const i = (wallCursor[wall] = ((wallCursor[wall] ?? Math.floor(Math.random() * readers.length)) + 1) % readers.length);
  return readers[i]!;
}

/** A closed-loop round of the public wall, or (`wall`) of a group's wall or the 'Siguiendo' wall. */
function feedRound(durationS: number, wall?: keyof Params['walls']): Promise<Record<string, unknown>> {
  const firstPaths = wall ? params.walls[wall].firstPaths : params.firstPaths;
  const deepPaths = wall ? params.walls[wall].deepPaths : params.deepPaths;
  const hist: Record<'first' | 'deep', Histogram> = { first: newHistogram(), deep: newHistogram() };
  const statusCounts: Record<string, number> = {};
  const errorSamples: string[] = [];
  let n = 0;
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: params.baseUrl,
        connections: params.connections,
        duration: durationS,
        pipelining: 1,
        timeout: 10,
        requests: [
          {
            method: 'GET',
            setupRequest(req, context) {
              const u = wall ? takeReader(wall) : takePublicReader();
              // Half first pages (the two sorts in turn), half deep pages.
              const kind = n++ % 2 === 0 ? 'first' : 'deep';
              context.kind = kind;
              context.sentAt = performance.now();
              req.path = kind === 'first' ? firstPaths[(n >> 1) % firstPaths.length]! : pick(deepPaths);
              req.headers = { cookie: cookies[u]!, 'x-forwarded-for': params.users[u]!.address, accept: 'application/json' };
              return req;
            },
            onResponse(status, body, context) {
              if (status === 200) recordMs(hist[context.kind as 'first' | 'deep'], performance.now() - (context.sentAt as number));
              else {
                statusCounts[status] = (statusCounts[status] ?? 0) + 1;
                if (errorSamples.length < 5) errorSamples.push(`${status} ${String(body).slice(0, 200)}`);
              }
            },
          },
        ],
      },
      (err, result) => {
        if (err) reject(err);
        else {
          const ok = result['2xx'];
          resolve({
            ...commonFields(result),
            acknowledged: ok,
            windowMs: result.duration * 1000,
            perSecond: ok / result.duration,
            first: summarize(hist.first),
            deep: summarize(hist.deep),
            firstHistogram: encode(hist.first),
            deepHistogram: encode(hist.deep),
            statusCounts,
            errorSamples,
          });
        }
      },
    );
  });
}

function healthRound(durationS: number): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    autocannon({ url: `${params.baseUrl}/api/health`, connections: params.connections, duration: durationS, pipelining: 1, timeout: 10 }, (err, result) => {
      if (err) reject(err);
      else {
        const ok = result['2xx'];
        resolve({ ...commonFields(result), acknowledged: ok, windowMs: result.duration * 1000, perSecond: ok / result.duration });
      }
    });
  });
}

function reactRound(durationS: number): Promise<Record<string, unknown>> {
  const statusCounts: Record<string, number> = {};
  const errorSamples: string[] = [];
  const clients: AutocannonClient[] = [];
  let startedAt = 0;
  let lastResponseAt = 0;
  let acknowledged = 0;
  let malformed = 0;
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: params.baseUrl,
        connections: params.connections,
        duration: durationS + MAX_DRAIN_MS / 1000 + 5,
        pipelining: 1,
        timeout: 10,
        setupClient: (client) => clients.push(client),
        requests: [
          {
            method: 'POST',
            setupRequest(req, context) {
              const u = takeUser();
              const postId = pick(params.postIds);
              context.key = `${postId} ${u}`;
              req.path = `/api/posts/${postId}/reactions`;
              req.headers = {
                'content-type': 'application/json',
                'x-requested-with': 'tribuna',
                cookie: cookies[u]!,
                'x-forwarded-for': params.users[u]!.address,
              };
              req.body = JSON.stringify({ type: pick([...REACTION_TYPES]) });
              return req;
            },
            onResponse(status, body, context) {
              lastResponseAt = Date.now();
              if (status === 200) {
                acknowledged++;
                try {
                  const state = JSON.parse(String(body)) as { myReaction: string | null };
                  reactionState.set(context.key as string, state.myReaction);
                } catch {
                  malformed++;
                }
              } else {
                statusCounts[status] = (statusCounts[status] ?? 0) + 1;
                if (errorSamples.length < 5) errorSamples.push(`${status} ${String(body).slice(0, 200)}`);
              }
            },
          },
        ],
      },
      (err, result) => {
        if (err) reject(err);
        else {
          const windowMs = Math.max(1, lastResponseAt - startedAt);
          resolve({ ...commonFields(result), acknowledged, malformed, windowMs, perSecond: (acknowledged * 1000) / windowMs, statusCounts, errorSamples });
        }
      },
    );
    instance.on('start', () => {
      startedAt = Date.now();
      setTimeout(() => {
        for (const client of clients) client.responseMax = Math.max(1, client.reqsMade);
        setTimeout(() => instance.stop(), MAX_DRAIN_MS).unref();
      }, durationS * 1000).unref();
    });
  });
}

let pool: KeepAlivePool | null = null;
const origin = new URL(params.baseUrl);

/** The open loops' connections, opened once (each answers one health request) before any schedule. */
async function connect(): Promise<KeepAlivePool> {
  if (!pool) {
    pool = new KeepAlivePool(origin.hostname, Number(origin.port), params.openLoopConnections);
    await pool.open(buildRequest(origin.host, 'GET', '/api/health', {}));
  }
  return pool;
}

/**
 * Open loop over the pre-opened connections: `feed` requests (first and deep pages in turn) or
 * `react` toggles (random post and type, rotating users; each answer kept for the integrity check)
 * due every 1/rate s; latency from each one's due time.
 */
async function openLoopRound(kind: 'feed' | 'react', ratePerSecond: number, durationS: number): Promise<Record<string, unknown>> {
  const conns = await connect();
  conns.maxQueued = 0;
  const hist = { all: newHistogram(), first: newHistogram(), deep: newHistogram() };
  const statusCounts: Record<string, number> = {};
  const errorSamples: string[] = [];
  let errors = 0;
  let ok = 0;
  let malformed = 0;
  let n = 0;
  const fire = (_k: number, due: number) => {
    const u = kind === 'feed' ? takePublicReader() : takeUser();
    let request: Buffer;
    let page: 'first' | 'deep' | null = null;
    let key = '';
    if (kind === 'feed') {
      page = n++ % 2 === 0 ? 'first' : 'deep';
      const path = page === 'first' ? params.firstPaths[(n >> 1) % params.firstPaths.length]! : pick(params.deepPaths);
      request = buildRequest(origin.host, 'GET', path, { cookie: cookies[u]!, 'x-forwarded-for': params.users[u]!.address, accept: 'application/json' });
    } else {
      const postId = pick(params.postIds);
      key = `${postId} ${u}`;
      request = buildRequest(
        origin.host,
        'POST',
        `/api/posts/${postId}/reactions`,
        { 'content-type': 'application/json', 'x-requested-with': 'tribuna', cookie: cookies[u]!, 'x-forwarded-for': params.users[u]!.address },
        JSON.stringify({ type: pick([...REACTION_TYPES]) }),
      );
    }
    conns.request(request, (status, body, error) => {
      if (error) {
        errors++;
        if (errorSamples.length < 5) errorSamples.push(`${kind}: ${error.message}`);
        return;
      }
      const latency = performance.now() - due;
      if (status === 200) {
        ok++;
        recordMs(hist.all, latency);
        if (page) recordMs(hist[page], latency);
        if (kind === 'react') {
          try {
            reactionState.set(key, (JSON.parse(body.toString('utf8')) as { myReaction: string | null }).myReaction);
          } catch {
            malformed++;
          }
        }
      } else {
        statusCounts[status] = (statusCounts[status] ?? 0) + 1;
        if (errorSamples.length < 5) errorSamples.push(`${status} ${body.toString('utf8').slice(0, 200)}`);
      }
    });
  };
  const times = await runOpenLoop({ ratePerSecond, durationS, maxDrainMs: MAX_DRAIN_MS, inFlight: () => conns.outstanding, maxOutstanding: 5000, fire });
  return {
    ratePerSecond,
    scheduled: times.scheduled,
    notSent: times.notSent,
    abandoned: conns.outstanding,
    acknowledged: ok,
    perSecond: ok / durationS,
    errors,
    malformed,
    statusCounts,
    errorSamples,
    maxQueued: conns.maxQueued,
    maxSchedulerLagMs: times.maxLagMs,
    latencyFromDue: summarize(hist.all),
    first: summarize(hist.first),
    deep: summarize(hist.deep),
  };
}

serve({
  run: async (message: Message) => {
    const { kind, durationS, ratePerSecond } = message as unknown as { kind: string; durationS: number; ratePerSecond?: number };
    let result: Record<string, unknown>;
    if (kind === 'feed') result = await feedRound(durationS);
    else if (kind === 'group' || kind === 'following' || kind === 'muted') result = await feedRound(durationS, kind);
    else if (kind === 'health') result = await healthRound(durationS);
    else if (kind === 'react') result = await reactRound(durationS);
    else if (kind === 'feed-open') result = await openLoopRound('feed', ratePerSecond ?? 100, durationS);
    else if (kind === 'react-open') result = await openLoopRound('react', ratePerSecond ?? 100, durationS);
    else throw new Error(`unknown kind ${kind}`);
    return { type: 'result', result };
  },
  // The final answer per (post, user index) of every acknowledged toggle.
  reactions: () => ({ type: 'reactions', state: Object.fromEntries(reactionState) }),
});
