// Admin changes reaching voters and viewers: removed options off the ballot, results and live totals
// (their votes kept), and a second instance on the same Redis prefix refusing votes right after a close.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { AdminPollList } from '@tribuna/contracts/api/admin/polls';
import type { PollResults, Poll, HomePollResponse } from '@tribuna/contracts/api/polls';
import { VOTE_MESSAGES } from '@tribuna/contracts/voteMessages';
import { schema } from '@tribuna/drizzle';
import type { Database } from '@tribuna/drizzle/client';
import { testConfig } from '../../../../test/support/env.ts';
import { buildPoll, buildUser, buildVotes } from '../../../../test/support/factories.ts';
import { buildApp, type App } from '../../app.ts';
import { useListeningTestApp } from '../../../../test/support/server/harness.ts';
import { asUser, signIn } from '../../../../test/support/server/sessions.ts';
import { openWs } from '../../../../test/support/server/wsClient.ts';

let app: App;
let database: Database;
let baseUrl: string;
useListeningTestApp({}, (ready) => ({ app, database, baseUrl } = ready));

const db = () => database.db;

async function adminOf(target: App) {
  const admin = await buildUser(db(), { role: 'admin' });
  return asUser(await signIn(target, admin));
}

async function voterOf(target: App) {
  const user = await buildUser(db());
  const headers = asUser(await signIn(target, user));
  return {
    user,
    vote: (pollId: string, optionId: string) =>
      target.inject({ method: 'POST', url: `/api/polls/${pollId}/votes`, headers, payload: { optionId, deviceFingerprint: 'device-fingerprint-1' } }),
  };
}

const messageOf = (res: { json<T>(): T }) => res.json<{ message: string }>().message;

describe('an option removed from a poll that has votes', () => {
  it('leaves the ballot, the results and the live totals; its votes stay; voting for it is refused', async () => {
    const admin = await adminOf(app);
    const { poll, options } = await buildPoll(db(), { options: 3 });
    const [a, b, c] = await Promise.all([buildUser(db()), buildUser(db()), buildUser(db())]);
    await buildVotes(db(), [
      { pollId: poll.id, optionId: options[0]!.id, userId: a.id },
      { pollId: poll.id, optionId: options[0]!.id, userId: b.id },
      { pollId: poll.id, optionId: options[1]!.id, userId: c.id },
    ]);
    expect((await app.pollsLive.store.readSnapshot(poll.id)).totalVotes).toBe(3);

    const edit = await app.inject({
      method: 'PUT',
      url: `/api/admin/polls/${poll.id}`,
      headers: admin,
      payload: { title: poll.title, options: options.slice(1).map((o) => ({ id: o.id, contestantId: o.contestantId! })) },
    });
    expect(edit.statusCode, edit.body).toBe(200);

    expect(await db().select().from(schema.votes).where(eq(schema.votes.pollId, poll.id))).toHaveLength(3);
    const results = (await app.inject({ method: 'GET', url: `/api/polls/${poll.id}/results` })).json<PollResults>();
    expect(results).toMatchObject({ totalVotes: 1, totalVoters: 1 });
    expect(results.options.map((o) => o.optionId)).toEqual([options[1]!.id, options[2]!.id]);
    const shown = (await app.inject({ method: 'GET', url: `/api/polls/${poll.id}` })).json<Poll>();
    expect(shown.options.map((o) => o.id)).toEqual([options[1]!.id, options[2]!.id]);
    const live = await app.pollsLive.store.readSnapshot(poll.id);
    expect(live).toMatchObject({ totalVotes: 1, totalVoters: 1 });
    expect(live.options.map((o) => o.optionId)).toEqual([options[1]!.id, options[2]!.id]);
    const list = (await app.inject({ method: 'GET', url: '/api/admin/polls', headers: admin })).json<AdminPollList>();
    expect(list.polls[0]!.voteCount).toBe(1);
    expect(list.polls[0]!.options.map((o) => o.id)).toEqual([options[1]!.id, options[2]!.id]);

    const voter = await voterOf(app);
    const refused = await voter.vote(poll.id, options[0]!.id);
    expect([refused.statusCode, messageOf(refused)]).toEqual([400, VOTE_MESSAGES.foreignOption]);

    // A single-choice voter whose vote was on the removed option votes again: the old vote stays in their history.
    const again = await app.inject({
      method: 'POST',
      url: `/api/polls/${poll.id}/votes`,
      headers: asUser(await signIn(app, a)),
      payload: { optionId: options[2]!.id, deviceFingerprint: 'device-fingerprint-1' },
    });
    expect(again.statusCode, again.body).toBe(201);
    const aVotes = await db()
      .select()
      .from(schema.votes)
      .where(and(eq(schema.votes.pollId, poll.id), eq(schema.votes.userId, a.id)));
    expect(aVotes.map((v) => v.optionId).sort()).toEqual([options[0]!.id, options[2]!.id].sort());
    await expect.poll(async () => (await app.pollsLive.store.readSnapshot(poll.id)).totalVotes).toBe(2);
    expect(await app.pollsLive.reconcileNow()).toBeDefined();
    expect(await app.pollsLive.store.compare(poll.id)).toBe('ok');
  });

  it('is refused by PostgreSQL even while an instance still caches the option', async () => {
    const { poll, options } = await buildPoll(db(), { options: 3 });
    const voter = await voterOf(app);
    expect((await app.pollCache.get(poll.id))!.optionIds.has(options[0]!.id)).toBe(true);
    // Removed behind the cache's back (no poll.changed): as if the event had not arrived yet.
    await db().update(schema.pollOptions).set({ removedAt: new Date() }).where(eq(schema.pollOptions.id, options[0]!.id));
    const refused = await voter.vote(poll.id, options[0]!.id);
    expect([refused.statusCode, messageOf(refused)]).toEqual([400, VOTE_MESSAGES.foreignOption]);
    expect(await db().select().from(schema.votes)).toEqual([]);
  });
});

