// The admin users screen: search, filters, paging, edit, points, statistics, suspension.
import { describe, expect, it } from 'vitest';
import type { AdminUserList, AdminUserRow, AdjustPointsResult, AdminUserStats } from '@tribuna/contracts/api/admin/users';
import { schema } from '@tribuna/drizzle';
import type { Database } from '@tribuna/drizzle/client';
import { buildComment, buildPoll, buildPost, buildUser, buildVotes } from '../../../../test/support/factories.ts';
import type { App } from '../../app.ts';
import type { RateLimitRule } from '../../http/rateLimits.ts';
import { useTestApp } from '../../../../test/support/server/harness.ts';
import { auditRows, signInAdmin } from '../../../../test/support/server/catalog.ts';
import { containsPattern, RECENT_WINDOW, SEARCH_COUNT_CAP } from './repository.ts';

const generous: RateLimitRule = { store: 'local', perUser: { max: 10_000, windowSeconds: 1 }, perAddress: { max: 10_000, windowSeconds: 1 } };

async function addAccount(database: Database, userId: string, email: string | null): Promise<void> {
  await database.db.insert(schema.accounts).values({ userId, email, oidcIssuer: 'https://accounts.google.com', oidcSubject: `sub-${userId}` });
}

describe('LIKE pattern of the search', () => {
  it('matches %, _ and \\ literally', () => {
    expect(containsPattern('50%_a\\b')).toBe('%50\\%\\_a\\\\b%');
  });
});

