// A server instance killed with -9 in the middle of a share load. A share's award job is recorded
// in the outbox in the share's own transaction (server/src/outbox/), so no moment of the kill can
// leave a stored share whose job is never enqueued: the other instance's relay carries out what
// the dead one left between its COMMIT and the enqueue. The job itself (its id in the points
// queue) is checked, not only the points: the worker's periodic sweep would also credit a share
// whose job was lost, and must not be what makes this test pass.
import { describe, expect, it } from 'vitest';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { JOB_QUEUES, pointsJobIds } from '@tribuna/contracts/jobs';
import { createDatabase } from '@tribuna/drizzle/client';
import { SESSION_COOKIE } from '../../server/src/identity/sessions/constants.ts';
import { startSession } from '../../server/src/identity/sessions/service.ts';
import { buildPoll, buildUser } from '../support/factories.ts';
import { startFaultStack } from './support/stack.ts';
import { startServerProcess, startWorkerProcess } from './support/processes.ts';
import { waitUntil } from './support/wait.ts';

const FANS = 30;
const POLLS = 8;

const stack = await startFaultStack();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** POST /api/polls/:pollId/shares as the web client sends it; 0: no answer. */
async function share(baseUrl: string, cookie: string, pollId: string): Promise<number> {
  try {
    const res = await fetch(`${baseUrl}/api/polls/${pollId}/shares`, {
      method: 'POST',
      headers: { cookie, 'x-requested-with': 'tribuna', 'content-type': 'application/json' },
      body: JSON.stringify({ platform: 'whatsapp' }),
      signal: AbortSignal.timeout(15_000),
    });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return 0;
  }
}

describe('a server instance killed with -9 under a share load', () => {
  it('leaves no stored share without its award job: the other instance relays what the dead one had recorded', async () => {
    const input = stack.processInput();
    const first = await startServerProcess(input);
    stack.running.push(first);
    const second = await startServerProcess(input);
    stack.running.push(second);
    stack.running.push(await startWorkerProcess(input));
    stack.database = createDatabase(input.databaseUrl, { max: 4 });
    const { db, sql } = stack.database;
    const connection = new Redis(input.redisUrl, { maxRetriesPerRequest: null });
    const queue = new Queue(JOB_QUEUES['points.award-share'], { connection, prefix: input.redisPrefix });

    try {
      const polls: string[] = [];
      for (let i = 0; i < POLLS; i++) polls.push((await buildPoll(db)).poll.id);
      const fans: string[] = [];
      for (let i = 0; i < FANS; i++) {
        const user = await buildUser(db);
        const session = await startSession(db, { userId: user.id, mfaPending: false, userAgent: 'tribuna-faults' });
        fans.push(`${SESSION_COOKIE}=${session.token}`);
      }

      // Each fan shares every poll, on instance 1 until a request goes unanswered (or instance 1 is
      // known dead), then on instance 2. A retried share answers 409 when its first try was stored.
      let firstDead = false;
      const progress = { answered: 0, unanswered: 0, statuses: new Map<number, number>() };
      const runFan = async (cookie: string, fan: number) => {
        let failedOver = false;
        for (let i = 0; i < POLLS; i++) {
          const pollId = polls[(fan + i) % POLLS]!;
          for (let attempt = 0; attempt < 40; attempt++) {
            const status = await share(!failedOver && !firstDead ? first.url : second.url, cookie, pollId);
            progress.statuses.set(status, (progress.statuses.get(status) ?? 0) + 1);
            if (status === 201 || status === 409) {
              progress.answered++;
              break;
            }
            if (status !== 0 && status !== 503) throw new Error(`share answered ${status}`);
            if (status === 0) {
              progress.unanswered++;
              failedOver = true;
            }
            await sleep(200);
          }
          await sleep(10 + Math.random() * 30);
        }
      };
      const load = Promise.all(fans.map(runFan));
      const total = FANS * POLLS;
      await waitUntil(() => progress.answered >= total / 3, { timeoutMs: 90_000, what: 'a third of the shares to be answered' });
      const answeredBeforeKill = progress.answered;
      await first.kill9();
      firstDead = true;
      await load;

      const stored = await sql<{ id: string; user_id: string; poll_id: string }[]>`SELECT id, user_id, poll_id FROM share_history WHERE points_earned > 0`;
      // Every stored share's award job reaches the queue (from its writer, or from the relay of
      // the surviving instance within its poll), and the worker credits it.
      await waitUntil(
        async () => {
          const [row] = await sql<{ count: number }[]>`
            SELECT count(*)::int AS count FROM share_history s
            WHERE s.points_earned > 0 AND NOT EXISTS (
              SELECT 1 FROM user_points_history h
              WHERE h.user_id = s.user_id AND h.reason = 'share' AND h.reference_id = 'share:' || s.poll_id || ':' || to_char(s.share_day, 'YYYY-MM-DD'))`;
          return row!.count === 0;
        },
        { timeoutMs: 60_000, what: 'every stored share to be credited' },
      );
      const withoutJob: string[] = [];
      for (const { id } of stored) if (!(await queue.getJob(pointsJobIds.awardShare({ shareId: id })))) withoutJob.push(id);
      const left = (await sql<{ left: number }[]>`SELECT count(*)::int AS left FROM outbox`)[0]!.left;
      console.log(
        `share-crash: ${stored.length} shares stored of ${total} (${answeredBeforeKill} answered before kill -9), ${progress.unanswered} requests unanswered; ` +
          `${stored.length - withoutJob.length} award jobs found, ${left} outbox rows left; attempts by status ${JSON.stringify(Object.fromEntries(progress.statuses))}`,
      );

      // The kill happened mid-load and some fans had to fail over; every share ended stored once.
      expect(answeredBeforeKill).toBeLessThan(total);
      expect(progress.unanswered).toBeGreaterThan(0);
      expect(stored.length).toBe(total);
      // Each one's job went through the queue, and the outbox is empty.
      expect(withoutJob).toEqual([]);
      expect(left).toBe(0);
    } finally {
      await queue.close();
      connection.disconnect();
    }
  });
});