describe('two instances on one database and Redis prefix', () => {
  let other: App;
  let otherUrl: string;
  beforeAll(async () => {
    other = await buildApp(testConfig({}));
    await other.listen({ host: '127.0.0.1', port: 0 });
    otherUrl = `ws://127.0.0.1:${(other.server.address() as AddressInfo).port}/ws`;
  });
  afterAll(async () => {
    await other?.close();
  });

  it('a vote sent to instance B right after a close on instance A is refused', async () => {
    const admin = await adminOf(app);
    const { poll, options } = await buildPoll(db());
    const voter = await voterOf(other);
    expect((await voter.vote(poll.id, options[0]!.id)).statusCode).toBe(201); // B has the poll cached as active
    const close = await app.inject({ method: 'POST', url: `/api/admin/polls/${poll.id}/status`, headers: admin, payload: { status: 'closed' } });
    expect(close.statusCode).toBe(200);
    const refused = await voter.vote(poll.id, options[1]!.id);
    expect([refused.statusCode, messageOf(refused)]).toEqual([409, VOTE_MESSAGES.pollClosed]);
    expect((await db().select().from(schema.votes)).map((v) => v.optionId)).toEqual([options[0]!.id]);
  });

  it('refuses votes for a poll closed behind a stale cache (the event not yet arrived)', async () => {
    const { poll, options } = await buildPoll(db());
    const voter = await voterOf(other);
    expect((await other.pollCache.get(poll.id))!.status).toBe('active');
    await db().update(schema.polls).set({ status: 'closed' }).where(eq(schema.polls.id, poll.id));
    const refused = await voter.vote(poll.id, options[0]!.id);
    expect([refused.statusCode, messageOf(refused)]).toEqual([409, VOTE_MESSAGES.pollClosed]);
  });

  it("tells B's viewers at once: a closed poll shows closed, a newly featured poll replaces the home poll", async () => {
    const admin = await adminOf(app);
    const home = await buildPoll(db(), { isFeatured: true });
    const next = await buildPoll(db());
    const viewer = await openWs(otherUrl);
    viewer.send({ type: 'subscribe', topic: `poll:${home.poll.id}` });
    await viewer.waitFor((m) => m.type === 'results');

    const feature = await app.inject({ method: 'POST', url: `/api/admin/polls/${next.poll.id}/feature`, headers: admin });
    expect(feature.statusCode).toBe(200);
    await viewer.waitFor((m) => m.type === 'poll-status' && m.pollId === home.poll.id && !m.isFeatured);
    const shown = (await other.inject({ method: 'GET', url: '/api/polls/home' })).json<HomePollResponse>();
    expect(shown.poll?.id).toBe(next.poll.id);

    viewer.send({ type: 'subscribe', topic: `poll:${next.poll.id}` });
    await viewer.waitFor((m) => m.type === 'results' && m.pollId === next.poll.id);
    await app.inject({ method: 'POST', url: `/api/admin/polls/${next.poll.id}/status`, headers: admin, payload: { status: 'closed' } });
    await viewer.waitFor((m) => m.type === 'poll-status' && m.pollId === next.poll.id && m.status === 'closed');
    await viewer.close();
  });

  it('tells the viewers of the newest open poll (the home poll without a featured one) that another one is featured', async () => {
    const older = await buildPoll(db(), { createdAt: new Date(Date.now() - 60_000) });
    const newest = await buildPoll(db());
    const viewer = await openWs(`${baseUrl.replace('http', 'ws')}/ws`);
    viewer.send({ type: 'subscribe', topic: `poll:${newest.poll.id}` });
    await viewer.waitFor((m) => m.type === 'results');
    await other.inject({ method: 'POST', url: `/api/admin/polls/${older.poll.id}/feature`, headers: await adminOf(other) });
    await viewer.waitFor((m) => m.type === 'poll-status' && m.pollId === newest.poll.id && !m.isFeatured);
    await viewer.close();
  });
});
