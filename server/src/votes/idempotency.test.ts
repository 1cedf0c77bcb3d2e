import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { schema } from '@tribuna/drizzle';
import type { Database } from '@tribuna/drizzle/client';
import { VOTE_MESSAGES } from '@tribuna/contracts/api/votes';
import { testDatabase, truncateAll } from '../../../test/support/db.ts';
import { testConfig } from '../../../test/support/env.ts';
import { buildPoll, buildUser } from '../../../test/support/factories.ts';
import { buildApp, type App } from '../app.ts';
import { asUser, signIn } from '../../../test/support/server/sessions.ts';
import { VoteBatcher, type VoteCommand, type VoteOutcome } from './batcher.ts';
import { voteAnswer, writerError } from './service.ts';
import { PollCache } from '../polls/pollCache.ts';

const TZ = 'America/Mexico_City';
const FINGERPRINT = 'idempotency_fp_0001';

describe('idempotent votes (Idempotency-Key)', () => {
  let app: App;
  let other: App;
  let database: Database;

  beforeAll(async () => {
    // Two server instances on the same database, as behind a load balancer.
    [app, other] = await Promise.all([buildApp(testConfig()), buildApp(testConfig())]);
    database = testDatabase();
  });
  beforeEach(async () => {
    await truncateAll(database);
  });
  afterAll(async () => {
    await Promise.all([app.close(), other.close()]);
    await database.close();
  });

  async function signedIn() {
    const user = await buildUser(database.db);
    return { user, headers: asUser(await signIn(app, user)) };
  }

  const points = (optionId: string, p: number) => ({ allocations: [{ optionId, points: p }], deviceFingerprint: FINGERPRINT });

  const vote = (server: App, pollId: string, headers: Record<string, string>, payload: object, key?: string) =>
    server.inject({
      method: 'POST',
      url: `/api/polls/${pollId}/votes`,
      headers: key === undefined ? headers : { ...headers, 'idempotency-key': key },
      payload,
    });

  const answer = (res: { statusCode: number; body: string }) => ({ status: res.statusCode, body: res.body });

  const storedVotes = (pollId: string) => database.db.select().from(schema.votes).where(eq(schema.votes.pollId, pollId));

  const claims = (userId: string) => database.db.select().from(schema.voteRequests).where(eq(schema.voteRequests.userId, userId));

  it('answers a retry with the same key exactly as the first time, and votes once', async () => {
    const { user, headers } = await signedIn();
    const { poll, options } = await buildPoll(database.db, { maxPointsPerUser: 10 });
    const first = await vote(app, poll.id, headers, points(options[0]!.id, 3), 'retry-key-0001');
    expect(first.statusCode, first.body).toBe(201);
    const again = await vote(app, poll.id, headers, points(options[0]!.id, 3), 'retry-key-0001');
    expect(answer(again)).toEqual(answer(first));

    expect(await storedVotes(poll.id)).toHaveLength(1);
    expect(first.json().availablePoints).toMatchObject({ spent: 3, available: 7 });
    const mine = await app.inject({ method: 'GET', url: `/api/polls/${poll.id}/my-votes`, headers });
    expect(mine.json().availablePoints).toMatchObject({ spent: 3, available: 7 });
    // The claim holds the answer it replays.
    const [claim] = await claims(user.id);
    expect(claim).toMatchObject({ key: 'retry-key-0001', pollId: poll.id, response: { status: 201, body: first.json() } });

    // A new key is a new vote.
    const next = await vote(app, poll.id, headers, points(options[0]!.id, 3), 'retry-key-0002');
    expect(next.json().availablePoints).toMatchObject({ spent: 6, available: 4 });
    expect(await storedVotes(poll.id)).toHaveLength(2);
  });

  it('replays a refusal decided with the vote: the same 400, still nothing spent', async () => {
    const { headers } = await signedIn();
    const { poll, options } = await buildPoll(database.db, { maxPointsPerUser: 5 });
    const first = await vote(app, poll.id, headers, points(options[0]!.id, 6), 'too-many-0001');
    expect(first.statusCode).toBe(400);
    expect(first.json().message).toBe(VOTE_MESSAGES.tooManyPoints(5));
    const again = await vote(app, poll.id, headers, points(options[0]!.id, 6), 'too-many-0001');
    expect(answer(again)).toEqual(answer(first));
    expect(await storedVotes(poll.id)).toHaveLength(0);
  });

  it('answers five concurrent requests with one key identically, writing one vote', async () => {
    const { headers } = await signedIn();
    const { poll, options } = await buildPoll(database.db, { maxPointsPerUser: 10 });
    const results = await Promise.all(Array.from({ length: 5 }, () => vote(app, poll.id, headers, points(options[1]!.id, 2), 'concurrent-key-1')));
    expect(results[0]!.statusCode, results[0]!.body).toBe(201);
    for (const res of results) expect(answer(res)).toEqual(answer(results[0]!));
    const rows = await storedVotes(poll.id);
    expect(rows.map((r) => [r.optionId, r.points])).toEqual([[options[1]!.id, 2]]);
  });

  it('writes once when the same key reaches two server instances at once', async () => {
    const { user, headers } = await signedIn();
    const { poll, options } = await buildPoll(database.db, { maxPointsPerUser: 10 });
    const results = await Promise.all([app, other, app, other].map((server) => vote(server, poll.id, headers, points(options[0]!.id, 4), 'two-servers-key')));
    expect(results[0]!.statusCode, results[0]!.body).toBe(201);
    for (const res of results) expect(answer(res)).toEqual(answer(results[0]!));
    expect(await storedVotes(poll.id)).toHaveLength(1);
    expect(await claims(user.id)).toHaveLength(1);
    // Later retries on either instance replay the same answer.
    for (const server of [app, other]) {
      expect(answer(await vote(server, poll.id, headers, points(options[0]!.id, 4), 'two-servers-key'))).toEqual(answer(results[0]!));
    }
  });

  it('refuses a key already used for a vote on another poll with 422, writing nothing', async () => {
    const { user, headers } = await signedIn();
    const first = await buildPoll(database.db);
    const second = await buildPoll(database.db);
    const single = (optionId: string) => ({ optionId, deviceFingerprint: FINGERPRINT });
    expect((await vote(app, first.poll.id, headers, single(first.options[0]!.id), 'reused-key-0001')).statusCode).toBe(201);
    const reused = await vote(other, second.poll.id, headers, single(second.options[0]!.id), 'reused-key-0001');
    expect(reused.statusCode).toBe(422);
    expect(reused.json()).toMatchObject({ statusCode: 422, message: VOTE_MESSAGES.idempotencyKeyReused });
    expect(await storedVotes(second.poll.id)).toHaveLength(0);
    expect((await claims(user.id)).map((c) => c.pollId)).toEqual([first.poll.id]);

    // The same key on two polls at once, on two instances: one poll gets the vote, the other a 422.
    const third = await buildPoll(database.db);
    const raced = await Promise.all([
      vote(app, second.poll.id, headers, single(second.options[0]!.id), 'raced-key-00001'),
      vote(other, third.poll.id, headers, single(third.options[0]!.id), 'raced-key-00001'),
    ]);
    expect(raced.map((r) => r.statusCode).sort()).toEqual([201, 422]);
    const written = [...(await storedVotes(second.poll.id)), ...(await storedVotes(third.poll.id))];
    expect(written).toHaveLength(1);
  });

  it('refuses a malformed key with 400 naming the header, writing nothing', async () => {
    const { user, headers } = await signedIn();
    const { poll, options } = await buildPoll(database.db);
    const payload = { optionId: options[0]!.id, deviceFingerprint: FINGERPRINT };
    for (const key of ['short', 'x'.repeat(101), 'has spaces in it', 'semi;colon-key', 'ñandú-key-0001']) {
      const res = await vote(app, poll.id, headers, payload, key);
      expect(res.statusCode, key).toBe(400);
      expect(res.json().message).toMatch(/^headers\/idempotency-key /);
    }
    expect(await storedVotes(poll.id)).toHaveLength(0);
    expect(await claims(user.id)).toHaveLength(0);
  });

  it('keeps votes without the header as before: every request is a vote of its own', async () => {
    const { user, headers } = await signedIn();
    const { poll, options } = await buildPoll(database.db, { maxPointsPerUser: 10 });
    const results = await Promise.all([vote(app, poll.id, headers, points(options[0]!.id, 2)), vote(app, poll.id, headers, points(options[0]!.id, 2))]);
    expect(results.map((r) => r.statusCode)).toEqual([201, 201]);
    expect(await storedVotes(poll.id)).toHaveLength(2);
    expect(await claims(user.id)).toHaveLength(0);
  });
});

