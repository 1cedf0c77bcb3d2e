// SIGTERM is a graceful stop. The server: requests already in flight complete, new connections
// are refused, websocket clients are closed with 1012 (service restart) and the real web live
// client reconnects to the other instance and stays live; the process exits 0. The worker: a job
// running when SIGTERM arrives finishes, once, before the process exits 0.
import { afterAll, describe, expect, it } from 'vitest';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import WebSocket from 'ws';
import postgres from 'postgres';
import { createDatabase, type Database } from '@tribuna/drizzle/client';
import { LIVE_CLOSE_CODES } from '@tribuna/contracts/liveTopics';
import { LiveClient, type SocketClass, type TopicMessage } from '../../web/src/lib/live/liveClient.ts';
import { startPostgres, startRedis } from './support/services.ts';
import { newRedisPrefix, startServerProcess, startWorkerProcess, type RunningProcess } from './support/processes.ts';
import { waitUntil } from './support/wait.ts';
import { castVote, seedFansAndPoll, type Fan } from './support/votes.ts';

const pg = await startPostgres();
const redis = await startRedis();
const running: RunningProcess[] = [];
const databases: Database[] = [];
afterAll(async () => {
  for (const process of running) await process.kill9();
  for (const database of databases) await database.close();
  await redis.destroy();
  await pg.destroy();
});

/**
 * A vote whose request is on the wire: headers and half the body sent, the rest when `finish` is
 * called. Until then the server holds an open request it must not drop when it is told to stop.
 */
function voteInFlight(baseUrl: string, fan: Fan, pollId: string, optionId: string, key: string) {
  const body = new TextEncoder().encode(JSON.stringify({ allocations: [{ optionId, points: 1 }], deviceFingerprint: 'faults-device-0001' }));
  let finish!: () => void;
  const rest = new Promise<void>((resolve) => (finish = resolve));
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.enqueue(body.slice(0, 10));
      await rest;
      controller.enqueue(body.slice(10));
      controller.close();
    },
  });
  const response = fetch(`${baseUrl}/api/polls/${pollId}/votes`, {
    method: 'POST',
    headers: {
      cookie: fan.cookie,
      'x-requested-with': 'tribuna',
      'content-type': 'application/json',
      'content-length': String(body.length),
      'idempotency-key': key,
    },
    body: stream,
    duplex: 'half',
    signal: AbortSignal.timeout(60_000),
  } as RequestInit).then(
    async (res) => ({ status: res.status, text: await res.text() }),
    (err: unknown) => ({ status: 0, text: String((err as Error).cause ?? err) }),
  );
  return { finish, response };
}

