// GET /api/admin/audit and /api/admin/audit/filters: the Auditoría screen's reads.
import { describe, expect, it } from 'vitest';
import type { AuditFilters, AuditPage } from '@tribuna/contracts/api/admin/audit';
import type { Database } from '@tribuna/drizzle/client';
import { buildUser } from '../../../../test/support/factories.ts';
import type { App } from '../../app.ts';
import type { RateLimitRule } from '../../http/rateLimits.ts';
import { useTestApp } from '../../../../test/support/server/harness.ts';
import { signInAdmin } from '../../../../test/support/server/catalog.ts';

const generous: RateLimitRule = { store: 'local', perUser: { max: 10_000, windowSeconds: 1 }, perAddress: { max: 10_000, windowSeconds: 1 } };

describe('/api/admin/audit', () => {
  let app: App;
  let database: Database;
  // Madrid: UTC+1 in January, so a local day runs from 23:00 UTC the day before.
  useTestApp({ SHOW_TIMEZONE: 'Europe/Madrid' }, (ready) => ({ app, database } = ready), {
    build: () => ({ rateLimits: { 'admin.read': generous, 'admin.write': generous } }),
  });

  async function entry(adminId: string | null, action: string, at: string, extra: { before?: object; after?: object } = {}) {
    await database.sql`
      INSERT INTO admin_audit_log (admin_id, action, entity_type, entity_id, before, after, created_at)
      VALUES (${adminId}, ${action}, 'user', 'e1', ${extra.before ? JSON.stringify(extra.before) : null}::jsonb,
        ${extra.after ? JSON.stringify(extra.after) : null}::jsonb, ${at})`;
  }

  it('pages newest first by 50 with a cursor, with the admin, before and after', async () => {
    const admin = await signInAdmin(app, database);
    for (let i = 0; i < 120; i++) await entry(admin.id, `a.${i}`, new Date(Date.UTC(2025, 0, 1, 0, i)).toISOString());
    await entry(admin.id, 'user.update', '2025-02-01T10:00:00Z', { before: { role: 'user' }, after: { role: 'moderator' } });

    const page = async (cursor?: string) => {
      const res = await admin.call('GET', `/api/admin/audit${cursor ? `?cursor=${cursor}` : ''}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<AuditPage>();
    };
    const first = await page();
    expect(first.items).toHaveLength(50);
    expect(first.items[0]).toEqual({
      id: expect.any(String),
      admin: { id: admin.id, displayName: expect.any(String) },
      action: 'user.update',
      entityType: 'user',
      entityId: 'e1',
      before: { role: 'user' },
      after: { role: 'moderator' },
      createdAt: '2025-02-01T10:00:00.000Z',
    });
    expect(first.items[1]).toMatchObject({ action: 'a.119', before: null, after: null });
    const second = await page(first.nextCursor!);
    const third = await page(second.nextCursor!);
    expect(second.items.map((e) => e.action)).toEqual(Array.from({ length: 50 }, (_, i) => `a.${70 - i}`));
    expect(third.items.map((e) => e.action)).toEqual(Array.from({ length: 21 }, (_, i) => `a.${20 - i}`));
    expect(third.nextCursor).toBeNull();
  });

  it('filters by admin, action and local days (inclusive), and lists the filters', async () => {
    const ana = await signInAdmin(app, database);
    const bea = await buildUser(database.db, { role: 'admin', displayName: 'Bea' });
    await database.sql`UPDATE profiles SET display_name = 'Ana' WHERE id = ${ana.id}`;
    await entry(ana.id, 'user.suspend', '2025-01-09T22:59:59Z'); // 9 Jan 23:59:59 in Madrid
    await entry(ana.id, 'user.points', '2025-01-09T23:00:00Z'); // 10 Jan 00:00 in Madrid
    await entry(bea.id, 'user.suspend', '2025-01-10T22:59:59Z'); // 10 Jan 23:59:59
    await entry(bea.id, 'poll.feature', '2025-01-10T23:00:00Z'); // 11 Jan 00:00
    await entry(null, 'user.update', '2025-01-12T12:00:00Z'); // an admin since deleted

    const actions = async (query: string) => {
      const res = await ana.call('GET', `/api/admin/audit?${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json<AuditPage>().items.map((e) => e.action);
    };
    expect(await actions('from=2025-01-10&to=2025-01-10')).toEqual(['user.suspend', 'user.points']);
    expect(await actions('from=2025-01-11')).toEqual(['user.update', 'poll.feature']);
    expect(await actions('to=2025-01-09')).toEqual(['user.suspend']);
    expect(await actions(`adminId=${bea.id}`)).toEqual(['poll.feature', 'user.suspend']);
    expect(await actions('action=user.suspend')).toEqual(['user.suspend', 'user.suspend']);
    expect(await actions(`action=user.suspend&adminId=${ana.id}&from=2025-01-09&to=2025-01-09`)).toEqual(['user.suspend']);
    expect(await actions('from=2025-01-12&to=2025-01-10')).toEqual([]);
    const orphan = (await ana.call('GET', '/api/admin/audit?action=user.update')).json<AuditPage>().items[0]!;
    expect(orphan.admin).toBeNull();

    const filters = await ana.call('GET', '/api/admin/audit/filters');
    expect(filters.statusCode).toBe(200);
    expect(filters.json<AuditFilters>()).toEqual({
      admins: [
        { id: ana.id, displayName: 'Ana' },
        { id: bea.id, displayName: 'Bea' },
      ],
      actions: ['poll.feature', 'user.points', 'user.suspend', 'user.update'],
    });
  });

  it('records the admin writes of the users screen', async () => {
    const admin = await signInAdmin(app, database);
    const fan = await buildUser(database.db);
    await admin.call('POST', `/api/admin/users/${fan.id}/points`, { points: 3 });
    await admin.call('POST', `/api/admin/users/${fan.id}/suspend`);
    const items = (await admin.call('GET', '/api/admin/audit')).json<AuditPage>().items;
    expect(items.map((e) => [e.action, e.entityType, e.entityId, e.admin?.id])).toEqual([
      ['user.suspend', 'user', fan.id, admin.id],
      ['user.points', 'user', fan.id, admin.id],
    ]);
  });

  it('refuses impossible days, huge cursors and malformed filters', async () => {
    const admin = await signInAdmin(app, database);
    for (const query of ['from=2025-02-30', 'to=2025-13-01', 'cursor=99999999999999999999', 'cursor=abc', 'adminId=nope', 'from=2025-1-1']) {
      expect((await admin.call('GET', `/api/admin/audit?${query}`)).statusCode, query).toBe(400);
    }
    expect((await admin.call('GET', '/api/admin/audit?cursor=9223372036854775807')).statusCode).toBe(200);
  });

  it('gives empty filters for an empty log', async () => {
    const admin = await signInAdmin(app, database);
    expect((await admin.call('GET', '/api/admin/audit/filters')).json()).toEqual({ admins: [], actions: [] });
    expect((await admin.call('GET', '/api/admin/audit')).json()).toEqual({ items: [], nextCursor: null });
  });
});
