import { describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { ADMIN_MESSAGES } from '@tribuna/contracts/adminRules';
import type { AdminPollList, AdminPollView } from '@tribuna/contracts/api/admin/polls';
import type { HomePollResponse } from '@tribuna/contracts/api/polls';
import { schema } from '@tribuna/drizzle';
import type { Database } from '@tribuna/drizzle/client';
import { buildPoll, buildSeason, buildUser, buildVotes } from '../../../../test/support/factories.ts';
import type { App } from '../../app.ts';
import { useTestApp } from '../../../../test/support/server/harness.ts';
import { asUser, signIn } from '../../../../test/support/server/sessions.ts';
import { CONTESTANT_OPTION_CHANGED, TOTAL_POINTS_MAX } from './rules.ts';

let app: App;
let database: Database;
const statements: string[] = [];
useTestApp({}, (ready) => ({ app, database } = ready), { build: () => ({ onQuery: (query) => void statements.push(query) }) });

const db = () => database.db;

async function asAdmin() {
  const admin = await buildUser(db(), { role: 'admin' });
  const headers = asUser(await signIn(app, admin));
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  return { admin, headers, call };
}

async function contestants(seasonId: string, n: number, status: 'active' | 'eliminated' | 'finalist' | 'winner' = 'active') {
  const rows = [];
  for (let i = 0; i < n; i++) {
    const [row] = await db()
      .insert(schema.contestants)
      .values({ seasonId, fullName: `Concursante ${i + 1}`, status })
      .returning();
    rows.push(row!);
  }
  return rows;
}

const pollCount = async () =>
  (
    await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(schema.polls)
  )[0]!.n;
const auditActions = async () => (await db().select({ action: schema.adminAuditLog.action }).from(schema.adminAuditLog)).map((r) => r.action);

describe('POST /api/admin/polls', () => {
  it('creates a single-choice contestants poll with its options, points config and audit row', async () => {
    const { call, admin } = await asAdmin();
    const { season } = await buildSeason(db());
    const [a, b] = await contestants(season.id, 2);
    const res = await call('POST', '/api/admin/polls', {
      title: '  ¿Quién sale?  ',
      seasonId: season.id,
      voteMode: 'single',
      optionType: 'contestants',
      status: 'active',
      maxPointsPerUser: 10,
      dailyReset: true,
      options: [{ contestantId: b!.id }, { contestantId: a!.id }, { contestantId: b!.id }],
    });
    expect(res.statusCode, res.body).toBe(201);
    const poll = res.json<AdminPollView>();
    expect(poll).toMatchObject({
      title: '¿Quién sale?',
      status: 'active',
      effectiveStatus: 'active',
      isFeatured: false,
      voteMode: 'single',
      optionType: 'contestants',
      maxPointsPerUser: 1,
      dailyReset: false,
      endDate: null,
      voteCount: 0,
    });
    expect(poll.options.map((o) => [o.contestantId, o.label, o.order])).toEqual([
      [b!.id, 'Concursante 2', 0],
      [a!.id, 'Concursante 1', 1],
    ]);
    const [stored] = await db().select().from(schema.polls).where(eq(schema.polls.id, poll.id));
    expect(stored!.pollMode).toBe('manual');
    const [audit] = await db().select().from(schema.adminAuditLog);
    expect(audit).toMatchObject({ adminId: admin.id, action: 'poll.create', entityType: 'poll', entityId: poll.id, before: null });
    expect((audit!.after as AdminPollView).title).toBe('¿Quién sale?');
  });

  it('creates a points poll of custom texts with a countdown: total 10 and daily reset by default, blanks left out', async () => {
    const { call } = await asAdmin();
    const { season } = await buildSeason(db());
    const endDate = new Date(Date.now() + 3_600_000).toISOString();
    const res = await call('POST', '/api/admin/polls', {
      title: 'Favorito',
      description: '  La gala  ',
      seasonId: season.id,
      voteMode: 'points',
      optionType: 'custom',
      status: 'draft',
      endDate,
      options: [{ text: ' Sí ' }, { text: '   ' }, { text: 'No' }],
    });
    expect(res.statusCode, res.body).toBe(201);
    const poll = res.json<AdminPollView>();
    expect(poll).toMatchObject({
      status: 'draft',
      voteMode: 'points',
      optionType: 'custom',
      maxPointsPerUser: 10,
      dailyReset: true,
      description: 'La gala',
      endDate,
    });
    expect(poll.options.map((o) => o.label)).toEqual(['Sí', 'No']);
    const [stored] = await db().select().from(schema.polls).where(eq(schema.polls.id, poll.id));
    expect(stored!.pollMode).toBe('countdown');
  });

  it("answers every rule's message and writes nothing", async () => {
    const { call } = await asAdmin();
    const { season } = await buildSeason(db());
    const other = await buildSeason(db());
    const [a, b] = await contestants(season.id, 2);
    const [foreign] = await contestants(other.season.id, 1);
    const [finalist] = await contestants(season.id, 1, 'finalist');
    const [deletedSeason] = await db().insert(schema.seasons).values({ realityId: other.reality.id, number: 2, year: 2025, deletedAt: new Date() }).returning();
    const base = {
      title: 'Encuesta',
      seasonId: season.id,
      voteMode: 'single',
      optionType: 'contestants',
      status: 'active',
      options: [{ contestantId: a!.id }, { contestantId: b!.id }],
    };
    const cases: [object, number, string][] = [
      [{ ...base, title: '   ' }, 400, ADMIN_MESSAGES.pollTitleRequired],
      [{ ...base, title: undefined }, 400, ADMIN_MESSAGES.pollTitleRequired],
      [{ ...base, title: 'x'.repeat(201) }, 400, 'El título no puede tener más de 200 caracteres'],
      [{ ...base, seasonId: '' }, 400, ADMIN_MESSAGES.pollSeasonRequired],
      [{ ...base, seasonId: undefined }, 400, ADMIN_MESSAGES.pollSeasonRequired],
      [{ ...base, seasonId: '123e4567-e89b-42d3-a456-426614174000' }, 400, ADMIN_MESSAGES.pollSeasonRequired],
      [{ ...base, seasonId: deletedSeason!.id }, 400, ADMIN_MESSAGES.pollSeasonRequired],
      [{ ...base, options: [{ contestantId: a!.id }] }, 400, ADMIN_MESSAGES.minContestants],
      [{ ...base, options: [{ contestantId: a!.id }, { contestantId: a!.id }] }, 400, ADMIN_MESSAGES.minContestants],
      [{ ...base, options: [{ contestantId: a!.id }, { contestantId: foreign!.id }] }, 400, ADMIN_MESSAGES.contestantNotInSeason],
      [{ ...base, options: [{ contestantId: a!.id }, { contestantId: finalist!.id }] }, 400, ADMIN_MESSAGES.contestantNotInSeason],
      [{ ...base, optionType: 'custom', options: [{ text: 'Sí' }, { text: '  ' }] }, 400, ADMIN_MESSAGES.minOptions],
      [{ ...base, optionType: 'custom', options: [{ text: 'Sí' }, { contestantId: a!.id }] }, 400, ADMIN_MESSAGES.minOptions],
      [{ ...base, voteMode: 'points', maxPointsPerUser: 1 }, 400, ADMIN_MESSAGES.totalPointsMin],
      [{ ...base, voteMode: 'points', maxPointsPerUser: 5000 }, 400, TOTAL_POINTS_MAX],
      [{ ...base, endDate: new Date(Date.now() - 60_000).toISOString() }, 400, 'La fecha de cierre debe ser posterior a la fecha actual'],
    ];
    for (const [payload, status, message] of cases) {
      const res = await call('POST', '/api/admin/polls', payload);
      expect([res.statusCode, res.json<{ message: string }>().message], JSON.stringify(payload)).toEqual([status, message]);
    }
    // Eliminated contestants may be options.
    const [eliminated] = await contestants(season.id, 1, 'eliminated');
    expect(await pollCount()).toBe(0);
    const ok = await call('POST', '/api/admin/polls', { ...base, options: [{ contestantId: a!.id }, { contestantId: eliminated!.id }] });
    expect(ok.statusCode, ok.body).toBe(201);
  });
});

describe('GET /api/admin/polls', () => {
  it('lists polls newest first with reality, season, statuses, featured flag and vote counts, in a fixed number of statements', async () => {
    const { call } = await asAdmin();
    const voters = await Promise.all([1, 2, 3].map(() => buildUser(db())));
    const older = await buildPoll(db(), { createdAt: new Date(Date.now() - 60_000), isFeatured: true, options: 3 });
    const newer = await buildPoll(db(), { endDate: new Date(Date.now() - 1000) });
    await buildVotes(db(), [
      { pollId: older.poll.id, optionId: older.options[0]!.id, userId: voters[0]!.id },
      { pollId: older.poll.id, optionId: older.options[0]!.id, userId: voters[1]!.id },
      { pollId: older.poll.id, optionId: older.options[2]!.id, userId: voters[2]!.id, points: 4 },
      { pollId: newer.poll.id, optionId: newer.options[1]!.id, userId: voters[0]!.id },
    ]);
    const countStatements = async (url: string) => {
      statements.length = 0;
      const res = await call('GET', url);
      expect(res.statusCode, res.body).toBe(200);
      return { body: res.json<AdminPollList>(), count: statements.filter((s) => /poll/i.test(s)).length };
    };
    const { body, count } = await countStatements('/api/admin/polls');
    expect(body.polls.map((p) => p.id)).toEqual([newer.poll.id, older.poll.id]);
    expect(body.polls[0]).toMatchObject({
      status: 'active',
      effectiveStatus: 'closed',
      isFeatured: false,
      voteCount: 1,
      realityName: newer.reality.name,
      seasonNumber: 1,
    });
    expect(body.polls[1]).toMatchObject({ isFeatured: true, voteCount: 3 });
    expect(body.polls[1]!.options.map((o) => o.voteCount)).toEqual([2, 0, 1]);
    expect(count).toBeLessThanOrEqual(2);

    // More polls, same number of statements.
    for (let i = 0; i < 4; i++) await buildPoll(db());
    expect((await countStatements('/api/admin/polls')).count).toBe(count);

    const filtered = await countStatements(`/api/admin/polls?seasonId=${older.season.id}`);
    expect(filtered.body.polls.map((p) => p.id)).toEqual([older.poll.id]);
  });
});

describe('PUT /api/admin/polls/:pollId', () => {
  it('keeps option ids and votes, removes a voted option from the ballot, deletes an unvoted one, adds and reorders', async () => {
    const { call } = await asAdmin();
    const { poll, options, season } = await buildPoll(db(), { options: 4 });
    const [fresh] = await contestants(season.id, 1);
    const voter = await buildUser(db());
    await buildVotes(db(), [
      { pollId: poll.id, optionId: options[0]!.id, userId: voter.id },
      { pollId: poll.id, optionId: options[1]!.id, userId: voter.id },
    ]);
    const res = await call('PUT', `/api/admin/polls/${poll.id}`, {
      title: 'Editada',
      description: 'Nueva descripción',
      options: [
        { id: options[2]!.id, contestantId: options[2]!.contestantId! },
        { contestantId: fresh!.id },
        { id: options[0]!.id, contestantId: options[0]!.contestantId! },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const view = res.json<AdminPollView>();
    expect(view.title).toBe('Editada');
    expect(view.options.map((o) => o.id)).toEqual([options[2]!.id, view.options[1]!.id, options[0]!.id]);
    expect(view.options[1]!.contestantId).toBe(fresh!.id);
    expect(view.options.map((o) => o.voteCount)).toEqual([0, 0, 1]);
    expect(view.voteCount).toBe(1);

    const stored = await db().select().from(schema.pollOptions).where(eq(schema.pollOptions.pollId, poll.id));
    const byId = new Map(stored.map((o) => [o.id, o]));
    expect(byId.get(options[1]!.id)!.removedAt).not.toBeNull(); // voted: off the ballot, kept
    expect(byId.has(options[3]!.id)).toBe(false); // never voted: deleted
    expect(byId.get(options[0]!.id)!.removedAt).toBeNull();
    expect(await db().select().from(schema.votes)).toHaveLength(2); // no vote lost or moved
    const audit = await db().select().from(schema.adminAuditLog);
    expect(audit.map((a) => a.action)).toEqual(['poll.update']);
    expect((audit[0]!.before as AdminPollView).options).toHaveLength(4);
    expect((audit[0]!.after as AdminPollView & { removedOptionIds: string[] }).removedOptionIds).toEqual([options[1]!.id]);

    // Sending a removed option's id back puts it (and its votes) back on the ballot.
    const back = await call('PUT', `/api/admin/polls/${poll.id}`, {
      title: 'Editada',
      options: [...view.options.map((o) => ({ id: o.id, contestantId: o.contestantId! })), { id: options[1]!.id, contestantId: options[1]!.contestantId! }],
    });
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json<AdminPollView>().voteCount).toBe(2);
  });

  it('locks season, vote mode and option type, and checks options and points like creation', async () => {
    const { call } = await asAdmin();
    const { poll, options } = await buildPoll(db());
    const points = await buildPoll(db(), { maxPointsPerUser: 10 });
    const other = await buildPoll(db());
    const keep = options.map((o) => ({ id: o.id, contestantId: o.contestantId! }));
    const cases: [string, object, number, string][] = [
      [poll.id, { title: 'x', options: [{ text: 'Sí' }, { text: 'No' }] }, 400, ADMIN_MESSAGES.pollLocked],
      [poll.id, { title: 'x', options: keep, maxPointsPerUser: 5 }, 400, ADMIN_MESSAGES.pollLocked],
      [poll.id, { title: 'x', options: keep, seasonId: other.season.id }, 400, ADMIN_MESSAGES.pollLocked],
      [poll.id, { title: 'x', options: keep, voteMode: 'points' }, 400, ADMIN_MESSAGES.pollLocked],
      [poll.id, { title: ' ', options: keep }, 400, ADMIN_MESSAGES.pollTitleRequired],
      [poll.id, { title: 'x', options: [keep[0]!] }, 400, ADMIN_MESSAGES.minContestants],
      [
        poll.id,
        { title: 'x', options: [keep[0]!, { id: other.options[0]!.id, contestantId: other.options[0]!.contestantId! }] },
        400,
        ADMIN_MESSAGES.optionNotInPoll,
      ],
      [poll.id, { title: 'x', options: [keep[0]!, { id: keep[1]!.id, contestantId: other.options[0]!.contestantId! }] }, 400, CONTESTANT_OPTION_CHANGED],
      [poll.id, { title: 'x', options: [keep[0]!, { contestantId: other.options[0]!.contestantId! }] }, 400, ADMIN_MESSAGES.contestantNotInSeason],
      [
        points.poll.id,
        { title: 'x', options: points.options.map((o) => ({ id: o.id, contestantId: o.contestantId! })), maxPointsPerUser: 1 },
        400,
        ADMIN_MESSAGES.totalPointsMin,
      ],
      ['123e4567-e89b-42d3-a456-426614174000', { title: 'x', options: keep }, 404, ADMIN_MESSAGES.pollNotFound],
    ];
    for (const [id, payload, status, message] of cases) {
      const res = await call('PUT', `/api/admin/polls/${id}`, payload);
      expect([res.statusCode, res.json<{ message: string }>().message], JSON.stringify(payload)).toEqual([status, message]);
    }
    expect(await auditActions()).toEqual([]);
    const ok = await call('PUT', `/api/admin/polls/${points.poll.id}`, {
      title: 'Puntos',
      options: points.options.map((o) => ({ id: o.id, contestantId: o.contestantId! })),
      maxPointsPerUser: 20,
      dailyReset: false,
    });
    expect(ok.json<AdminPollView>()).toMatchObject({ voteMode: 'points', maxPointsPerUser: 20, dailyReset: false });
  });
});

describe('POST /api/admin/polls/:pollId/status', () => {
  it('closes an active poll, reopens a closed one, activates a draft, and refuses every other transition', async () => {
    const { call } = await asAdmin();
    const { poll } = await buildPoll(db());
    const setStatus = (id: string, status: string) => call('POST', `/api/admin/polls/${id}/status`, { status });
    const close = await setStatus(poll.id, 'closed');
    expect(close.json<AdminPollView>()).toMatchObject({ status: 'closed', effectiveStatus: 'closed' });
    const again = await setStatus(poll.id, 'closed');
    expect([again.statusCode, again.json<{ message: string }>().message]).toEqual([409, ADMIN_MESSAGES.invalidTransition]);
    expect((await setStatus(poll.id, 'active')).json<AdminPollView>().status).toBe('active');
    expect((await setStatus(poll.id, 'active')).statusCode).toBe(409);

    const draft = await buildPoll(db(), { status: 'draft' });
    expect((await setStatus(draft.poll.id, 'closed')).statusCode).toBe(409);
    expect((await setStatus(draft.poll.id, 'active')).json<AdminPollView>().status).toBe('active');

    // A countdown that ran out: Reabrir drops it (the poll would still be closed).
    const expired = await buildPoll(db(), { endDate: new Date(Date.now() - 1000) });
    const reopened = await setStatus(expired.poll.id, 'active');
    expect(reopened.json<AdminPollView>()).toMatchObject({ status: 'active', effectiveStatus: 'active', endDate: null });
    expect(await auditActions()).toEqual(['poll.close', 'poll.reopen', 'poll.activate', 'poll.reopen']);
  });

  it('needs at least 2 options on the ballot to reopen or activate', async () => {
    const { call } = await asAdmin();
    const closed = await buildPoll(db(), { status: 'closed', options: 3 });
    await db().update(schema.pollOptions).set({ removedAt: new Date() }).where(eq(schema.pollOptions.id, closed.options[0]!.id));
    await db().update(schema.pollOptions).set({ removedAt: new Date() }).where(eq(schema.pollOptions.id, closed.options[1]!.id));
    const draft = await buildPoll(db(), { status: 'draft', options: 1 });
    for (const id of [closed.poll.id, draft.poll.id]) {
      const res = await call('POST', `/api/admin/polls/${id}/status`, { status: 'active' });
      expect([res.statusCode, res.json<{ message: string }>().message]).toEqual([400, ADMIN_MESSAGES.reopenNeedsOptions]);
    }
    const missing = await call('POST', '/api/admin/polls/123e4567-e89b-42d3-a456-426614174000/status', { status: 'closed' });
    expect(missing.statusCode).toBe(404);
  });

  it('closes once under concurrent requests: one 200, the others 409, no 500', async () => {
    const { call } = await asAdmin();
    const { poll } = await buildPoll(db());
    const answers = await Promise.all(Array.from({ length: 8 }, () => call('POST', `/api/admin/polls/${poll.id}/status`, { status: 'closed' })));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
    expect(await auditActions()).toEqual(['poll.close']);
  });
});

describe('POST /api/admin/polls/:pollId/feature', () => {
  it('makes the poll the single featured one, clearing the previous one', async () => {
    const { call } = await asAdmin();
    const first = await buildPoll(db(), { isFeatured: true });
    const second = await buildPoll(db());
    const res = await call('POST', `/api/admin/polls/${second.poll.id}/feature`);
    expect(res.json<AdminPollView>().isFeatured).toBe(true);
    const featured = await db().select({ id: schema.polls.id }).from(schema.polls).where(eq(schema.polls.isFeatured, true));
    expect(featured).toEqual([{ id: second.poll.id }]);
    expect((await call('POST', `/api/admin/polls/${second.poll.id}/feature`)).statusCode).toBe(200);
    expect((await call('POST', '/api/admin/polls/123e4567-e89b-42d3-a456-426614174000/feature')).statusCode).toBe(404);
    void first;
  });

  it('features a closed poll: the home page shows it, closed, with its final results', async () => {
    const { call } = await asAdmin();
    const open = await buildPoll(db(), { isFeatured: true });
    const closed = await buildPoll(db(), { status: 'closed', createdAt: new Date(Date.now() - 86_400_000) });
    const voter = await buildUser(db());
    await buildVotes(db(), [{ pollId: closed.poll.id, optionId: closed.options[1]!.id, userId: voter.id }]);

    const res = await call('POST', `/api/admin/polls/${closed.poll.id}/feature`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<AdminPollView>()).toMatchObject({ status: 'closed', isFeatured: true });

    const home = await app.inject({ method: 'GET', url: '/api/polls/home' });
    expect(home.json<HomePollResponse>()).toMatchObject({
      poll: { id: closed.poll.id, status: 'closed', isFeatured: true },
      results: { pollId: closed.poll.id, totalVotes: 1, options: [{ totalVotes: 0 }, { optionId: closed.options[1]!.id, totalVotes: 1 }] },
    });
    void open;
  });

  it('refuses to feature a draft with a clear 409, leaving the featured poll and the audit log as they were', async () => {
    const { call } = await asAdmin();
    const featured = await buildPoll(db(), { isFeatured: true });
    const draft = await buildPoll(db(), { status: 'draft' });
    const res = await call('POST', `/api/admin/polls/${draft.poll.id}/feature`);
    expect(res.statusCode).toBe(409);
    expect(res.json<{ message: string }>().message).toBe(ADMIN_MESSAGES.featureDraft);
    const flagged = await db().select({ id: schema.polls.id }).from(schema.polls).where(eq(schema.polls.isFeatured, true));
    expect(flagged).toEqual([{ id: featured.poll.id }]);
    expect(await auditActions()).toEqual([]);
  });

  it('ends with exactly one featured poll when several are featured at once, without a 500', async () => {
    const { call } = await asAdmin();
    const polls = await Promise.all(Array.from({ length: 6 }, () => buildPoll(db())));
    const answers = await Promise.all(polls.map(({ poll }) => call('POST', `/api/admin/polls/${poll.id}/feature`)));
    expect(answers.map((a) => a.statusCode)).toEqual(polls.map(() => 200));
    const featured = await db().select({ id: schema.polls.id }).from(schema.polls).where(eq(schema.polls.isFeatured, true));
    expect(featured).toHaveLength(1);
  });
});

describe('DELETE /api/admin/polls/:pollId', () => {
  it('removes the poll, its votes, options, points config, counters and live totals, with an audit row', async () => {
    const { call } = await asAdmin();
    const { poll, options } = await buildPoll(db());
    const kept = await buildPoll(db());
    const voter = await buildUser(db());
    await buildVotes(db(), [
      { pollId: poll.id, optionId: options[0]!.id, userId: voter.id },
      { pollId: kept.poll.id, optionId: kept.options[0]!.id, userId: voter.id },
    ]);
    await app.pollsLive.store.readSnapshot(poll.id); // live totals now exist in Redis
    const totalsKeys = await app.redis.keys(`${app.config.redisPrefix}:*${poll.id}*`);
    expect(totalsKeys.length).toBeGreaterThan(0);

    const res = await call('DELETE', `/api/admin/polls/${poll.id}`);
    expect(res.statusCode).toBe(204);
    expect(await db().select().from(schema.polls).where(eq(schema.polls.id, poll.id))).toEqual([]);
    expect(await db().select().from(schema.pollOptions).where(eq(schema.pollOptions.pollId, poll.id))).toEqual([]);
    expect(await db().select().from(schema.pollPointsConfig).where(eq(schema.pollPointsConfig.pollId, poll.id))).toEqual([]);
    expect(await db().select().from(schema.pollVoteCounts).where(eq(schema.pollVoteCounts.pollId, poll.id))).toEqual([]);
    expect((await db().select().from(schema.votes)).map((v) => v.pollId)).toEqual([kept.poll.id]);
    expect(await app.redis.keys(`${app.config.redisPrefix}:*${poll.id}*`)).toEqual([]);
    const [audit] = await db().select().from(schema.adminAuditLog);
    expect(audit).toMatchObject({ action: 'poll.delete', entityId: poll.id, after: null });
    expect((audit!.before as AdminPollView).voteCount).toBe(1);
    expect((await call('DELETE', `/api/admin/polls/${poll.id}`)).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: `/api/polls/${poll.id}` })).statusCode).toBe(404);
  });
});