describe('/api/admin/users', () => {
  let app: App;
  let database: Database;
  useTestApp({}, (ready) => ({ app, database } = ready), { build: () => ({ rateLimits: { 'admin.write': generous, 'admin.read': generous } }) });

  const list = async (caller: Awaited<ReturnType<typeof signInAdmin>>, query = '') => {
    const res = await caller.call('GET', `/api/admin/users${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<AdminUserList>();
  };

  describe('list and search', () => {
    it('finds users by partial display name, username or e-mail, ignoring case', async () => {
      const admin = await signInAdmin(app, database);
      const ana = await buildUser(database.db, { displayName: 'Ana Martínez', username: 'anita_m' });
      const bruno = await buildUser(database.db, { displayName: 'Bruno Díaz', username: 'brunod' });
      const carla = await buildUser(database.db, { displayName: 'Carla', username: 'carla_x' });
      await addAccount(database, ana.id, 'ana@example.com');
      await addAccount(database, bruno.id, 'BRUNO.Fan@Correo.MX');

      const ids = async (q: string) => (await list(admin, `?q=${encodeURIComponent(q)}`)).items.map((u) => u.id);
      expect(await ids('martÍ')).toEqual([ana.id]);
      expect(await ids('ANITA')).toEqual([ana.id]);
      expect(await ids('fan@correo')).toEqual([bruno.id]);
      expect(await ids('CORREO.mx')).toEqual([bruno.id]);
      expect(await ids('rla_')).toEqual([carla.id]);
      // % and _ are literal: 'a_x' matches carla_x only, '%' nobody.
      expect(await ids('a_x')).toEqual([carla.id]);
      expect(await ids('%')).toEqual([]);
      expect(await ids('\\')).toEqual([]);
      // Two characters: no trigram, still found (by scanning).
      expect(await ids('dí')).toEqual([bruno.id]);
      expect(await ids('.MX')).toEqual([bruno.id]);
      // Blank: everyone (the admin too).
      expect((await list(admin, '?q=%20%20')).total).toBe(4);
    });

    it('keeps the searched copy in step with profile and account changes, and never matches across two fields', async () => {
      const admin = await signInAdmin(app, database);
      const luisa = await buildUser(database.db, { displayName: 'Luisa Ortega', username: 'fanatica' });
      const ids = async (q: string) => (await list(admin, `?q=${encodeURIComponent(q)}`)).items.map((u) => u.id);
      // 'ortega\nfanatica': the end of the name and the start of the username are two fields.
      expect(await ids('ortegafan')).toEqual([]);
      expect(await ids('ortega fan')).toEqual([]);

      await addAccount(database, luisa.id, 'luisa.o@correo.mx');
      expect(await ids('luisa.o@')).toEqual([luisa.id]);
      await database.sql`UPDATE accounts SET email = 'lo@otro.mx' WHERE user_id = ${luisa.id}`;
      expect(await ids('luisa.o@')).toEqual([]);
      expect(await ids('@otro.mx')).toEqual([luisa.id]);

      await database.sql`UPDATE profiles SET display_name = 'Luisa Quintero', username = 'lquintero', role = 'moderator', is_suspended = true WHERE id = ${luisa.id}`;
      expect(await ids('ortega')).toEqual([]);
      expect(await ids('fanatica')).toEqual([]);
      expect(await ids('quinTERO')).toEqual([luisa.id]);
      expect((await list(admin, '?q=quintero&role=moderator&status=suspended')).items.map((u) => u.id)).toEqual([luisa.id]);
      expect((await list(admin, '?q=quintero&status=active')).items).toEqual([]);

      await database.sql`DELETE FROM accounts WHERE user_id = ${luisa.id}`;
      expect(await ids('otro.mx')).toEqual([]);
      const [copy] = await database.sql<{ email: string | null; doc: string }[]>`SELECT email, doc FROM admin_user_search WHERE user_id = ${luisa.id}`;
      expect(copy).toEqual({ email: null, doc: 'luisa quintero\nlquintero\n' });
      await database.sql`DELETE FROM profiles WHERE id = ${luisa.id}`;
      expect(await database.sql`SELECT 1 FROM admin_user_search WHERE user_id = ${luisa.id}`).toHaveLength(0);
    });

    it('counts a search up to 1,000 matches and says when more match; without a search the total is exact', async () => {
      const admin = await signInAdmin(app, database);
      const extra = SEARCH_COUNT_CAP + 5;
      await database.sql`
        INSERT INTO profiles (display_name, username, created_at)
        SELECT 'Masivo ' || g, 'masivo_' || g, now() - g * interval '1 second' FROM generate_series(1, ${extra}) AS g`;
      const found = await list(admin, '?q=masivo');
      expect(found).toMatchObject({ total: SEARCH_COUNT_CAP, totalCapped: true, page: 1 });
      expect(found.items.map((u) => u.username)).toEqual(Array.from({ length: 20 }, (_, i) => `masivo_${i + 1}`));
      // Pages go on past the counted 1,000.
      const late = await list(admin, `?q=masivo&page=${SEARCH_COUNT_CAP / 20 + 1}`);
      expect(late.items.map((u) => u.username)).toEqual(Array.from({ length: 5 }, (_, i) => `masivo_${SEARCH_COUNT_CAP + i + 1}`));
      // masivo_100 and masivo_1000 … masivo_1005.
      expect(await list(admin, '?q=masivo_100')).toMatchObject({ total: 7, totalCapped: false });
      expect(await list(admin)).toMatchObject({ total: extra + 1, totalCapped: false });
    });

    it('finds the newest of many matches even when none is among the newest users', async () => {
      const admin = await signInAdmin(app, database);
      // 1,100 old matches, then RECENT_WINDOW newer users that do not match.
      await database.sql`
        INSERT INTO profiles (display_name, username, created_at)
        SELECT 'Antiguo ' || g, 'antiguo_' || g, now() - interval '30 days' - g * interval '1 second' FROM generate_series(1, 1100) AS g`;
      await database.sql`
        INSERT INTO profiles (display_name, username, created_at)
        SELECT 'Reciente ' || g, 'reciente_' || g, now() - interval '1 day' - g * interval '1 second' FROM generate_series(1, ${RECENT_WINDOW}) AS g`;
      const first = await list(admin, '?q=antiguo');
      expect(first).toMatchObject({ total: SEARCH_COUNT_CAP, totalCapped: true });
      expect(first.items.map((u) => u.username)).toEqual(Array.from({ length: 20 }, (_, i) => `antiguo_${i + 1}`));
      const last = await list(admin, '?q=antiguo&page=55');
      expect(last.items.map((u) => u.username)).toEqual(Array.from({ length: 20 }, (_, i) => `antiguo_${1081 + i}`));
      // Without a search, the window answers the first pages and the total is exact.
      expect(await list(admin, '?page=2')).toMatchObject({ total: 1100 + RECENT_WINDOW + 1, totalCapped: false });
      expect((await list(admin, '?role=admin')).items.map((u) => u.id)).toEqual([admin.id]);
    });

    it('shows the e-mail or null, the counters and the deleted flag', async () => {
      const admin = await signInAdmin(app, database);
      const fan = await buildUser(database.db, { totalPoints: 7 });
      const noMail = await buildUser(database.db);
      const gone = await buildUser(database.db, { deletedAt: new Date(), isSuspended: true });
      await addAccount(database, fan.id, 'fan@example.com');
      await addAccount(database, noMail.id, null);
      const poll = await buildPoll(database.db, { options: 2 });
      await buildVotes(database.db, [
        { pollId: poll.poll.id, optionId: poll.options[0]!.id, userId: fan.id },
        { pollId: poll.poll.id, optionId: poll.options[1]!.id, userId: fan.id },
      ]);
      const post = await buildPost(database.db, fan.id);
      await buildPost(database.db, fan.id, { isHidden: true });
      await buildComment(database.db, post.id, fan.id);
      await buildComment(database.db, post.id, fan.id, { isHidden: true });
      await buildComment(database.db, post.id, fan.id);

      const { items } = await list(admin);
      const row = (id: string) => items.find((u) => u.id === id)!;
      expect(row(fan.id)).toMatchObject({
        email: 'fan@example.com',
        totalPoints: 7,
        voteCount: 2,
        postCount: 1,
        commentCount: 2,
        isDeleted: false,
        isSuspended: false,
        role: 'user',
      });
      expect(row(noMail.id)).toMatchObject({ email: null, voteCount: 0, postCount: 0, commentCount: 0 });
      expect(row(gone.id)).toMatchObject({ isDeleted: true, isSuspended: true, email: null });
    });

    it('filters by role and status, counts all matches and pages by 20, newest first', async () => {
      const admin = await signInAdmin(app, database);
      const base = Date.now() - 1_000_000;
      const fans = [];
      for (let i = 0; i < 25; i++) fans.push(await buildUser(database.db, { createdAt: new Date(base + i * 1000), isSuspended: i % 5 === 0 }));
      const mod = await buildUser(database.db, { role: 'moderator', createdAt: new Date(base - 5000) });

      const first = await list(admin);
      expect(first).toMatchObject({ total: 27, page: 1, pageSize: 20 });
      expect(first.items).toHaveLength(20);
      // The admin was created last (now), then the fans newest first.
      expect(first.items.map((u) => u.id)).toEqual([
        admin.id,
        ...fans
          .slice(6)
          .reverse()
          .map((f) => f.id),
      ]);
      const second = await list(admin, '?page=2');
      expect(second.items.map((u) => u.id)).toEqual([
        ...fans
          .slice(0, 6)
          .reverse()
          .map((f) => f.id),
        mod.id,
      ]);
      expect(await list(admin, '?page=3')).toMatchObject({ items: [], total: 27 });

      expect((await list(admin, '?role=moderator')).items.map((u) => u.id)).toEqual([mod.id]);
      expect((await list(admin, '?role=admin')).items.map((u) => u.id)).toEqual([admin.id]);
      const suspended = await list(admin, '?status=suspended');
      expect(suspended.total).toBe(5);
      expect(suspended.items.every((u) => u.isSuspended)).toBe(true);
      expect((await list(admin, '?status=active')).total).toBe(22);
      expect((await list(admin, '?status=all&role=user')).total).toBe(25);
      expect((await list(admin, '?status=active&role=user&page=2')).items).toHaveLength(0);
    });

    it('refuses unknown filters', async () => {
      const admin = await signInAdmin(app, database);
      expect((await admin.call('GET', '/api/admin/users?role=superuser')).statusCode).toBe(400);
      expect((await admin.call('GET', '/api/admin/users?status=deleted')).statusCode).toBe(400);
      expect((await admin.call('GET', '/api/admin/users?page=0')).statusCode).toBe(400);
    });
  });

  describe('edit', () => {
    it('changes the profile fields and the role, audits only what changed', async () => {
      const admin = await signInAdmin(app, database);
      const fan = await buildUser(database.db, { displayName: 'Fan Uno', username: 'fan_uno', bio: 'Hola' });
      const res = await admin.call('PATCH', `/api/admin/users/${fan.id}`, {
        displayName: '  Fan Editado ',
        username: 'Fan_Editado',
        bio: 'Hola',
        avatarUrl: 'https://lh3.googleusercontent.com/a/foto',
        role: 'moderator',
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<AdminUserRow>()).toMatchObject({
        id: fan.id,
        displayName: 'Fan Editado',
        username: 'fan_editado',
        bio: 'Hola',
        avatarUrl: 'https://lh3.googleusercontent.com/a/foto',
        role: 'moderator',
      });
      const [audit] = await auditRows(database);
      expect(audit).toEqual({
        admin_id: admin.id,
        action: 'user.update',
        entity_type: 'user',
        entity_id: fan.id,
        before: { displayName: 'Fan Uno', username: 'fan_uno', avatarUrl: null, role: 'user' },
        after: { displayName: 'Fan Editado', username: 'fan_editado', avatarUrl: 'https://lh3.googleusercontent.com/a/foto', role: 'moderator' },
      });
    });

    it('applies the public edit rules and messages', async () => {
      const admin = await signInAdmin(app, database);
      const fan = await buildUser(database.db);
      await buildUser(database.db, { username: 'ocupado' });
      const patch = (body: object) => admin.call('PATCH', `/api/admin/users/${fan.id}`, body);

      const blank = await patch({ displayName: '   ' });
      expect(blank.statusCode).toBe(400);
      expect(blank.json().message).toBe('El nombre no puede estar vacío');
      const taken = await patch({ username: 'OCUPADO' });
      expect(taken.statusCode).toBe(409);
      expect(taken.json().message).toBe('Username already taken');
      expect((await patch({ username: 'no valido!' })).statusCode).toBe(400);
      expect((await patch({ avatarUrl: 'javascript:alert(1)' })).statusCode).toBe(400);
      expect((await patch({ avatarUrl: 'https://cdn.example.com/a.webp' })).json().message).toBe('La URL del avatar no es de un dominio permitido');
      expect((await patch({ bio: 'x'.repeat(501) })).json().message).toBe('La biografía no puede exceder 500 caracteres');
      // Clearing the username and bio.
      const cleared = await patch({ username: null, bio: '' });
      expect(cleared.json<AdminUserRow>()).toMatchObject({ username: null, bio: null });
      // Nothing refused was written or audited.
      expect((await auditRows(database)).map((a) => a.action)).toEqual(['user.update']);
    });

    it('refuses an admin removing their own admin role, allows other changes of their own', async () => {
      const admin = await signInAdmin(app, database);
      const demote = await admin.call('PATCH', `/api/admin/users/${admin.id}`, { role: 'user' });
      expect(demote.statusCode).toBe(400);
      expect(demote.json().message).toBe('No puedes quitarte tu propio rol de administrador');
      const own = await admin.call('PATCH', `/api/admin/users/${admin.id}`, { role: 'admin', displayName: 'Jefa' });
      expect(own.statusCode).toBe(200);
      expect(own.json<AdminUserRow>()).toMatchObject({ role: 'admin', displayName: 'Jefa' });
    });

    it('demotes another admin at once: their next admin call is refused', async () => {
      const admin = await signInAdmin(app, database);
      const other = await signInAdmin(app, database);
      expect((await other.call('GET', '/api/admin/users')).statusCode).toBe(200);
      expect((await admin.call('PATCH', `/api/admin/users/${other.id}`, { role: 'user' })).statusCode).toBe(200);
      expect((await other.call('GET', '/api/admin/users')).statusCode).toBe(403);
    });

    it('answers 404 for an unknown user', async () => {
      const admin = await signInAdmin(app, database);
      const res = await admin.call('PATCH', '/api/admin/users/123e4567-e89b-42d3-a456-426614174000', { bio: 'x' });
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('Usuario no encontrado');
    });
  });

  describe('points', () => {
    const adjust = (admin: Awaited<ReturnType<typeof signInAdmin>>, userId: string, body: object) =>
      admin.call('POST', `/api/admin/users/${userId}/points`, body);

    it('adds and subtracts with a history row and an audit row', async () => {
      const admin = await signInAdmin(app, database);
      const fan = await buildUser(database.db, { totalPoints: 10 });
      const add = await adjust(admin, fan.id, { points: 15, description: '  Premio del programa  ' });
      expect(add.statusCode, add.body).toBe(200);
      expect(add.json<AdjustPointsResult>()).toMatchObject({
        totalPoints: 25,
        entry: { points: 15, reason: 'admin_adjustment', description: 'Premio del programa' },
      });
      const sub = await adjust(admin, fan.id, { points: -30 });
      expect(sub.json<AdjustPointsResult>()).toMatchObject({ totalPoints: -5, entry: { points: -30, description: 'Ajuste manual por administrador' } });
      const history = await database.sql<{ points: number; reason: string; reference_id: string | null; description: string }[]>`
        SELECT points, reason, reference_id, description FROM user_points_history WHERE user_id = ${fan.id} ORDER BY created_at, points DESC`;
      expect(history).toEqual([
        { points: 15, reason: 'admin_adjustment', reference_id: null, description: 'Premio del programa' },
        { points: -30, reason: 'admin_adjustment', reference_id: null, description: 'Ajuste manual por administrador' },
      ]);
      expect((await auditRows(database)).map((a) => [a.action, a.before, a.after])).toEqual([
        ['user.points', { totalPoints: 10 }, { totalPoints: 25, points: 15, description: 'Premio del programa' }],
        ['user.points', { totalPoints: 25 }, { totalPoints: -5, points: -30, description: 'Ajuste manual por administrador' }],
      ]);
    });

    it.each([[{ points: 0 }], [{}], [{ points: 1.5 }], [{ points: 'diez' }], [{ points: null }]])('refuses %j with the Spanish message', async (body) => {
      const admin = await signInAdmin(app, database);
      const fan = await buildUser(database.db);
      const res = await adjust(admin, fan.id, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('Debes especificar una cantidad de puntos');
    });

    it('answers 404 for an unknown user and 400 when the total would overflow', async () => {
      const admin = await signInAdmin(app, database);
      const missing = await adjust(admin, '123e4567-e89b-42d3-a456-426614174000', { points: 5 });
      expect(missing.statusCode).toBe(404);
      expect(missing.json().message).toBe('Usuario no encontrado');
      const rich = await buildUser(database.db, { totalPoints: 2_147_000_000 });
      expect((await adjust(admin, rich.id, { points: 1_000_000 })).statusCode).toBe(400);
      expect(await auditRows(database)).toEqual([]);
    });

    it('keeps the exact total under 20 concurrent adjustments', async () => {
      const admin = await signInAdmin(app, database);
      const fan = await buildUser(database.db, { totalPoints: 100 });
      const amounts = Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? 5 : -3));
      const answers = await Promise.all(amounts.map((points) => adjust(admin, fan.id, { points })));
      expect(answers.map((r) => r.statusCode)).toEqual(amounts.map(() => 200));
      const [row] = await database.sql<{ total_points: number }[]>`SELECT total_points FROM profiles WHERE id = ${fan.id}`;
      expect(row!.total_points).toBe(100 + 10 * 5 - 10 * 3);
      const [history] = await database.sql<{ n: number; sum: number }[]>`
        SELECT count(*)::int AS n, sum(points)::int AS sum FROM user_points_history WHERE user_id = ${fan.id}`;
      expect(history).toEqual({ n: 20, sum: 20 });
      // One answer saw the final total: the last to commit.
      expect(answers.map((r) => r.json<AdjustPointsResult>().totalPoints)).toContain(120);
      expect(await auditRows(database)).toHaveLength(20);
    });
  });

  describe('statistics', () => {
    it('counts votes, visible posts and comments, and sums the points by reason', async () => {
      const admin = await signInAdmin(app, database);
      const fan = await buildUser(database.db, { totalPoints: 42 });
      const poll = await buildPoll(database.db);
      await buildVotes(database.db, [{ pollId: poll.poll.id, optionId: poll.options[0]!.id, userId: fan.id }]);
      const post = await buildPost(database.db, fan.id);
      await buildComment(database.db, post.id, fan.id, { isHidden: true });
      await database.db.insert(schema.userPointsHistory).values([
        { userId: fan.id, points: 10, reason: 'vote', referenceId: 'vote:a:2025-01-01' },
        { userId: fan.id, points: 10, reason: 'vote', referenceId: 'vote:b:2025-01-01' },
        { userId: fan.id, points: 5, reason: 'share', referenceId: 'share:a:2025-01-01' },
        { userId: fan.id, points: 20, reason: 'admin_adjustment' },
        { userId: fan.id, points: -3, reason: 'admin_adjustment' },
      ]);
      const res = await admin.call('GET', `/api/admin/users/${fan.id}/stats`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<AdminUserStats>()).toEqual({
        votes: 1,
        posts: 1,
        comments: 0,
        totalPoints: 42,
        pointsByReason: [
          { reason: 'admin_adjustment', points: 17, entries: 2 },
          { reason: 'share', points: 5, entries: 1 },
          { reason: 'vote', points: 20, entries: 2 },
        ],
      });
      const missing = await admin.call('GET', '/api/admin/users/123e4567-e89b-42d3-a456-426614174000/stats');
      expect(missing.statusCode).toBe(404);
      expect(missing.json().message).toBe('Usuario no encontrado');
    });
  });

  describe('suspension', () => {
    it('suspends and reactivates, answering the row, audited', async () => {
      const admin = await signInAdmin(app, database);
      const fan = await buildUser(database.db);
      await addAccount(database, fan.id, 'fan@example.com');
      const suspended = await admin.call('POST', `/api/admin/users/${fan.id}/suspend`);
      expect(suspended.statusCode).toBe(200);
      expect(suspended.json<AdminUserRow>()).toMatchObject({ id: fan.id, isSuspended: true, email: 'fan@example.com', voteCount: 0 });
      const back = await admin.call('POST', `/api/admin/users/${fan.id}/unsuspend`);
      expect(back.json<AdminUserRow>()).toMatchObject({ id: fan.id, isSuspended: false });
      expect((await auditRows(database)).map((a) => [a.action, a.entity_id, a.before, a.after])).toEqual([
        ['user.suspend', fan.id, { isSuspended: false }, { isSuspended: true }],
        ['user.unsuspend', fan.id, { isSuspended: true }, { isSuspended: false }],
      ]);
    });

    it('refuses an admin suspending their own account', async () => {
      const admin = await signInAdmin(app, database);
      const res = await admin.call('POST', `/api/admin/users/${admin.id}/suspend`);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('No puedes suspender tu propia cuenta');
      expect(await auditRows(database)).toEqual([]);
    });

    it('keeps a deleted account suspended', async () => {
      const admin = await signInAdmin(app, database);
      const gone = await buildUser(database.db, { deletedAt: new Date(), isSuspended: true });
      const res = await admin.call('POST', `/api/admin/users/${gone.id}/unsuspend`);
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe('No se puede reactivar una cuenta eliminada');
    });

    it('answers 404 for unknown users', async () => {
      const admin = await signInAdmin(app, database);
      for (const action of ['suspend', 'unsuspend']) {
        const res = await admin.call('POST', `/api/admin/users/123e4567-e89b-42d3-a456-426614174000/${action}`);
        expect(res.statusCode).toBe(404);
        expect(res.json().message).toBe('Usuario no encontrado');
      }
    });
  });
});