describe('idempotent votes in the writer', () => {
  const database = testDatabase();

  afterAll(async () => {
    await database.close();
  });
  beforeEach(async () => {
    await truncateAll(database);
  });

  async function keyedCommand(key: string): Promise<VoteCommand> {
    const built = await buildPoll(database.db, { options: 2, maxPointsPerUser: 10 });
    const poll = (await new PollCache(database.db).get(built.poll.id))!;
    const user = await buildUser(database.db);
    return {
      userId: user.id,
      poll,
      allocations: [{ optionId: built.options[0]!.id, points: 2 }],
      deviceFingerprint: FINGERPRINT,
      userAgent: null,
      idempotencyKey: key,
    };
  }

  /** A vote's outcome as the route answers it (service.ts): the user's votes, or the HttpError of a refusal. */
  const answered = (outcome: Promise<VoteOutcome>) =>
    outcome.then(
      (o) => voteAnswer(o, TZ),
      (err: unknown) => {
        throw writerError(err);
      },
    );

  const setStoredAnswer = async (command: VoteCommand, response: unknown) =>
    await database.db
      .update(schema.voteRequests)
      .set({ response })
      .where(and(eq(schema.voteRequests.userId, command.userId), eq(schema.voteRequests.key, command.idempotencyKey!)));

  it('waits for the answer of a claim committed a moment ago (another instance is storing it)', async () => {
    const command = await keyedCommand('answer-in-flight');
    const writer = new VoteBatcher({ sql: database.sql, timeZone: TZ });
    await writer.submit(command);
    await setStoredAnswer(command, null);
    const replayed = answered(writer.submit(command));
    // Stored while the replay waits for it (a refusal here, so it cannot be mistaken for the standing).
    setTimeout(() => void setStoredAnswer(command, { status: 400, body: { statusCode: 400, error: 'Bad Request', message: 'stored answer' } }), 100);
    await expect(replayed).rejects.toMatchObject({ statusCode: 400, message: 'stored answer' });
    await writer.close();
    expect(await database.db.select().from(schema.votes)).toHaveLength(1);
  });

  it('answers a claim whose answer was never stored with the standing now (its vote is known committed)', async () => {
    const command = await keyedCommand('lost-answer-key');
    const writer = new VoteBatcher({ sql: database.sql, timeZone: TZ });
    const first = await answered(writer.submit(command));
    // As if the server had stopped between COMMIT and storing the answer.
    await setStoredAnswer(command, null);
    const replayed = await answered(writer.submit(command));
    await writer.close();
    expect(replayed).toEqual(first);
    expect(await database.db.select().from(schema.votes)).toHaveLength(1);
  });
});
