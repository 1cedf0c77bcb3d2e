// A server instance killed with -9 in the middle of a vote load: the fans whose requests went
// unanswered retry them on the other instance with the same Idempotency-Key. Every acknowledged
// vote must be in PostgreSQL, none twice, and the counters and the results endpoint must agree.
import { afterAll, describe, expect, it } from 'vitest';
import { createDatabase, type Database } from '@tribuna/drizzle/client';
import { startPostgres, startRedis } from './support/services.ts';
import { newRedisPrefix, startServerProcess, startWorkerProcess, type RunningProcess, type ServerProcess } from './support/processes.ts';
import { waitUntil } from './support/wait.ts';
import { fetchResults, readStoredVotes, runVoteLoad, seedFansAndPoll, statusSummary } from './support/votes.ts';

const FANS = 40;
const VOTES_PER_FAN = 20;

const pg = await startPostgres();
const redis = await startRedis();
const running: RunningProcess[] = [];
let database: Database | null = null;
afterAll(async () => {
  for (const process of running) await process.kill9();
  await database?.close();
  await redis.destroy();
  await pg.destroy();
});

describe('a server instance killed with -9 under a vote load', () => {
  it('loses no acknowledged vote and counts none twice when the fans retry on the other instance', async () => {
    const input = { databaseUrl: pg.url('tribuna'), redisUrl: redis.url, redisPrefix: newRedisPrefix() };
    // One after the other: the first creates the database and migrates it.
    const first: ServerProcess = await startServerProcess(input);
    running.push(first);
    const second = await startServerProcess(input);
    running.push(second);
    running.push(await startWorkerProcess(input));
    database = createDatabase(input.databaseUrl, { max: 4 });
    const { poll, optionIds, fans } = await seedFansAndPoll(database.db, FANS);

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
    await first.kill9();
    firstDead = true;
    const records = await load.done;

    const acknowledged = records.filter((r) => r.acknowledged);
    const retried = records.filter((r) => r.attempts.length > 1);
    const stored = await readStoredVotes(database.sql, poll.id, records);
    const results = await fetchResults(second.url, poll.id);
    console.log(
      `server-crash: ${records.length} votes sent, ${acknowledgedBeforeKill} acknowledged before kill -9, ` +
        `${acknowledged.length} acknowledged in the end (${retried.length} retried with their key); ` +
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
  });
});
