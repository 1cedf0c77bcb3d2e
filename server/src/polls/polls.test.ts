import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { schema } from '@tribuna/drizzle';
import type { Database } from '@tribuna/drizzle/client';
import type { HomePollResponse, Poll, PollListResponse, PollResults } from '@tribuna/contracts/api/polls';
import { buildPoll, buildUser, buildVotes } from '../../../test/support/factories.ts';
import type { App } from '../app.ts';
import { useTestApp } from '../../../test/support/server/harness.ts';
import { asUser, signIn } from '../../../test/support/server/sessions.ts';

const HOUR = 3_600_000;
const ago = (ms: number) => new Date(Date.now() - ms);
const inFuture = (ms: number) => new Date(Date.now() + ms);

describe('polls API', () => {
  let app: App;
  let database: Database;
  useTestApp({}, (ready) => ({ app, database } = ready));

  const get = async <T>(url: string, status = 200, headers: Record<string, string> = {}): Promise<T> => {
    const res = await app.inject({ method: 'GET', url, headers });
    expect(res.statusCode, res.body).toBe(status);
    return res.json<T>();
  };
  /** A signed-in reader: voters lists name voters only for them (voterPrivacy.test.ts). */
  const asReader = async () => asUser(await signIn(app, await buildUser(database.db)));

  async function vote(pollId: string, optionId: string, userId: string, points = 1, createdAt = new Date()) {
    await buildVotes(database.db, [{ pollId, optionId, userId, points, createdAt }]);
  }

  describe('GET /api/polls/home', () => {
    it('answers null poll and results when no poll is open nor featured', async () => {
      await buildPoll(database.db, { status: 'draft' });
      await buildPoll(database.db, { status: 'closed' });
      expect(await get<HomePollResponse>('/api/polls/home')).toEqual({ poll: null, results: null });
    });

    it('prefers the featured active poll over a newer one', async () => {
      const featured = await buildPoll(database.db, { isFeatured: true, createdAt: ago(48 * HOUR) });
      await buildPoll(database.db, { createdAt: ago(HOUR) });
      const home = await get<HomePollResponse>('/api/polls/home');
      expect(home.poll?.id).toBe(featured.poll.id);
      expect(home.poll?.isFeatured).toBe(true);
      expect(home.results?.pollId).toBe(featured.poll.id);
    });

    it('falls back to the newest active poll, skipping drafts, closed polls and polls past their end date', async () => {
      await buildPoll(database.db, { createdAt: ago(48 * HOUR) });
      const newest = await buildPoll(database.db, { createdAt: ago(2 * HOUR), endDate: inFuture(HOUR) });
      await buildPoll(database.db, { status: 'draft', createdAt: ago(HOUR) });
      await buildPoll(database.db, { status: 'closed', createdAt: ago(HOUR) });
      await buildPoll(database.db, { endDate: ago(HOUR), createdAt: ago(HOUR) });
      const home = await get<HomePollResponse>('/api/polls/home');
      expect(home.poll?.id).toBe(newest.poll.id);
      expect(home.poll?.status).toBe('active');
    });

    it('shows the featured poll once closed, with its final results and closed status, over a newer open one', async () => {
      const featured = await buildPoll(database.db, { status: 'closed', isFeatured: true, createdAt: ago(48 * HOUR) });
      await buildPoll(database.db, { createdAt: ago(HOUR) });
      const [a, b] = featured.options as [(typeof featured.options)[0], (typeof featured.options)[0]];
      const ana = await buildUser(database.db, { displayName: 'Ana' });
      const luis = await buildUser(database.db, { displayName: 'Luis' });
      await vote(featured.poll.id, a.id, ana.id, 1, ago(3000));
      await vote(featured.poll.id, a.id, luis.id, 1, ago(2000));

      const home = await get<HomePollResponse>('/api/polls/home', 200, await asReader());
      expect(home.poll).toMatchObject({ id: featured.poll.id, status: 'closed', isFeatured: true });
      expect(home.results).toMatchObject({
        pollId: featured.poll.id,
        totalVotes: 2,
        totalVoters: 2,
        options: [
          { optionId: a.id, totalVotes: 2, voters: [{ displayName: 'Luis' }, { displayName: 'Ana' }] },
          { optionId: b.id, totalVotes: 0, voters: [] },
        ],
      });
    });

    it('shows the featured poll after its end date has passed, as closed', async () => {
      const featured = await buildPoll(database.db, { isFeatured: true, endDate: ago(HOUR), createdAt: ago(24 * HOUR) });
      await buildPoll(database.db, { createdAt: ago(HOUR) });
      const home = await get<HomePollResponse>('/api/polls/home');
      expect(home.poll).toMatchObject({ id: featured.poll.id, status: 'closed' });
      expect(home.results?.pollId).toBe(featured.poll.id);
    });

    it('includes the poll with season, reality, points config and options with contestants', async () => {
      const built = await buildPoll(database.db, { options: 3, maxPointsPerUser: 10, endDate: inFuture(HOUR) });
      const { poll } = await get<HomePollResponse>('/api/polls/home');
      expect(poll).toMatchObject({
        id: built.poll.id,
        title: built.poll.title,
        description: null,
        status: 'active',
        showResults: true,
        endDate: built.poll.endDate!.toISOString(),
        createdAt: built.poll.createdAt.toISOString(),
        season: {
          id: built.season.id,
          number: 1,
          year: 2025,
          reality: { id: built.reality.id, name: built.reality.name },
        },
        pointsConfig: { pointsPerVote: 1, maxPointsPerUser: 10, dailyReset: true, bonusForSharing: 5 },
      });
      expect(poll!.options.map((o) => o.id)).toEqual(built.options.map((o) => o.id));
      expect(poll!.options[0]).toMatchObject({ order: 0, text: null, contestant: { fullName: expect.stringMatching(/^Concursante 1/) } });
    });

    it('answers the shared poll of ?encuesta= when it is public, even closed, else the usual home poll', async () => {
      const home = await buildPoll(database.db, { isFeatured: true });
      const shared = await buildPoll(database.db, { status: 'closed', createdAt: ago(72 * HOUR) });
      const draft = await buildPoll(database.db, { status: 'draft' });

      const sharedHome = await get<HomePollResponse>(`/api/polls/home?encuesta=${shared.poll.id}`);
      expect(sharedHome.poll).toMatchObject({ id: shared.poll.id, status: 'closed' });
      expect(sharedHome.results?.pollId).toBe(shared.poll.id);

      for (const encuesta of [draft.poll.id, '123e4567-e89b-42d3-a456-426614174000', 'no-es-un-id', '', 'x'.repeat(500), 'a&encuesta=b']) {
        const fallback = await get<HomePollResponse>(`/api/polls/home?encuesta=${encuesta}`);
        expect(fallback.poll?.id, encuesta).toBe(home.poll.id);
      }
      // A link mangled into a repeated parameter still shows its poll (the first one counts).
      const repeated = await get<HomePollResponse>(`/api/polls/home?encuesta=${shared.poll.id}&encuesta=otro`);
      expect(repeated.poll?.id).toBe(shared.poll.id);
    });

    it('hides the results when the poll does not show them', async () => {
      const built = await buildPoll(database.db);
      await database.db.update(schema.polls).set({ showResults: false }).where(eq(schema.polls.id, built.poll.id));
      const home = await get<HomePollResponse>('/api/polls/home');
      expect(home.poll?.showResults).toBe(false);
      expect(home.results).toBeNull();
    });
  });

  describe('GET /api/polls', () => {
    it('lists active and closed polls, featured first, then newest first, never drafts', async () => {
      const old = await buildPoll(database.db, { status: 'closed', createdAt: ago(72 * HOUR) });
      const featured = await buildPoll(database.db, { isFeatured: true, createdAt: ago(48 * HOUR) });
      const expired = await buildPoll(database.db, { endDate: ago(HOUR), createdAt: ago(24 * HOUR) });
      const newest = await buildPoll(database.db, { createdAt: ago(HOUR) });
      await buildPoll(database.db, { status: 'draft', createdAt: ago(HOUR / 2) });

      const { polls } = await get<PollListResponse>('/api/polls');
      expect(polls.map((p) => p.id)).toEqual([featured.poll.id, newest.poll.id, expired.poll.id, old.poll.id]);
      expect(polls.map((p) => p.status)).toEqual(['active', 'active', 'closed', 'closed']);
      expect(polls.every((p) => p.options.length === 2)).toBe(true);
    });
  });

  describe('GET /api/polls/:pollId', () => {
    it('presents an active poll past its end date as closed', async () => {
      const built = await buildPoll(database.db, { endDate: ago(1000) });
      expect((await get<Poll>(`/api/polls/${built.poll.id}`)).status).toBe('closed');
    });

    it('uses the default points config when the poll has none, and shows custom text options', async () => {
      const built = await buildPoll(database.db, { options: 1 });
      await database.db.delete(schema.pollPointsConfig).where(eq(schema.pollPointsConfig.pollId, built.poll.id));
      await database.db.insert(schema.pollOptions).values({ pollId: built.poll.id, text: 'Nadie', order: 5 });
      const poll = await get<Poll>(`/api/polls/${built.poll.id}`);
      expect(poll.pointsConfig).toEqual({ pointsPerVote: 1, maxPointsPerUser: 1, dailyReset: false, bonusForSharing: 5 });
      expect(poll.options.at(-1)).toMatchObject({ text: 'Nadie', order: 5, contestant: null });
    });

    it('answers 404 Poll not found for a draft and for an unknown id', async () => {
      const draft = await buildPoll(database.db, { status: 'draft' });
      for (const id of [draft.poll.id, '123e4567-e89b-42d3-a456-426614174000']) {
        expect(await get(`/api/polls/${id}`, 404)).toEqual({ statusCode: 404, error: 'Not Found', message: 'Poll not found' });
        expect(await get(`/api/polls/${id}/results`, 404)).toMatchObject({ message: 'Poll not found' });
      }
    });
  });

  describe('GET /api/polls/:pollId/results', () => {
    it('totals votes, points and voters per option and names voters (no points) newest first with an Anonymous fallback', async () => {
      const { poll, options } = await buildPoll(database.db, { options: 3, maxPointsPerUser: 10 });
      const [a, b, c] = options as [(typeof options)[0], (typeof options)[0], (typeof options)[0]];
      const ana = await buildUser(database.db, { displayName: 'Ana', avatarUrl: '/media/ana.webp' });
      const nameless = await buildUser(database.db, { displayName: null });
      const luis = await buildUser(database.db, { displayName: 'Luis' });

      await vote(poll.id, a.id, ana.id, 3, ago(5000));
      await vote(poll.id, a.id, ana.id, 2, ago(4000)); // Ana again on A: her points add up
      await vote(poll.id, a.id, nameless.id, 1, ago(3000));
      await vote(poll.id, b.id, luis.id, 4, ago(2000));
      await vote(poll.id, b.id, ana.id, 1, ago(1000));

      const results = await get<PollResults>(`/api/polls/${poll.id}/results`, 200, await asReader());
      expect(results).toEqual({
        pollId: poll.id,
        totalVotes: 5,
        totalPoints: 11,
        totalVoters: 3,
        voidedVotes: 0,
        votersListed: true,
        options: [
          {
            optionId: a.id,
            totalVotes: 3,
            totalPoints: 6,
            totalVoters: 2,
            voters: [
              { userId: nameless.id, displayName: 'Anonymous', avatarUrl: null },
              { userId: ana.id, displayName: 'Ana', avatarUrl: '/media/ana.webp' },
            ],
          },
          {
            optionId: b.id,
            totalVotes: 2,
            totalPoints: 5,
            totalVoters: 2,
            voters: [
              { userId: ana.id, displayName: 'Ana', avatarUrl: '/media/ana.webp' },
              { userId: luis.id, displayName: 'Luis', avatarUrl: null },
            ],
          },
          { optionId: c.id, totalVotes: 0, totalPoints: 0, totalVoters: 0, voters: [] },
        ],
      });
    });

    it('answers zero totals for a poll nobody voted in', async () => {
      const { poll } = await buildPoll(database.db, { status: 'closed' });
      const results = await get<PollResults>(`/api/polls/${poll.id}/results`);
      expect(results).toMatchObject({ totalVotes: 0, totalPoints: 0, totalVoters: 0 });
      expect(results.options).toHaveLength(2);
    });

    it('caps the voters list at 100 per option while counting everyone', async () => {
      const { poll, options } = await buildPoll(database.db);
      const users = await database.db
        .insert(schema.profiles)
        .values(Array.from({ length: 105 }, (_, i) => ({ displayName: `Fan ${i}` })))
        .returning({ id: schema.profiles.id });
      await buildVotes(
        database.db,
        users.map((u, i) => ({ pollId: poll.id, optionId: options[0]!.id, userId: u.id, createdAt: ago((200 - i) * 1000) })),
      );
      const results = await get<PollResults>(`/api/polls/${poll.id}/results`, 200, await asReader());
      expect(results.totalVoters).toBe(105);
      expect(results.options[0]!.totalVoters).toBe(105);
      expect(results.options[0]!.totalVotes).toBe(105);
      expect(results.options[0]!.voters).toHaveLength(100);
      expect(results.options[0]!.voters[0]!.displayName).toBe('Fan 104');
    });

    it('answers 403 when the poll does not show its results', async () => {
      const { poll } = await buildPoll(database.db);
      await database.db.update(schema.polls).set({ showResults: false }).where(eq(schema.polls.id, poll.id));
      expect(await get(`/api/polls/${poll.id}/results`, 403)).toMatchObject({ statusCode: 403 });
    });
  });
});
