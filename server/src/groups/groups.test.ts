import { describe, expect, it } from 'vitest';
import { sql as drizzleSql } from 'drizzle-orm';
import type { Database } from '@tribuna/drizzle/client';
import type { GroupDetail, GroupDirectory, GroupMemberPage, GroupPersonPage } from '@tribuna/contracts/api/groups';
import type { FeedPage } from '@tribuna/contracts/api/wall';
import { GROUP_LIMITS, GROUP_MESSAGES } from '@tribuna/contracts/groupRules';
import { buildPost, buildUser } from '../../../test/support/factories.ts';
import { useTestApp } from '../../../test/support/server/harness.ts';
import { asUser, signIn } from '../../../test/support/server/sessions.ts';
import type { App } from '../app.ts';
import { visiblePost } from '../access/predicates.ts';

// Fan clubs over HTTP (issue 28): the directory, create and edit, membership, requests, roles,
// removal and bans, leaving, deletion and pins. Privacy of what is inside a group: privacy.test.ts;
// sockets: live.test.ts.

describe('groups', () => {
  let app: App;
  let database: Database;
  const statements: string[] = [];
  // Totals and shared pages off: tables are emptied between tests, and every page pays its statements.
  useTestApp({}, (ready) => ({ app, database } = ready), {
    build: () => ({ onQuery: (query) => void statements.push(query), wall: { totalsTtlMs: 0, pageTtlMs: 0 } }),
  });

  async function fan(overrides: Parameters<typeof buildUser>[1] = {}) {
    const user = await buildUser(database.db, overrides);
    return { user, headers: asUser(await signIn(app, user)) };
  }

  async function siteAdmin() {
    return fan({ role: 'admin' });
  }

  type Fan = Awaited<ReturnType<typeof fan>>;

  async function create(owner: Fan, body: Record<string, unknown> = {}): Promise<GroupDetail> {
    const res = await app.inject({ method: 'POST', url: '/api/groups', headers: owner.headers, payload: { name: 'Team Ximena', privacy: 'public', ...body } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<GroupDetail>();
  }

  const call = (who: Fan, method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT', url: string, payload?: object) =>
    app.inject({ method, url, headers: who.headers, ...(payload ? { payload } : {}) });

  async function member(group: GroupDetail): Promise<Fan> {
    const someone = await fan();
    await database.sql`INSERT INTO group_members (group_id, user_id, role) VALUES (${group.id}, ${someone.user.id}, 'member')`;
    return someone;
  }

  const roleOf = async (groupId: string, userId: string) =>
    (await database.sql<{ role: string }[]>`SELECT role FROM group_members WHERE group_id = ${groupId} AND user_id = ${userId}`)[0]?.role ?? null;

  describe('create and edit', () => {
    it('creates a group with its creator as admin, trimming and checking the fields', async () => {
      const owner = await fan();
      const group = await create(owner, { name: '  Team Ximena  ', description: '  Las fans  ', privacy: 'private', avatarUrl: '/media/a.webp' });
      expect(group).toMatchObject({
        name: 'Team Ximena',
        description: 'Las fans',
        privacy: 'private',
        avatarUrl: '/media/a.webp',
        coverUrl: null,
        memberCount: 1,
        relation: 'admin',
        canRead: true,
        canPost: true,
        canModerate: true,
        canAdminister: true,
        pendingRequests: 0,
      });
      expect(await roleOf(group.id, owner.user.id)).toBe('admin');
      for (const [payload, message] of [
        [{ name: ` ${'x'.repeat(51)} ` }, GROUP_MESSAGES.nameLength],
        [{ name: 'Válido', description: 'y'.repeat(501) }, GROUP_MESSAGES.descriptionTooLong],
      ] as const) {
        const res = await call(owner, 'POST', '/api/groups', { privacy: 'public', ...payload });
        expect([res.statusCode, res.json<{ message: string }>().message]).toEqual([400, message]);
      }
      // Avatar and cover follow the profile images' rules (identity/profiles/edit.ts), on an edit too.
      const bad = await call(owner, 'PATCH', `/api/groups/${group.id}`, { coverUrl: 'javascript:alert(1)' });
      expect(bad.statusCode).toBe(400);
      const http = await call(owner, 'PATCH', `/api/groups/${group.id}`, { avatarUrl: 'http://example.com/a.png', name: 'Cambiado' });
      expect(http.statusCode).toBe(400);
      const short = await call(owner, 'PATCH', `/api/groups/${group.id}`, { name: ' ab ' });
      expect([short.statusCode, short.json<{ message: string }>().message]).toEqual([400, GROUP_MESSAGES.nameLength]);
      expect((await database.sql<{ name: string }[]>`SELECT name FROM groups WHERE id = ${group.id}`)[0]!.name).toBe('Team Ximena');
    });

    it(`refuses a fan's group past ${GROUP_LIMITS.createsPerDay} in a rolling day with 429`, async () => {
      const owner = await fan();
      // Two of yesterday's (23 h ago: still counted) and one older (25 h: not).
      await database.sql`INSERT INTO groups (name, created_by, created_at) VALUES
        ('Uno', ${owner.user.id}, now() - interval '23 hours'), ('Dos', ${owner.user.id}, now() - interval '23 hours'),
        ('Viejo', ${owner.user.id}, now() - interval '25 hours')`;
      await create(owner, { name: 'Tres' });
      const refused = await call(owner, 'POST', '/api/groups', { name: 'Cuatro', privacy: 'public' });
      expect([refused.statusCode, refused.json<{ message: string }>().message]).toEqual([429, GROUP_MESSAGES.createLimit]);
      expect((await database.sql`SELECT 1 FROM groups WHERE name = 'Cuatro'`).length).toBe(0);
    });

    it('lets group admins and site admins edit, not moderators or members', async () => {
      const owner = await fan();
      const group = await create(owner);
      const moderator = await member(group);
      await database.sql`UPDATE group_members SET role = 'moderator' WHERE user_id = ${moderator.user.id}`;
      const plain = await member(group);
      for (const who of [moderator, plain]) {
        const res = await call(who, 'PATCH', `/api/groups/${group.id}`, { name: 'Otro nombre' });
        expect([res.statusCode, res.json<{ message: string }>().message]).toEqual([403, GROUP_MESSAGES.notGroupAdmin]);
      }
      const edited = await call(owner, 'PATCH', `/api/groups/${group.id}`, { description: 'Nueva', coverUrl: '/media/c.webp' });
      expect(edited.json<GroupDetail>()).toMatchObject({ name: 'Team Ximena', description: 'Nueva', coverUrl: '/media/c.webp' });
      const byAdmin = await call(await siteAdmin(), 'PATCH', `/api/groups/${group.id}`, { name: 'Por el admin' });
      expect(byAdmin.json<GroupDetail>()).toMatchObject({ name: 'Por el admin', relation: 'none', canAdminister: true });
      expect((await call(owner, 'PATCH', `/api/groups/${crypto.randomUUID()}`, { name: 'Nada' })).statusCode).toBe(404);
    });
  });

  describe('the directory', () => {
    it("lists the viewer's groups first, then the others most members first, 20 a page, searched without case or accents", async () => {
      const viewer = await fan();
      const mine = await create(viewer, { name: 'Mi Club' });
      const others: string[] = [];
      for (let i = 0; i < 22; i++) {
        const [row] = await database.sql<{ id: string }[]>`INSERT INTO groups (name) VALUES (${`Grupo ${i}`}) RETURNING id`;
        others.push(row!.id);
      }
      // The most members first: group 5 gets two.
      await database.sql`INSERT INTO group_members (group_id, user_id) VALUES (${others[5]!}, ${(await buildUser(database.db)).id}), (${others[5]!}, ${(await buildUser(database.db)).id})`;
      const first = (await call(viewer, 'GET', '/api/groups')).json<GroupDirectory>();
      expect(first.mine.map((g) => g.id)).toEqual([mine.id]);
      expect(first.groups).toHaveLength(20);
      expect(first.groups[0]).toMatchObject({ id: others[5], memberCount: 2, relation: 'none' });
      expect(first.groups.map((g) => g.id)).not.toContain(mine.id);
      const second = (await call(viewer, 'GET', `/api/groups?cursor=${first.nextCursor}`)).json<GroupDirectory>();
      expect(second.mine).toEqual([]);
      expect(second.groups).toHaveLength(2);
      expect(second.nextCursor).toBeNull();
      expect(new Set([...first.groups, ...second.groups].map((g) => g.id))).toEqual(new Set(others));

      await database.sql`INSERT INTO groups (name) VALUES ('Fans de Peña Ñuñez'), ('100%_real')`;
      const accents = (await app.inject({ method: 'GET', url: `/api/groups?q=${encodeURIComponent('PENA ñu')}` })).json<GroupDirectory>();
      expect(accents.groups.map((g) => g.name)).toEqual(['Fans de Peña Ñuñez']);
      // LIKE's wildcards are searched as themselves.
      const wildcard = (await app.inject({ method: 'GET', url: `/api/groups?q=${encodeURIComponent('%_')}` })).json<GroupDirectory>();
      expect(wildcard.groups.map((g) => g.name)).toEqual(['100%_real']);
      expect((await app.inject({ method: 'GET', url: '/api/groups?cursor=bm9wZQ' })).statusCode).toBe(400);
    });
  });

  describe('membership', () => {
    it('joins a public group at once, and a private one by a request its staff approve or reject', async () => {
      const owner = await fan();
      const open = await create(owner);
      const joiner = await fan();
      const joined = (await call(joiner, 'POST', `/api/groups/${open.id}/join`)).json<GroupDetail>();
      expect(joined).toMatchObject({ relation: 'member', memberCount: 2, canPost: true, canModerate: false, pendingRequests: null });
      const again = await call(joiner, 'POST', `/api/groups/${open.id}/join`);
      expect([again.statusCode, again.json<{ message: string }>().message]).toEqual([409, GROUP_MESSAGES.alreadyMember]);

      const closed = await create(owner, { name: 'Privado', privacy: 'private' });
      const [asker, rejected] = [await fan(), await fan()];
      const asked = (await call(asker, 'POST', `/api/groups/${closed.id}/join`)).json<GroupDetail>();
      expect(asked).toMatchObject({ relation: 'requested', canRead: false, memberCount: 1 });
      const twice = await call(asker, 'POST', `/api/groups/${closed.id}/join`);
      expect([twice.statusCode, twice.json<{ message: string }>().message]).toEqual([409, GROUP_MESSAGES.alreadyRequested]);
      await call(rejected, 'POST', `/api/groups/${closed.id}/join`);

      // Members may not see or answer requests; moderators may.
      const plain = await member(closed);
      expect((await call(plain, 'GET', `/api/groups/${closed.id}/requests`)).statusCode).toBe(403);
      expect((await call(plain, 'POST', `/api/groups/${closed.id}/requests/${asker.user.id}`, { approve: true })).statusCode).toBe(403);
      const moderator = await member(closed);
      await database.sql`UPDATE group_members SET role = 'moderator' WHERE user_id = ${moderator.user.id}`;
      const requests = (await call(moderator, 'GET', `/api/groups/${closed.id}/requests`)).json<GroupPersonPage>();
      expect(requests.items.map((p) => p.user.id)).toEqual([asker.user.id, rejected.user.id]);

      const approved = await call(moderator, 'POST', `/api/groups/${closed.id}/requests/${asker.user.id}`, { approve: true });
      expect(approved.json()).toEqual({ pendingRequests: 1 });
      expect(await roleOf(closed.id, asker.user.id)).toBe('member');
      const no = await call(owner, 'POST', `/api/groups/${closed.id}/requests/${rejected.user.id}`, { approve: false });
      expect(no.json()).toEqual({ pendingRequests: 0 });
      expect(await roleOf(closed.id, rejected.user.id)).toBeNull();
      expect((await call(rejected, 'GET', `/api/groups/${closed.id}`)).json<GroupDetail>().relation).toBe('none');
      const gone = await call(owner, 'POST', `/api/groups/${closed.id}/requests/${rejected.user.id}`, { approve: true });
      expect([gone.statusCode, gone.json<{ message: string }>().message]).toEqual([404, GROUP_MESSAGES.requestNotFound]);
    });

    it('leaves a group or withdraws a request; the last admin only by naming a member who becomes admin', async () => {
      const owner = await fan();
      const group = await create(owner, { privacy: 'private' });
      const asker = await fan();
      await call(asker, 'POST', `/api/groups/${group.id}/join`);
      const withdrawn = (await call(asker, 'POST', `/api/groups/${group.id}/leave`, {})).json<GroupDetail>();
      expect(withdrawn.relation).toBe('none');
      expect(await database.sql`SELECT 1 FROM group_join_requests`).toHaveLength(0);

      const heir = await member(group);
      const refused = await call(owner, 'POST', `/api/groups/${group.id}/leave`, {});
      expect([refused.statusCode, refused.json<{ message: string }>().message]).toEqual([409, GROUP_MESSAGES.lastAdmin]);
      const stranger = await fan();
      const notMember = await call(owner, 'POST', `/api/groups/${group.id}/leave`, { successorId: stranger.user.id });
      expect([notMember.statusCode, notMember.json<{ message: string }>().message]).toEqual([400, GROUP_MESSAGES.successorNotMember]);
      const left = await call(owner, 'POST', `/api/groups/${group.id}/leave`, { successorId: heir.user.id });
      expect(left.json<GroupDetail>()).toMatchObject({ relation: 'none', memberCount: 1, canRead: false });
      expect(await roleOf(group.id, heir.user.id)).toBe('admin');
      expect(await roleOf(group.id, owner.user.id)).toBeNull();
      // A plain member leaves without more ado.
      const other = await member(group);
      expect((await call(other, 'POST', `/api/groups/${group.id}/leave`, {})).json<GroupDetail>().relation).toBe('none');
      expect((await call(other, 'POST', `/api/groups/${group.id}/leave`, {})).statusCode).toBe(409);
    });

    it('lists members admins first, then moderators, then members, oldest first, to readers of the group only', async () => {
      const owner = await fan();
      const group = await create(owner, { privacy: 'private' });
      const a = await member(group);
      const b = await member(group);
      await database.sql`UPDATE group_members SET role = 'moderator' WHERE user_id = ${b.user.id}`;
      const page = (await call(a, 'GET', `/api/groups/${group.id}/members`)).json<GroupMemberPage>();
      expect(page.items.map((m) => [m.user.id, m.role])).toEqual([
        [owner.user.id, 'admin'],
        [b.user.id, 'moderator'],
        [a.user.id, 'member'],
      ]);
      const outsider = await call(await fan(), 'GET', `/api/groups/${group.id}/members`);
      expect([outsider.statusCode, outsider.json<{ message: string }>().message]).toEqual([403, GROUP_MESSAGES.privateGroup]);
      expect((await app.inject({ method: 'GET', url: `/api/groups/${group.id}/members` })).statusCode).toBe(403);
      expect((await call(await siteAdmin(), 'GET', `/api/groups/${group.id}/members`)).statusCode).toBe(200);

      for (let i = 0; i < GROUP_LIMITS.membersPageSize; i++) await member(group);
      const first = (await call(a, 'GET', `/api/groups/${group.id}/members`)).json<GroupMemberPage>();
      const second = (await call(a, 'GET', `/api/groups/${group.id}/members?cursor=${first.nextCursor}`)).json<GroupMemberPage>();
      expect(first.items).toHaveLength(GROUP_LIMITS.membersPageSize);
      expect(second.items).toHaveLength(3);
      expect(new Set([...first.items, ...second.items].map((m) => m.user.id)).size).toBe(GROUP_LIMITS.membersPageSize + 3);
    });
  });

  describe('roles, removal and bans', () => {
    it('lets admins promote and demote others, never themselves nor the last admin', async () => {
      const owner = await fan();
      const group = await create(owner);
      const m = await member(group);
      const promoted = await call(owner, 'PATCH', `/api/groups/${group.id}/members/${m.user.id}`, { role: 'moderator' });
      expect(promoted.json()).toMatchObject({ user: { id: m.user.id }, role: 'moderator' });
      const byModerator = await call(m, 'PATCH', `/api/groups/${group.id}/members/${owner.user.id}`, { role: 'member' });
      expect([byModerator.statusCode, byModerator.json<{ message: string }>().message]).toEqual([403, GROUP_MESSAGES.notGroupAdmin]);
      const self = await call(owner, 'PATCH', `/api/groups/${group.id}/members/${owner.user.id}`, { role: 'member' });
      expect([self.statusCode, self.json<{ message: string }>().message]).toEqual([403, GROUP_MESSAGES.cannotChangeOwnRole]);
      // A site admin demoting the only admin is refused: the group would have none.
      const lastAdmin = await call(await siteAdmin(), 'PATCH', `/api/groups/${group.id}/members/${owner.user.id}`, { role: 'member' });
      expect([lastAdmin.statusCode, lastAdmin.json<{ message: string }>().message]).toEqual([409, GROUP_MESSAGES.lastAdmin]);
      await call(owner, 'PATCH', `/api/groups/${group.id}/members/${m.user.id}`, { role: 'admin' });
      // With two admins one may demote the other.
      expect((await call(m, 'PATCH', `/api/groups/${group.id}/members/${owner.user.id}`, { role: 'member' })).json()).toMatchObject({ role: 'member' });
      const stranger = await fan();
      expect((await call(m, 'PATCH', `/api/groups/${group.id}/members/${stranger.user.id}`, { role: 'moderator' })).statusCode).toBe(404);
    });

    it('lets admins remove anybody but themselves and moderators plain members only; bans are for admins', async () => {
      const owner = await fan();
      const group = await create(owner);
      const moderator = await member(group);
      await database.sql`UPDATE group_members SET role = 'moderator' WHERE user_id = ${moderator.user.id}`;
      const [m1, m2, m3] = [await member(group), await member(group), await member(group)];

      expect((await call(m1, 'DELETE', `/api/groups/${group.id}/members/${m2.user.id}`)).statusCode).toBe(403);
      const staff = await call(moderator, 'DELETE', `/api/groups/${group.id}/members/${owner.user.id}`);
      expect([staff.statusCode, staff.json<{ message: string }>().message]).toEqual([403, GROUP_MESSAGES.cannotRemoveStaff]);
      expect((await call(moderator, 'DELETE', `/api/groups/${group.id}/members/${m1.user.id}`)).statusCode).toBe(204);
      expect(await roleOf(group.id, m1.user.id)).toBeNull();
      const modBan = await call(moderator, 'DELETE', `/api/groups/${group.id}/members/${m2.user.id}?ban=true`);
      expect([modBan.statusCode, modBan.json<{ message: string }>().message]).toEqual([403, GROUP_MESSAGES.notGroupAdmin]);
      expect((await call(owner, 'DELETE', `/api/groups/${group.id}/members/${owner.user.id}`)).statusCode).toBe(403);
      expect((await call(owner, 'DELETE', `/api/groups/${group.id}/members/${moderator.user.id}`)).statusCode).toBe(204);

      expect((await call(owner, 'DELETE', `/api/groups/${group.id}/members/${m2.user.id}?ban=true`)).statusCode).toBe(204);
      expect(await roleOf(group.id, m2.user.id)).toBeNull();
      const banned = await call(m2, 'POST', `/api/groups/${group.id}/join`);
      expect([banned.statusCode, banned.json<{ message: string }>().message]).toEqual([403, GROUP_MESSAGES.banned]);
      expect((await call(m2, 'GET', `/api/groups/${group.id}`)).json<GroupDetail>().relation).toBe('banned');

      // Bans: admins only.
      expect((await call(m3, 'GET', `/api/groups/${group.id}/bans`)).statusCode).toBe(403);
      const bans = (await call(owner, 'GET', `/api/groups/${group.id}/bans`)).json<GroupPersonPage>();
      expect(bans.items.map((p) => p.user.id)).toEqual([m2.user.id]);
      expect((await call(m3, 'DELETE', `/api/groups/${group.id}/bans/${m2.user.id}`)).statusCode).toBe(403);
      expect((await call(owner, 'DELETE', `/api/groups/${group.id}/bans/${m2.user.id}`)).statusCode).toBe(204);
      expect((await call(owner, 'DELETE', `/api/groups/${group.id}/bans/${m2.user.id}`)).statusCode).toBe(404);
      expect((await call(m2, 'POST', `/api/groups/${group.id}/join`)).json<GroupDetail>().relation).toBe('member');
    });
  });

  describe('deletion', () => {
    it("deletes a group with its posts by its admins or a site admin (audited), never its members'", async () => {
      const owner = await fan();
      const group = await create(owner);
      const m = await member(group);
      const post = await buildPost(database.db, m.user.id, { groupId: group.id, visibility: 'group' });
      expect((await call(m, 'DELETE', `/api/groups/${group.id}`)).statusCode).toBe(403);
      expect((await call(owner, 'DELETE', `/api/groups/${group.id}`)).statusCode).toBe(204);
      expect(await database.sql`SELECT 1 FROM posts WHERE id = ${post.id}`).toHaveLength(0);
      expect(await database.sql`SELECT 1 FROM admin_audit_log`).toHaveLength(0);

      const other = await create(owner, { name: 'Otro' });
      const admin = await siteAdmin();
      expect((await call(admin, 'DELETE', `/api/groups/${other.id}`)).statusCode).toBe(204);
      const third = await create(owner, { name: 'Tercero' });
      expect((await call(owner, 'DELETE', `/api/admin/groups/${third.id}`)).statusCode).toBe(403);
      expect((await call(admin, 'DELETE', `/api/admin/groups/${third.id}`)).statusCode).toBe(204);
      expect((await call(admin, 'DELETE', `/api/admin/groups/${third.id}`)).statusCode).toBe(404);
      const audit = await database.sql<{ action: string; entity_id: string; admin_id: string }[]>`
        SELECT action, entity_id, admin_id FROM admin_audit_log ORDER BY created_at, entity_id`;
      expect(audit.map((a) => [a.action, a.entity_id, a.admin_id]).sort()).toEqual(
        [
          ['group.delete', other.id, admin.user.id],
          ['group.delete', third.id, admin.user.id],
        ].sort(),
      );
    });

    it('shows a site admin every group of a user with its role, private ones too', async () => {
      const owner = await fan();
      const open = await create(owner);
      const closed = await create(owner, { name: 'Secreto', privacy: 'private' });
      const admin = await siteAdmin();
      const res = await call(admin, 'GET', `/api/admin/users/${owner.user.id}/groups`);
      expect(
        res
          .json<{ items: { id: string; role: string }[] }>()
          .items.map((g) => [g.id, g.role])
          .sort(),
      ).toEqual(
        [
          [open.id, 'admin'],
          [closed.id, 'admin'],
        ].sort(),
      );
      expect((await call(owner, 'GET', `/api/admin/users/${owner.user.id}/groups`)).statusCode).toBe(403);
      expect((await call(admin, 'GET', `/api/admin/users/${crypto.randomUUID()}/groups`)).statusCode).toBe(404);
    });
  });

  describe('pinned posts', () => {
    it(`pins up to ${GROUP_LIMITS.maxPinned} group posts (admins and moderators), shown on top of the first page of its wall and not in its pages`, async () => {
      const owner = await fan();
      const group = await create(owner);
      const m = await member(group);
      const posts = [];
      for (let i = 0; i < 6; i++) {
        posts.push(
          await buildPost(database.db, m.user.id, {
            groupId: group.id,
            visibility: 'group',
            createdAt: new Date(Date.UTC(2025, 0, 1 + i)),
            lastActivityAt: new Date(Date.UTC(2025, 0, 1 + i)),
          }),
        );
      }
      const pin = (who: Fan, postId: string, pinned = true) => call(who, 'PUT', `/api/posts/${postId}/pin`, { pinned });
      expect((await pin(m, posts[0]!.id)).statusCode).toBe(403);
      for (const post of posts.slice(0, 3)) expect((await pin(owner, post.id)).json()).toEqual({ postId: post.id, isPinned: true });
      const tooMany = await pin(owner, posts[3]!.id);
      expect([tooMany.statusCode, tooMany.json<{ message: string }>().message]).toEqual([409, GROUP_MESSAGES.tooManyPinned]);
      // Pinning a pinned post again is no new pin.
      expect((await pin(owner, posts[2]!.id)).statusCode).toBe(200);

      const wall = (await call(m, 'GET', `/api/posts?groupId=${group.id}`)).json<FeedPage>();
      expect(wall.pinned?.map((p) => p.id)).toEqual([posts[2]!.id, posts[1]!.id, posts[0]!.id]);
      expect(wall.posts.map((p) => p.id)).toEqual([posts[5]!.id, posts[4]!.id, posts[3]!.id]);
      expect(wall.pinned?.every((p) => p.isPinned)).toBe(true);

      const moderator = await member(group);
      await database.sql`UPDATE group_members SET role = 'moderator' WHERE user_id = ${moderator.user.id}`;
      expect((await pin(moderator, posts[0]!.id, false)).json()).toEqual({ postId: posts[0]!.id, isPinned: false });
      expect((await pin(moderator, posts[3]!.id)).statusCode).toBe(200);

      const outside = await buildPost(database.db, owner.user.id);
      const notGroup = await pin(owner, outside.id);
      expect([notGroup.statusCode, notGroup.json<{ message: string }>().message]).toEqual([400, GROUP_MESSAGES.pinOnlyGroupPosts]);
      expect((await pin(owner, crypto.randomUUID())).statusCode).toBe(404);
      // The public wall has no pinned list.
      expect((await call(m, 'GET', '/api/posts')).json<FeedPage>().pinned).toBeUndefined();
    });

    it('reads a group wall page on the group indexes, with as many statements with pinned posts as without', async () => {
      const owner = await fan();
      const [group, other] = [await create(owner), await create(owner, { name: 'Otro' })];
      await database.sql`
        INSERT INTO posts (user_id, group_id, visibility, content, created_at, last_activity_at)
        SELECT ${owner.user.id}, CASE WHEN i % 2 = 0 THEN ${group.id}::uuid ELSE ${other.id}::uuid END, 'group', 'hola',
          timestamptz '2025-01-01' + i * interval '1 minute', timestamptz '2025-01-01' + i * interval '1 minute'
        FROM generate_series(1, 2000) i`;
      await database.sql`INSERT INTO posts (user_id, content) SELECT ${owner.user.id}, 'fuera' FROM generate_series(1, 2000)`;
      await database.sql`ANALYZE posts`;
      const viewer = { id: owner.user.id, isAdmin: false };
      for (const [order, index] of [
        ['last_activity_at', 'posts_group_activity_idx'],
        ['created_at', 'posts_group_idx'],
      ] as const) {
        const plan = await database.db.execute<{ 'QUERY PLAN': string }>(drizzleSql`
          EXPLAIN SELECT p.id FROM posts p WHERE ${visiblePost(viewer)} AND p.group_id = ${group.id} AND NOT p.is_pinned
          ORDER BY ${drizzleSql.raw(`p.${order}`)} DESC NULLS LAST, p.id DESC NULLS LAST LIMIT 11`);
        const text = plan.map((r) => r['QUERY PLAN']).join('\n');
        expect(text, text).toContain(index);
        expect(text, text).not.toMatch(/Sort Key/);
      }

      const countStatements = async () => {
        statements.length = 0;
        const res = await call(owner, 'GET', `/api/posts?groupId=${group.id}`);
        expect(res.statusCode).toBe(200);
        return statements.length;
      };
      // Warm: whether the reader mutes or blocks anybody (issue 29) is kept in memory from here on, as the session is.
      await countStatements();
      const without = await countStatements();
      await database.sql`UPDATE posts SET is_pinned = TRUE WHERE id IN (SELECT id FROM posts WHERE group_id = ${group.id} LIMIT 3)`;
      expect(await countStatements()).toBe(without);
    });
  });

  it('lets group moderators delete posts and comments in their group, not elsewhere', async () => {
    const owner = await fan();
    const group = await create(owner);
    const moderator = await member(group);
    await database.sql`UPDATE group_members SET role = 'moderator' WHERE user_id = ${moderator.user.id}`;
    const author = await member(group);
    const post = await buildPost(database.db, author.user.id, { groupId: group.id, visibility: 'group' });
    const [comment] = await database.sql<{ id: string }[]>`
      INSERT INTO comments (post_id, user_id, content) VALUES (${post.id}, ${author.user.id}, 'hola') RETURNING id`;
    const plain = await member(group);
    expect((await call(plain, 'DELETE', `/api/comments/${comment!.id}`)).statusCode).toBe(403);
    expect((await call(moderator, 'DELETE', `/api/comments/${comment!.id}`)).statusCode).toBe(200);
    expect((await call(plain, 'DELETE', `/api/posts/${post.id}`)).statusCode).toBe(403);
    expect((await call(moderator, 'DELETE', `/api/posts/${post.id}`)).statusCode).toBe(204);
    const elsewhere = await buildPost(database.db, author.user.id);
    expect((await call(moderator, 'DELETE', `/api/posts/${elsewhere.id}`)).statusCode).toBe(403);
    expect((await database.sql<{ is_hidden: boolean }[]>`SELECT is_hidden FROM posts WHERE id = ${post.id}`)[0]!.is_hidden).toBe(true);
  });
});
