// A profile's header, counters and tabs (GET /api/profiles/:userId/…) and its posts tab
// (GET /api/posts?userId=…): who sees what. The owner sees all of their own; anybody else —
// visitors, other users, admins — only what sits on public posts they may read, and public groups.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { schema } from '@tribuna/drizzle';
import type { Database } from '@tribuna/drizzle/client';
import type { FeedPage } from '@tribuna/contracts/api/wall';
import type { ProfileCommentPage, ProfileGroupList, ProfileStats, PublicProfile, VoteHistory } from '@tribuna/contracts/api/profiles';
import { PROFILE_MESSAGES } from '@tribuna/contracts/profileRules';
import { buildComment, buildPoll, buildPost, buildUser, buildVotes } from '../../../../test/support/factories.ts';
import type { App } from '../../app.ts';
import { useTestApp } from '../../../../test/support/server/harness.ts';
import { asUser, signIn } from '../../../../test/support/server/sessions.ts';

const WIDE = { store: 'local', perUser: { max: 10_000, windowSeconds: 1 }, perAddress: { max: 10_000, windowSeconds: 1 } } as const;

describe('profiles: header, counters and tabs', () => {
  let app: App;
  let database: Database;
  useTestApp({}, (ready) => ({ app, database } = ready), {
    build: () => ({ rateLimits: { 'profiles.read': WIDE, 'wall.read': WIDE } }),
  });

  async function fan(overrides: Parameters<typeof buildUser>[1] = {}) {
    const user = await buildUser(database.db, overrides);
    return { user, headers: asUser(await signIn(app, user)) };
  }

  const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });

  async function group(privacy: 'public' | 'private', name = `Grupo ${privacy}`) {
    const [row] = await database.db.insert(schema.groups).values({ name, privacy }).returning();
    return row!;
  }

  async function join(groupId: string, userId: string, role: 'admin' | 'moderator' | 'member' = 'member', joinedAt?: Date) {
    await database.db.insert(schema.groupMembers).values({ groupId, userId, role, ...(joinedAt ? { joinedAt } : {}) });
  }

  /**
   * `owner` writes: a public post, a followers-only one, a hidden one, a public post and a group
   * post in a private group, a public post in a public group; comments on each visible kind.
   */
  async function ownerWithEverything() {
    const owner = await fan({ displayName: 'Olga Dueña', bio: 'Bio de Olga' });
    const secret = await group('private', 'Club secreto');
    const open = await group('public', 'Club abierto');
    await join(secret.id, owner.user.id, 'admin');
    await join(open.id, owner.user.id, 'moderator');
    const db = database.db;
    const posts = {
      public: await buildPost(db, owner.user.id, { content: 'publico' }),
      followers: await buildPost(db, owner.user.id, { content: 'seguidores', visibility: 'followers' }),
      hidden: await buildPost(db, owner.user.id, { content: 'oculto', isHidden: true }),
      secretPublic: await buildPost(db, owner.user.id, { content: 'secreto publico', groupId: secret.id, visibility: 'public' }),
      secretGroup: await buildPost(db, owner.user.id, { content: 'secreto grupo', groupId: secret.id, visibility: 'group' }),
      openPublic: await buildPost(db, owner.user.id, { content: 'abierto publico', groupId: open.id, visibility: 'public' }),
    };
    const comments = {
      onPublic: await buildComment(db, posts.public.id, owner.user.id, { content: 'c publico' }),
      onFollowers: await buildComment(db, posts.followers.id, owner.user.id, { content: 'c seguidores' }),
      onHiddenPost: await buildComment(db, posts.hidden.id, owner.user.id, { content: 'c post oculto' }),
      hidden: await buildComment(db, posts.public.id, owner.user.id, { content: 'c oculto', isHidden: true }),
      onSecret: await buildComment(db, posts.secretPublic.id, owner.user.id, { content: 'c secreto' }),
      onOpen: await buildComment(db, posts.openPublic.id, owner.user.id, { content: 'c abierto' }),
    };
    return { owner, secret, open, posts, comments };
  }

  describe('GET /api/profiles/:userId', () => {
    it('shows the public profile to visitors, 404 for an unknown id, 400 for a malformed one', async () => {
      const { user } = await fan({ displayName: 'Ana', username: 'ana_fan', bio: 'Hola', avatarUrl: '/media/ab/cd/x.webp' });
      const res = await get(`/api/profiles/${user.id}`);
      expect(res.statusCode).toBe(200);
      expect(res.json<PublicProfile>()).toEqual({
        id: user.id,
        displayName: 'Ana',
        username: 'ana_fan',
        bio: 'Hola',
        avatarUrl: '/media/ab/cd/x.webp',
        bannerUrl: null,
        isDeleted: false,
        createdAt: user.createdAt.toISOString(),
        followersCount: 0,
        followingCount: 0,
        viewerFollows: false,
        viewerMuted: false,
        viewerBlocked: false,
      });
      expect(JSON.stringify(res.json())).not.toMatch(/role|email|suspend|points/i);
      const missing = await get('/api/profiles/123e4567-e89b-42d3-a456-426614174000');
      expect(missing.statusCode).toBe(404);
      expect(missing.json().message).toBe(PROFILE_MESSAGES.profileNotFound);
      expect((await get('/api/profiles/not-a-uuid')).statusCode).toBe(400);
    });

    it('a suspended user is not a deleted one', async () => {
      const { user } = await fan({ isSuspended: true });
      expect((await get(`/api/profiles/${user.id}`)).json<PublicProfile>().isDeleted).toBe(false);
    });
  });

  describe('GET /api/profiles/:userId/stats', () => {
    it('counts every vote, and the posts and comments the caller may see', async () => {
      const { owner, secret } = await ownerWithEverything();
      const { poll, options } = await buildPoll(database.db);
      await buildVotes(
        database.db,
        [0, 1, 0].map((i) => ({ pollId: poll.id, optionId: options[i]!.id, userId: owner.user.id })),
      );
      const other = await fan();
      const member = await fan();
      await join(secret.id, member.user.id);
      const admin = await fan({ role: 'admin' });
      const stats = async (headers: Record<string, string> = {}) => (await get(`/api/profiles/${owner.user.id}/stats`, headers)).json<ProfileStats>();

      // Own: public, followers, both in the private group, the public group's; not the hidden one.
      expect(await stats(owner.headers)).toEqual({ votes: 3, posts: 5, comments: 4 });
      // Others: public posts they may read; comments on those (not on the followers-only post).
      expect(await stats()).toEqual({ votes: 3, posts: 2, comments: 2 });
      expect(await stats(other.headers)).toEqual({ votes: 3, posts: 2, comments: 2 });
      expect(await stats(admin.headers)).toEqual({ votes: 3, posts: 2, comments: 2 });
      // A member of the private group reads its public post too.
      expect(await stats(member.headers)).toEqual({ votes: 3, posts: 3, comments: 3 });
      expect((await get('/api/profiles/123e4567-e89b-42d3-a456-426614174000/stats')).statusCode).toBe(404);
    });
  });

  describe('GET /api/profiles/:userId/votes', () => {
    it('is private: 401 for visitors, 403 "Voting history is private" for anybody else, admins included', async () => {
      const owner = await fan();
      const other = await fan();
      const admin = await fan({ role: 'admin' });
      expect((await get(`/api/profiles/${owner.user.id}/votes`)).statusCode).toBe(401);
      for (const headers of [other.headers, admin.headers]) {
        const res = await get(`/api/profiles/${owner.user.id}/votes`, headers);
        expect(res.statusCode).toBe(403);
        expect(res.json().message).toBe(PROFILE_MESSAGES.votingHistoryPrivate);
      }
      expect((await get(`/api/profiles/${owner.user.id}/votes`, owner.headers)).json<VoteHistory>()).toEqual({ items: [] });
    });

    it('lists the latest 50 votes, newest first, with poll status, option, contestant and removed options', async () => {
      const owner = await fan();
      const db = database.db;
      const active = await buildPoll(db, { title: 'Activa' });
      const ended = await buildPoll(db, { title: 'Vencida', endDate: new Date(Date.now() - 60_000) });
      const closed = await buildPoll(db, { title: 'Cerrada', status: 'closed' });
      const draft = await buildPoll(db, { title: 'Borrador', status: 'draft' });
      await db.update(schema.contestants).set({ photoUrl: '/media/aa/bb/foto.webp' }).where(eq(schema.contestants.id, active.options[0]!.contestantId!));
      const [custom] = await db.insert(schema.pollOptions).values({ pollId: draft.poll.id, text: 'Ninguno', order: 5 }).returning();
      await db.update(schema.pollOptions).set({ removedAt: new Date() }).where(eq(schema.pollOptions.id, closed.options[1]!.id));
      const t = (minutes: number) => new Date(Date.now() - minutes * 60_000);
      await buildVotes(db, [
        { pollId: active.poll.id, optionId: active.options[0]!.id, userId: owner.user.id, createdAt: t(10), points: 3 },
        { pollId: ended.poll.id, optionId: ended.options[0]!.id, userId: owner.user.id, createdAt: t(9) },
        { pollId: closed.poll.id, optionId: closed.options[1]!.id, userId: owner.user.id, createdAt: t(8) },
        { pollId: draft.poll.id, optionId: custom!.id, userId: owner.user.id, createdAt: t(7) },
      ]);
      const [contestant] = await db.select().from(schema.contestants).where(eq(schema.contestants.id, active.options[0]!.contestantId!));

      const { items } = (await get(`/api/profiles/${owner.user.id}/votes`, owner.headers)).json<VoteHistory>();
      expect(items.map((i) => [i.pollTitle, i.pollStatus, i.optionText, i.optionRemoved])).toEqual([
        ['Borrador', 'draft', 'Ninguno', false],
        ['Cerrada', 'closed', null, true],
        ['Vencida', 'closed', expect.stringMatching(/^Concursante 1/), false],
        ['Activa', 'active', contestant!.fullName, false],
      ]);
      expect(items[3]).toMatchObject({ pollId: active.poll.id, contestantName: contestant!.fullName, contestantPhotoUrl: '/media/aa/bb/foto.webp', points: 3 });
      expect(items[1]).toMatchObject({ contestantName: null, contestantPhotoUrl: null });
      expect(items[0]).toMatchObject({ contestantName: null, contestantPhotoUrl: null });

      await buildVotes(
        db,
        Array.from({ length: 55 }, (_, i) => ({ pollId: active.poll.id, optionId: active.options[1]!.id, userId: owner.user.id, createdAt: t(-i - 1) })),
      );
      const latest = (await get(`/api/profiles/${owner.user.id}/votes`, owner.headers)).json<VoteHistory>().items;
      expect(latest).toHaveLength(50);
      const times = latest.map((i) => Date.parse(i.createdAt));
      expect([...times].sort((a, b) => b - a)).toEqual(times);
      expect(latest.every((i) => i.pollTitle === 'Activa' && i.optionText !== null)).toBe(true);
    });
  });

  describe('GET /api/profiles/:userId/comments', () => {
    it('shows others only comments on public posts they may read, with a quote of the post and its author', async () => {
      const { owner, secret, posts } = await ownerWithEverything();
      const stranger = await fan({ displayName: 'Autor Ajeno' });
      const strangersPost = await buildPost(database.db, stranger.user.id, { content: 'x'.repeat(400) });
      await buildComment(database.db, strangersPost.id, owner.user.id, { content: 'c ajeno' });
      const member = await fan();
      await join(secret.id, member.user.id);
      const contents = async (headers: Record<string, string> = {}) =>
        (await get(`/api/profiles/${owner.user.id}/comments`, headers))
          .json<ProfileCommentPage>()
          .items.map((c) => c.content)
          .sort();

      expect(await contents(owner.headers)).toEqual(['c abierto', 'c ajeno', 'c publico', 'c secreto', 'c seguidores']);
      expect(await contents()).toEqual(['c abierto', 'c ajeno', 'c publico']);
      expect(await contents((await fan({ role: 'admin' })).headers)).toEqual(['c abierto', 'c ajeno', 'c publico']);
      expect(await contents(member.headers)).toEqual(['c abierto', 'c ajeno', 'c publico', 'c secreto']);

      const page = (await get(`/api/profiles/${owner.user.id}/comments`)).json<ProfileCommentPage>();
      const onStranger = page.items.find((c) => c.content === 'c ajeno')!;
      expect(onStranger.post).toEqual({
        id: strangersPost.id,
        excerpt: 'x'.repeat(280),
        author: { id: stranger.user.id, displayName: 'Autor Ajeno', username: stranger.user.username, avatarUrl: null },
      });
      expect(page.items.find((c) => c.content === 'c publico')!.post.excerpt).toBe(posts.public.content);
    });

    it('pages by 20, newest first, with a cursor; a bad cursor is a 400', async () => {
      const owner = await fan();
      const post = await buildPost(database.db, owner.user.id);
      for (let i = 0; i < 45; i++) {
        await buildComment(database.db, post.id, owner.user.id, { content: `n${i}`, createdAt: new Date(Date.UTC(2025, 0, 1, 0, i)) });
      }
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const res = await get(`/api/profiles/${owner.user.id}/comments${cursor ? `?cursor=${cursor}` : ''}`);
        expect(res.statusCode).toBe(200);
        const page: ProfileCommentPage = res.json();
        seen.push(...page.items.map((c) => c.content));
        cursor = page.nextCursor;
        pages++;
      } while (cursor);
      expect(pages).toBe(3);
      expect(seen).toEqual(Array.from({ length: 45 }, (_, i) => `n${44 - i}`));
      expect((await get(`/api/profiles/${owner.user.id}/comments?cursor=abc`)).statusCode).toBe(400);
      expect((await get('/api/profiles/123e4567-e89b-42d3-a456-426614174000/comments')).statusCode).toBe(404);
    });
  });

  describe('GET /api/profiles/:userId/groups', () => {
    it('lists the owner every membership, newest first, and others only public groups', async () => {
      const owner = await fan();
      const a = await group('public', 'Primero');
      const b = await group('private', 'Secreto');
      const c = await group('public', 'Último');
      await join(a.id, owner.user.id, 'member', new Date('2025-01-01T00:00:00Z'));
      await join(b.id, owner.user.id, 'admin', new Date('2025-02-01T00:00:00Z'));
      await join(c.id, owner.user.id, 'moderator', new Date('2025-03-01T00:00:00Z'));
      const names = async (headers: Record<string, string> = {}) =>
        (await get(`/api/profiles/${owner.user.id}/groups`, headers)).json<ProfileGroupList>().items.map((g) => `${g.name}:${g.role}:${g.privacy}`);
      expect(await names(owner.headers)).toEqual(['Último:moderator:public', 'Secreto:admin:private', 'Primero:member:public']);
      expect(await names()).toEqual(['Último:moderator:public', 'Primero:member:public']);
      expect(await names((await fan({ role: 'admin' })).headers)).toEqual(['Último:moderator:public', 'Primero:member:public']);
      const first = (await get(`/api/profiles/${owner.user.id}/groups`)).json<ProfileGroupList>().items[1]!;
      expect(first).toEqual({
        id: a.id,
        name: 'Primero',
        description: null,
        avatarUrl: null,
        coverUrl: null,
        privacy: 'public',
        role: 'member',
        joinedAt: '2025-01-01T00:00:00.000Z',
      });
    });
  });

  describe('GET /api/posts?userId= (the posts tab)', () => {
    it('gives the owner all of their posts, groups included, and anybody else only public posts they may read', async () => {
      const { owner, secret } = await ownerWithEverything();
      const member = await fan();
      await join(secret.id, member.user.id);
      const admin = await fan({ role: 'admin' });
      const contents = async (headers: Record<string, string> = {}) => {
        const res = await get(`/api/posts?userId=${owner.user.id}`, headers);
        expect(res.statusCode).toBe(200);
        const page = res.json<FeedPage>();
        expect(page.total).toBe(page.posts.length);
        return page.posts.map((p) => p.content).sort();
      };
      expect(await contents(owner.headers)).toEqual(['abierto publico', 'publico', 'secreto grupo', 'secreto publico', 'seguidores']);
      expect(await contents()).toEqual(['abierto publico', 'publico']);
      expect(await contents((await fan()).headers)).toEqual(['abierto publico', 'publico']);
      expect(await contents(admin.headers)).toEqual(['abierto publico', 'publico']);
      expect(await contents(member.headers)).toEqual(['abierto publico', 'publico', 'secreto publico']);
      // The group's name comes with the card ('En {group}').
      const page = (await get(`/api/posts?userId=${owner.user.id}`, owner.headers)).json<FeedPage>();
      expect(page.posts.find((p) => p.content === 'secreto grupo')!.groupName).toBe('Club secreto');
      // The wall itself is unchanged: no group posts, no followers-only ones.
      expect((await get('/api/posts', owner.headers)).json<FeedPage>().posts.map((p) => p.content)).toEqual(['publico']);
    });

    it('pages by 20', async () => {
      const owner = await fan();
      for (let i = 0; i < 25; i++) await buildPost(database.db, owner.user.id, { content: `p${i}` });
      const first = (await get(`/api/posts?userId=${owner.user.id}&sort=recent`)).json<FeedPage>();
      expect(first.posts).toHaveLength(20);
      expect(first.hasMore).toBe(true);
      expect(first.total).toBe(25);
      const second = (await get(`/api/posts?userId=${owner.user.id}&sort=recent&cursor=${first.nextCursor}`)).json<FeedPage>();
      expect(second.posts).toHaveLength(5);
      expect(second.hasMore).toBe(false);
    });
  });
});
