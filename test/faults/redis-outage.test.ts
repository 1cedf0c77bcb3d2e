// Redis killed (SIGKILL) under a live server and worker while fans vote, post and react, then
// started again, empty. PostgreSQL is the source of truth: every acknowledged write must be there,
// a refused one is a clear 503 (never a 500 or a hang), live results resume on the sockets that
// stayed open, the feed answers, and the point awards and notifications missed meanwhile are
// repaired once Redis is back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createDatabase, type Database } from '@tribuna/drizzle/client';
import { REACTION_TYPES } from '@tribuna/contracts/wallRules';
import type { ResultsSnapshot } from '@tribuna/contracts/live';
import { buildPoll, buildUser } from '../support/factories.ts';
import { startSession } from '../../server/src/identity/sessions/service.ts';
import { SESSION_COOKIE } from '../../server/src/identity/sessions/constants.ts';
import { XHR } from '../support/server/sessions.ts';
import { openWs, type WsTestClient } from '../support/server/wsClient.ts';
import { startPostgres, startRedis, type TestPostgres, type TestRedis } from './support/services.ts';
import { newRedisPrefix, startServerProcess, startWorkerProcess, type RunningProcess, type ServerProcess } from './support/processes.ts';
import { waitUntil } from './support/wait.ts';

/** What a fan's client gives a request before it calls it a hang. */
const CLIENT_TIMEOUT_MS = 10_000;
const FANS = 8;
const OUTAGE_MS = 6_000;

interface Outcome {
  kind: 'vote' | 'post' | 'react';
  status: number; // 0: no answer within CLIENT_TIMEOUT_MS (or the connection failed)
  /** When the request was sent. */
  phase: 'before' | 'outage' | 'after';
  ms: number;
  detail?: string;
}

let pg: TestPostgres;
let redis: TestRedis;
let server: ServerProcess;
let worker: RunningProcess;
let database: Database;
/** The phase of the test's fault a request is sent in. */
let phase: Outcome['phase'] = 'before';

beforeAll(async () => {
  pg = await startPostgres();
  redis = await startRedis();
  const input = { databaseUrl: pg.url('tribuna'), redisUrl: redis.url, redisPrefix: newRedisPrefix() };
  server = await startServerProcess(input);
  // At info level the worker logs what its award sweep repaired.
  worker = await startWorkerProcess({ ...input, extra: { LOG_LEVEL: 'info' } });
  // Its schedules registered and its start-up sweep queued before Redis goes away.
  await waitUntil(() => worker.output().includes('"worker ready"'), { timeoutMs: 60_000, what: 'the worker to be ready' });
  database = createDatabase(pg.url('tribuna'), { max: 4, applicationName: 'tribuna-faults-test' });
});

afterAll(async () => {
  await server?.terminate();
  await worker?.terminate();
  await database?.close();
  await redis?.destroy();
  await pg?.destroy();
});

