// A server instance killed with -9 in the middle of a vote load: the fans whose requests went
// unanswered retry them on the other instance with the same Idempotency-Key. Every acknowledged
// vote must be in PostgreSQL, none twice, and the counters and the results endpoint must agree.
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createDatabase } from '@tribuna/drizzle/client';
import { startFaultStack } from './support/stack.ts';
import { startServerProcess, startWorkerProcess, type ServerProcess } from './support/processes.ts';
import { waitUntil } from './support/wait.ts';
import { fetchResults, readStoredVotes, runVoteLoad, seedFansAndPoll, statusSummary } from './support/votes.ts';

const FANS = 30;
const VOTES_PER_FAN = 20;

const stack = await startFaultStack();

describe('a server instance killed with -9 under a vote load', () => {
  it('loses no acknowledged vote and counts none twice when the fans retry on the other instance', async () => {
    const input = stack.processInput();
    // One after the other: the first creates the database and migrates it.
    const first: ServerProcess = await startServerProcess(input);
    stack.running.push(first);
    const second = await startServerProcess(input);
    stack.running.push(second);
    stack.running.push(await startWorkerProcess(input));
    stack.database = createDatabase(input.databaseUrl, { max: 4 });
    const { poll, optionIds, fans } = await seedFansAndPoll(stack.database.db, FANS);

    // A viewer of the live results on instance 2 (live totals live in Redis, fed after each COMMIT:
    // a batch committed by instance 1 just before the kill may have missed them until a reconcile).
    const live = { latest: -1 };
    const viewer = new WebSocket(`ws://127.0.0.1:${second.port}/ws`);
    viewer.on('error', () => {});
    viewer.on('open', () => viewer.send(JSON.stringify({ type: 'subscribe', topic: `poll:${poll.id}` })));
    viewer.on('message', (data) => {
      const message = JSON.parse(String(data)) as { type: string; totalVotes?: number };
      if (message.type === 'results') live.latest = message.totalVotes!;
    });
    await waitUntil(() => live.latest === 0, { timeoutMs: 30_000, what: 'the live viewer to get the first results' });

    let firstDead = false;
    const load = runVoteLoad({
      fans,
      pollId: poll.id,
      optionIds,
      votesPerFan: VOTES_PER_FAN,
      // Instance 1 until the fan's request goes unanswered (or it is known dead), then instance 2.
      target: (failedOver) => (failedOver === 0 && !firstDead ? first.url : second.url),
      thinkMs: 40,
    });

    const total = FANS * VOTES_PER_FAN;
    await waitUntil(() => load.progress.acknowledged >= total / 3, { timeoutMs: 90_000, what: 'a third of the votes to be acknowledged' });
    const acknowledgedBeforeKill = load.progress.acknowledged;
    const killedAt = new Date();
    await first.kill9();
    firstDead = true;
    const records = await load.done;

    const acknowledged = records.filter((r) => r.acknowledged);
    const retried = records.filter((r) => r.attempts.length > 1);
    const stored = await readStoredVotes(stack.database.sql, poll.id, records);
    const results = await fetchResults(second.url, poll.id);
    // Retried votes that instance 1 had already committed (their key claimed before the kill): the
    // retry replayed them instead of voting again.
    const retriedKeys = retried.map((r) => r.key);
    const [replayed] = await stack.database.sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM vote_requests WHERE poll_id = ${poll.id} AND key = ANY(${retriedKeys}) AND created_at <= ${killedAt.toISOString()}::timestamptz`;
    console.log(
      `server-crash: ${records.length} votes sent, ${acknowledgedBeforeKill} acknowledged before kill -9, ` +
        `${acknowledged.length} acknowledged in the end (${retried.length} retried with their key, ${replayed!.n} of them committed by instance 1 before the kill); ` +
        `stored: ${stored.requests} requests (${stored.answerless} committed without a stored answer), ${stored.rows} vote rows, ${stored.points} points; ` +
        `results endpoint: ${results.totalVotes} votes; attempts by status ${JSON.stringify(statusSummary(load.progress.statuses))}`,
    );

    // The kill happened mid-load, and some fans had to fail over.
    expect(acknowledgedBeforeKill).toBeLessThan(total);
    expect(retried.length).toBeGreaterThan(0);
    // Instance 2 took every retry: every vote was acknowledged in the end.
    expect(acknowledged.length).toBe(total);
    // Every acknowledged vote is stored; each committed request wrote exactly its one point.
    expect(stored.lostKeys).toEqual([]);
    expect(stored.usersOff).toEqual([]);
    expect(stored.requests).toBe(total);
    expect(stored.rows).toBe(total);
    // Counters and the public results equal the direct count.
    for (const option of stored.perOption) {
      expect(option.counterVotes).toBe(option.rows);
      expect(option.counterPoints).toBe(option.points);
      const shown = results.options.find((o) => o.optionId === option.optionId);
      expect(shown?.totalVotes).toBe(option.rows);
      expect(shown?.totalPoints).toBe(option.points);
    }
    expect(results.totalVotes).toBe(total);
    expect(results.totalPoints).toBe(total);
    // The live totals agree too (at once, or after the periodic reconcile with PostgreSQL).
    const liveAtEnd = live.latest;
    const waitStarted = Date.now();
    await waitUntil(() => live.latest === total, { timeoutMs: 60_000, what: `the live totals to reach ${total} (at ${live.latest})` });
    console.log(`server-crash: live totals at the end of the load ${liveAtEnd}, ${total} after ${Date.now() - waitStarted} ms`);
    viewer.close();
  });
});