describe('SIGTERM', () => {
  it('server: finishes the requests in flight, refuses new ones, closes websockets with 1012 and the live client resumes on another instance', async () => {
    const input = { databaseUrl: pg.url('tribuna'), redisUrl: redis.url, redisPrefix: newRedisPrefix() };
    // Instance 1 logs each request as it is routed ("incoming request", at info level): the test
    // sends SIGTERM only once the votes in flight are in, not while their headers are on the way.
    const first = await startServerProcess({ ...input, extra: { LOG_LEVEL: 'info' } });
    running.push(first);
    const second = await startServerProcess(input);
    running.push(second);
    const database = createDatabase(input.databaseUrl, { max: 2 });
    databases.push(database);
    const { poll, optionIds, fans } = await seedFansAndPoll(database.db, 6);
    const topic = `poll:${poll.id}`;

    // The web app's live client (web/src/lib/live), three tabs' worth, behind a "load balancer"
    // that sends new sockets to instance 1 until it is stopping, then to instance 2.
    let liveTarget = first;
    const closes: { port: number; code: number }[] = [];
    const RecordingSocket = class extends WebSocket {
      constructor(url: string) {
        super(url);
        const port = Number(new URL(url).port);
        this.addEventListener('close', (event) => closes.push({ port, code: event.code }));
        // ws reports a socket closed while connecting as an error event; a browser does not.
        this.on('error', () => {});
      }
    } as unknown as SocketClass;
    const tabs = [0, 1, 2].map(() => {
      const client = new LiveClient({ socketClass: RecordingSocket, url: () => `ws://127.0.0.1:${liveTarget.port}/ws`, watchBrowser: false });
      const tab = { client, results: [] as Extract<TopicMessage, { type: 'results' }>[], resyncs: 0, connected: false };
      client.onConnectionChange((connected) => (tab.connected = connected));
      client.subscribe(topic, {
        onMessage: (message) => {
          if (message.type === 'results') tab.results.push(message);
        },
        onResync: () => {
          tab.resyncs++;
        },
      });
      return tab;
    });
    try {
      await waitUntil(() => tabs.every((t) => t.connected && t.results.length > 0), { timeoutMs: 30_000, what: 'the live clients to get the first results' });

      // Votes on the wire: instance 1 has read their headers and routed them, their bodies are still coming.
      const inFlight = fans.slice(0, 4).map((fan, i) => voteInFlight(first.url, fan, poll.id, optionIds[i % optionIds.length]!, `faults-inflight-${i}-0001`));
      const votesRouted = () =>
        first
          .output()
          .split('\n')
          .filter((line) => line.includes('"incoming request"') && line.includes(`/api/polls/${poll.id}/votes`)).length;
      await waitUntil(() => votesRouted() === inFlight.length, { timeoutMs: 30_000, what: 'instance 1 to route the votes in flight' });

      first.child.kill('SIGTERM');
      await waitUntil(() => closes.filter((c) => c.port === first.port).length === tabs.length, {
        timeoutMs: 20_000,
        what: 'the websockets of instance 1 to close',
      });
      liveTarget = second;
      // Closed as a restart, not dropped.
      expect(closes.filter((c) => c.port === first.port).map((c) => c.code)).toEqual(tabs.map(() => LIVE_CLOSE_CODES.serviceRestart));

      // Stopping: a new connection is refused (or told 503 if it slipped in), never served.
      const late = await fetch(`${first.url}/api/polls/${poll.id}`, { signal: AbortSignal.timeout(15_000) }).then(
        (res) => res.status,
        () => 0,
      );
      expect([0, 503]).toContain(late);

      // The requests in flight complete normally, and then the process exits cleanly.
      for (const vote of inFlight) vote.finish();
      const answers = await Promise.all(inFlight.map((v) => v.response));
      expect(answers.map((a) => a.status)).toEqual(inFlight.map(() => 201));
      expect(await first.exited, first.output().slice(-4000)).toEqual({ code: 0, signal: null });

      // The live clients came back on instance 2, caught up over HTTP, and are live there.
      await waitUntil(() => tabs.every((t) => t.connected && t.resyncs > 0), { timeoutMs: 30_000, what: 'the live clients to reconnect to instance 2' });
      const vote = await castVote(second.url, fans[5]!, poll.id, optionIds[0]!, 'faults-after-sigterm-0001');
      expect(vote.status).toBe(201);
      await waitUntil(() => tabs.every((t) => t.results.some((r) => r.totalVotes === 5)), {
        timeoutMs: 30_000,
        what: 'the vote on instance 2 to reach every live client',
      });

      const [stored] = await database.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM votes WHERE poll_id = ${poll.id}`;
      expect(stored!.n).toBe(5);
      console.log(
        `shutdown (server): ${answers.length} votes in flight at SIGTERM answered ${answers.map((a) => a.status).join(',')}, a new request got ${late || 'connection refused'}, ` +
          `websockets closed with ${closes
            .filter((c) => c.port === first.port)
            .map((c) => c.code)
            .join(',')}, exit code 0; ${tabs.length} live clients resumed on instance 2`,
      );
    } finally {
      for (const tab of tabs) tab.client.dispose();
    }
  });

  it('worker: a job running when SIGTERM arrives finishes, once, before the worker exits 0', async () => {
    const input = { databaseUrl: pg.url('tribuna'), redisUrl: redis.url, redisPrefix: newRedisPrefix() };
    const worker = await startWorkerProcess(input);
    running.push(worker);
    const database = createDatabase(input.databaseUrl, { max: 2 });
    databases.push(database);
    const {
      poll,
      fans: [fan],
    } = await seedFansAndPoll(database.db, 1);
    const day = new Date().toISOString().slice(0, 10);

    // Hold the voter's profile row: the award (its history row's foreign key, its total) waits on it,
    // so the job is caught running, for as long as this transaction lasts.
    const holder = postgres(input.databaseUrl, { max: 1, onnotice: () => {} });
    const connection = new Redis(redis.url, { maxRetriesPerRequest: null });
    const queue = new Queue('points', { connection, prefix: input.redisPrefix });
    try {
      const reserved = await holder.reserve();
      await reserved`BEGIN`;
      await reserved`SELECT 1 FROM profiles WHERE id = ${fan!.userId} FOR UPDATE`;
      const job = await queue.add('points.award-vote', { userId: fan!.userId, pollId: poll.id, day }, { jobId: `vote-award.${fan!.userId}.${poll.id}.${day}` });
      await waitUntil(
        async () => {
          const [row] = await database.sql<{ n: number }[]>`
            SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'tribuna-worker' AND wait_event_type = 'Lock'`;
          return row!.n > 0;
        },
        { timeoutMs: 30_000, what: 'the award job to be running (waiting on the held row)' },
      );
      expect(await job.getState()).toBe('active');

      worker.child.kill('SIGTERM');
      // The worker waits for its job: still running a moment later.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(worker.child.exitCode).toBe(null);
      await reserved`ROLLBACK`;
      reserved.release();

      expect(await worker.exited).toEqual({ code: 0, signal: null });
      expect(await job.getState()).toBe('completed');
      const awards = await database.sql<{ points: number }[]>`
        SELECT points FROM user_points_history WHERE user_id = ${fan!.userId} AND reason = 'vote' AND reference_id = ${`vote:${poll.id}:${day}`}`;
      const [profile] = await database.sql<{ total_points: number }[]>`SELECT total_points FROM profiles WHERE id = ${fan!.userId}`;
      expect(awards).toEqual([{ points: 1 }]);
      expect(profile!.total_points).toBe(1);
      console.log(
        `shutdown (worker): the award job running at SIGTERM completed (${awards.length} award, total ${profile!.total_points} point), worker exit code 0`,
      );
    } finally {
      await queue.close();
      connection.disconnect();
      await holder.end({ timeout: 1 });
    }
  });
});
