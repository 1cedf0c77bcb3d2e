// PostgreSQL stopped and started again under a vote load, the server left running: while it is down
// a vote is answered at once with a clear 503 (never a 500, never a hang), and once it is back the
// same server writes again, without a restart. The fans retry their 503s with the same
// Idempotency-Key: every acknowledged vote is stored exactly once.
import { describe, expect, it } from 'vitest';
import { createDatabase } from '@tribuna/drizzle/client';
import { VOTE_MESSAGES } from '@tribuna/contracts/api/votes';
import { startFaultStack } from './support/stack.ts';
import { startServerProcess, startWorkerProcess } from './support/processes.ts';
import { waitUntil } from './support/wait.ts';
import { castVote, fetchResults, readStoredVotes, runVoteLoad, seedFansAndPoll, statusSummary } from './support/votes.ts';

const FANS = 24;
const VOTES_PER_FAN = 15;

const stack = await startFaultStack();

describe('PostgreSQL restarted under a vote load', () => {
  it('answers 503 while it is down, recovers without a server restart, and stores every acknowledged vote once', async () => {
    const input = stack.processInput();
    const server = await startServerProcess(input);
    stack.running.push(server);
    stack.running.push(await startWorkerProcess(input));
    stack.database = createDatabase(input.databaseUrl, { max: 4 });
    const { poll, optionIds, fans } = await seedFansAndPoll(stack.database.db, FANS);
    await stack.database.close();
    stack.database = null;

    const load = runVoteLoad({
      fans,
      pollId: poll.id,
      optionIds,
      votesPerFan: VOTES_PER_FAN,
      target: () => server.url,
      thinkMs: 60,
      // Retried: 503 (and 429, the rate limit). Anything else ends the vote, so a 500 or an
      // unanswered request shows up below instead of being papered over.
      retryable: (status) => status === 503 || status === 429,
      maxAttempts: 400,
      retryDelayMs: 100,
    });

    const total = FANS * VOTES_PER_FAN;
    await waitUntil(() => load.progress.acknowledged >= total / 4, { timeoutMs: 90_000, what: 'a quarter of the votes to be acknowledged' });
    const acknowledgedBeforeStop = load.progress.acknowledged;
    await stack.pg.stop();
    // Down long enough for the load to meet it.
    const unavailableBefore = load.progress.statuses.get(503) ?? 0;
    await waitUntil(() => (load.progress.statuses.get(503) ?? 0) >= unavailableBefore + 20, {
      timeoutMs: 60_000,
      what: 'votes answered 503 while PostgreSQL is down',
    });
    // A vote made now, by hand: answered promptly (the fetch gives up after 15 s) with the vote message.
    const probe = await fetch(`${server.url}/api/polls/${poll.id}/votes`, {
      method: 'POST',
      headers: { cookie: fans[0]!.cookie, 'x-requested-with': 'tribuna', 'content-type': 'application/json', 'idempotency-key': 'faults-probe-0001' },
      body: JSON.stringify({ allocations: [{ optionId: optionIds[0], points: 1 }], deviceFingerprint: 'faults-device-0001' }),
      signal: AbortSignal.timeout(15_000),
    });
    expect(probe.status).toBe(503);
    expect(((await probe.json()) as { message: string }).message).toBe(VOTE_MESSAGES.voteFailed);
    await stack.pg.start();
    const acknowledgedAtRestart = load.progress.acknowledged;
    const records = await load.done;

    // The same process, never restarted, writes again.
    expect(server.child.exitCode).toBe(null);
    const after = await castVote(server.url, fans[1]!, poll.id, optionIds[1]!, 'faults-after-restart-0001');
    expect(after.status).toBe(201);

    stack.database = createDatabase(input.databaseUrl, { max: 4 });
    const stored = await readStoredVotes(stack.database.sql, poll.id, records);
    const results = await fetchResults(server.url, poll.id);
    const acknowledged = records.filter((r) => r.acknowledged);
    const statuses = statusSummary(load.progress.statuses);
    console.log(
      `postgres-restart: ${records.length} votes sent, ${acknowledgedBeforeStop} acknowledged before the stop, ${acknowledgedAtRestart} when it started again, ` +
        `${acknowledged.length} in the end; attempts by status ${JSON.stringify(statuses)}; ` +
        `stored: ${stored.requests} requests, ${stored.rows} vote rows (+1 probe after the restart); results endpoint: ${results.totalVotes} votes`,
    );

    // Never a 500, never a request left without an answer: only 201, 503 (and perhaps 429).
    expect(Object.keys(statuses).filter((s) => s !== '201' && s !== '503' && s !== '429')).toEqual([]);
    expect(load.progress.statuses.get(503) ?? 0).toBeGreaterThan(0);
    expect(acknowledged.length).toBe(total);
    // Every acknowledged vote stored once (plus the vote made after the restart; the probe's 503 wrote nothing).
    expect(stored.lostKeys).toEqual([]);
    expect(stored.usersOff).toEqual([]);
    expect(stored.requests).toBe(total + 1);
    expect(stored.rows).toBe(total + 1);
    for (const option of stored.perOption) {
      expect(option.counterVotes).toBe(option.rows);
      expect(results.options.find((o) => o.optionId === option.optionId)?.totalVotes).toBe(option.rows);
    }
    expect(results.totalVotes).toBe(total + 1);
  });
});