async function request(method: string, url: string, init: { cookie?: string; json?: unknown; form?: FormData } = {}) {
  const headers: Record<string, string> = { ...XHR };
  if (init.cookie) headers.cookie = init.cookie;
  let body: string | FormData | undefined;
  if (init.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(init.json);
  } else if (init.form) {
    body = init.form;
  }
  const sentIn = phase;
  const started = performance.now();
  const ms = () => Math.round(performance.now() - started);
  try {
    const res = await fetch(`${server.url}${url}`, { method, headers, body, signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS) });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : null, text, sentIn, ms: ms() };
  } catch (err) {
    return { status: 0, body: null, text: String(err), sentIn, ms: ms() };
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Redis killed and started again (empty) under load', () => {
  it('loses no acknowledged write, refuses with 503 at worst, and heals live results, awards and notifications', async () => {
    const db = database.db;
    const author = await buildUser(db, { username: `autora_${Date.now().toString(36)}` });
    const fans = await Promise.all(Array.from({ length: FANS }, () => buildUser(db)));
    const cookieOf = new Map<string, string>();
    for (const user of [author, ...fans]) {
      const session = await startSession(db, { userId: user.id, mfaPending: false, level: 'aal1', userAgent: 'tribuna-faults' });
      cookieOf.set(user.id, `${SESSION_COOKIE}=${session.token}`);
    }
    // Points mode (every vote adds its points): acknowledged and stored can be compared exactly.
    const { poll, options } = await buildPoll(db, { maxPointsPerUser: 1000, options: 3 });
    // Voted on only while Redis is down: its awards cannot have been enqueued, only repaired.
    const outagePoll = await buildPoll(db, { maxPointsPerUser: 1 });
    const outageVoters = new Set<string>();

    const authorPost = await request('POST', '/api/posts', { cookie: cookieOf.get(author.id), form: form('La gala de hoy') });
    expect(authorPost.status, authorPost.text).toBe(201);
    const targetPostId = authorPost.body!.id as string;

    const viewer: WsTestClient = await openWs(`${server.url.replace('http', 'ws')}/ws`);
    viewer.send({ type: 'subscribe', topic: `poll:${poll.id}` });
    await viewer.waitFor((m) => m.type === 'results', { timeoutMs: 10_000 });

    // --- The load: every fan votes, reacts and (twice) posts, before, during and after the outage.
    const outcomes: Outcome[] = [];
    const ackedPoints = new Map<string, number>();
    const ackedPosts = new Map<string, string[]>();
    const lastAckedReaction = new Map<string, string | null>();
    let running = true;

    const fanLoop = async (fan: { id: string }, index: number) => {
      const cookie = cookieOf.get(fan.id)!;
      for (let i = 0; running; i++) {
        const record = (kind: Outcome['kind'], res: { status: number; text: string; sentIn: Outcome['phase']; ms: number }) => {
          const failed = res.status >= 300 || res.status === 0;
          outcomes.push({ kind, status: res.status, phase: res.sentIn, ms: res.ms, ...(failed ? { detail: res.text.slice(0, 300) } : {}) });
        };
        const vote = await request('POST', `/api/polls/${poll.id}/votes`, {
          cookie,
          json: { allocations: [{ optionId: options[(index + i) % options.length]!.id, points: 1 }], deviceFingerprint: `faults_fp_${index}` },
        });
        record('vote', vote);
        if (vote.status === 201) ackedPoints.set(fan.id, (ackedPoints.get(fan.id) ?? 0) + 1);
        if (phase === 'outage') {
          const single = await request('POST', `/api/polls/${outagePoll.poll.id}/votes`, {
            cookie,
            json: { optionId: outagePoll.options[i % 2]!.id, deviceFingerprint: `faults_fp_${index}` },
          });
          record('vote', single);
          if (single.status === 201) outageVoters.add(fan.id);
        }

        // Consecutive types differ, so every acknowledged tap leaves that type as the fan's reaction.
        const type = REACTION_TYPES[(index + i) % REACTION_TYPES.length]!;
        const react = await request('POST', `/api/posts/${targetPostId}/reactions`, { cookie, json: { type } });
        record('react', react);
        if (react.status === 200) {
          expect(react.body!.myReaction).toBe(type);
          lastAckedReaction.set(fan.id, type);
        }

        if (i === 2 || i === 9) {
          const post = await request('POST', '/api/posts', { cookie, form: form(`Voto por el ${i} @${author.username}`) });
          record('post', post);
          if (post.status === 201) ackedPosts.set(fan.id, [...(ackedPosts.get(fan.id) ?? []), post.body!.id as string]);
        }
        // Under the per-user vote limit (30 per 10 s).
        await sleep(400);
      }
    };

    const load = Promise.all(fans.map((fan, index) => fanLoop(fan, index)));
    await sleep(1_500);
    phase = 'outage';
    await redis.kill();
    await sleep(OUTAGE_MS);
    await redis.start();
    phase = 'after';
    await sleep(2_000);
    running = false;
    await load;

    // --- Every write was acknowledged or refused with a clear 503.
    const count = (filter: (o: Outcome) => boolean) => outcomes.filter(filter).length;
    const figures = {
      requests: outcomes.length,
      duringOutage: count((o) => o.phase === 'outage'),
      acknowledged: count((o) => o.status >= 200 && o.status < 300),
      refused503: count((o) => o.status === 503),
      votes: { acknowledged: [...ackedPoints.values()].reduce((a, b) => a + b, 0), stored: 0 },
      outageOnlyPoll: { voters: outageVoters.size, storedVoters: 0, awardJobsSkipped: 0, awardsRepaired: 0 },
      posts: { acknowledged: [...ackedPosts.values()].flat().length, stored: 0 },
      reactions: { acknowledged: count((o) => o.kind === 'react' && o.status === 200), finalStates: 0, matching: 0 },
    };
    const tally: Record<string, number> = {};
    const slowest: Record<string, number> = {};
    for (const o of outcomes) {
      const key = `${o.phase} ${o.kind} ${o.status}`;
      tally[key] = (tally[key] ?? 0) + 1;
      slowest[key] = Math.max(slowest[key] ?? 0, o.ms);
    }
    console.log(`[redis-outage] answers by phase, kind and status: ${JSON.stringify(tally)}; slowest (ms): ${JSON.stringify(slowest)}`);
    const unexpected = outcomes.filter((o) => !(o.status >= 200 && o.status < 300) && o.status !== 503);
    expect(unexpected, JSON.stringify(unexpected.slice(0, 5))).toEqual([]);
    for (const refused of outcomes.filter((o) => o.status === 503)) expect(JSON.parse(refused.detail!).message).toEqual(expect.any(String));
    expect(count((o) => o.phase === 'outage')).toBeGreaterThan(FANS);

    // --- Every acknowledged vote, post and reaction is in PostgreSQL (and nothing refused is).
    const storedPoints = new Map(
      (
        await db.execute<{ user_id: string; points: number }>(
          sql`SELECT user_id, sum(points)::int AS points FROM votes WHERE poll_id = ${poll.id} GROUP BY user_id`,
        )
      ).map((r) => [r.user_id, r.points]),
    );
    figures.votes.stored = [...storedPoints.values()].reduce((a, b) => a + b, 0);
    for (const fan of fans) expect(storedPoints.get(fan.id) ?? 0, `votes of fan ${fan.id}`).toBe(ackedPoints.get(fan.id) ?? 0);
    const outagePollVoters = await db.execute<{ user_id: string }>(sql`SELECT DISTINCT user_id FROM votes WHERE poll_id = ${outagePoll.poll.id}`);
    figures.outageOnlyPoll.storedVoters = outagePollVoters.length;
    expect(new Set(outagePollVoters.map((r) => r.user_id))).toEqual(outageVoters);

    const storedPosts = await db.execute<{ id: string; user_id: string }>(sql`SELECT id, user_id FROM posts WHERE user_id <> ${author.id}`);
    figures.posts.stored = storedPosts.length;
    expect(new Set(storedPosts.map((p) => p.id))).toEqual(new Set([...ackedPosts.values()].flat()));

    const storedReactions = new Map(
      (
        await db.execute<{ user_id: string; reaction_type: string }>(sql`SELECT user_id, reaction_type FROM post_reactions WHERE post_id = ${targetPostId}`)
      ).map((r) => [r.user_id, r.reaction_type]),
    );
    figures.reactions.finalStates = storedReactions.size;
    for (const fan of fans) {
      expect(storedReactions.get(fan.id) ?? null, `reaction of fan ${fan.id}`).toBe(lastAckedReaction.get(fan.id) ?? null);
      if ((storedReactions.get(fan.id) ?? null) === (lastAckedReaction.get(fan.id) ?? null)) figures.reactions.matching++;
    }

    // --- Live results resume on the socket that stayed open: a vote now reaches it with the totals PostgreSQL has.
    const voter = fans[0]!;
    await waitUntil(
      async () => {
        const from = viewer.messages.length;
        const vote = await request('POST', `/api/polls/${poll.id}/votes`, {
          cookie: cookieOf.get(voter.id),
          json: { allocations: [{ optionId: options[0]!.id, points: 1 }], deviceFingerprint: 'faults_fp_0' },
        });
        if (vote.status !== 201) return false;
        const [{ total }] = (await db.execute<{ total: number }>(
          sql`SELECT coalesce(sum(points), 0)::int AS total FROM votes WHERE poll_id = ${poll.id}`,
        )) as unknown as [{ total: number }];
        try {
          await viewer.waitFor((m) => m.type === 'results' && (m as ResultsSnapshot).totalPoints === total, { from, timeoutMs: 3_000 });
          return true;
        } catch {
          return false;
        }
      },
      { timeoutMs: 30_000, intervalMs: 500, what: 'a live results snapshot with the stored totals after Redis came back' },
    );
    await viewer.close();

    // --- The feed works and lists every acknowledged post.
    const feedIds: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await request('GET', `/api/posts${cursor ? `?cursor=${cursor}` : ''}`);
      expect(page.status, page.text).toBe(200);
      feedIds.push(...(page.body!.posts as { id: string }[]).map((p) => p.id));
      cursor = page.body!.nextCursor as string | null;
    } while (cursor);
    for (const id of [...ackedPosts.values()].flat()) expect(feedIds).toContain(id);

    // --- The point awards missed while Redis was down are granted once it is back, exactly once.
    await waitUntil(
      async () => {
        const [row] = (await db.execute<{ n: number }>(sql`
          SELECT count(*)::int AS n FROM (SELECT DISTINCT user_id, poll_id FROM votes) v
          WHERE NOT EXISTS (SELECT 1 FROM user_points_history h WHERE h.user_id = v.user_id AND h.reason = 'vote'
            AND h.reference_id LIKE 'vote:' || v.poll_id || ':%')`)) as unknown as [{ n: number }];
        return row.n === 0;
      },
      { timeoutMs: 60_000, intervalMs: 500, what: 'every voter of the outage to have the vote award' },
    );
    const awards = await db.execute<{ user_id: string; awards: number; history: number; total: number }>(sql`
      SELECT p.id AS user_id,
        (SELECT count(*)::int FROM user_points_history h WHERE h.user_id = p.id AND h.reason = 'vote') AS awards,
        (SELECT coalesce(sum(points), 0)::int FROM user_points_history h WHERE h.user_id = p.id) AS history,
        p.total_points AS total
      FROM profiles p WHERE p.id IN (SELECT DISTINCT user_id FROM votes)`);
    expect(awards.length).toBe(fans.length);
    expect(outageVoters.size).toBeGreaterThan(0);
    // The outage did cost award jobs (the server skips them while its queue connection is down).
    figures.outageOnlyPoll.awardJobsSkipped = server
      .output()
      .split('\n')
      .filter((l) => l.includes('vote awards not enqueued')).length;
    expect(figures.outageOnlyPoll.awardJobsSkipped).toBeGreaterThan(0);
    figures.outageOnlyPoll.awardsRepaired = (
      await db.execute(sql`SELECT 1 FROM user_points_history WHERE reason = 'vote' AND reference_id LIKE ${`vote:${outagePoll.poll.id}:%`}`)
    ).length;
    for (const row of awards) {
      expect(row.awards, `one award per poll and day for ${row.user_id}`).toBe(outageVoters.has(row.user_id) ? 2 : 1);
      expect(row.total, `total_points of ${row.user_id}`).toBe(row.history);
    }

    // --- Notifications: the author is told of every fan's current reaction and every mention.
    const notifications = await db.execute<{ actor_id: string; type: string; reaction_type: string | null; post_id: string }>(
      sql`SELECT actor_id, type, reaction_type, post_id FROM notifications WHERE user_id = ${author.id}`,
    );
    const reactionNotes = new Map(notifications.filter((n) => n.type === 'post_reaction').map((n) => [n.actor_id, n.reaction_type]));
    expect(reactionNotes).toEqual(storedReactions);
    const mentionNotes = new Set(notifications.filter((n) => n.type === 'post_mention').map((n) => n.post_id));
    expect(mentionNotes).toEqual(new Set(storedPosts.map((p) => p.id)));

    console.log(`[redis-outage] ${JSON.stringify(figures)}`);
    expect(server.child.exitCode).toBe(null);
    expect(worker.child.exitCode).toBe(null);
  });
});

function form(content: string): FormData {
  const data = new FormData();
  data.set('content', content);
  return data;
}
