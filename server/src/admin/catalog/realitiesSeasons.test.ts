// The back-office catalogue, realities and seasons (spec admin-backoffice.md §2–§5), against the real database.
import { describe, expect, it } from 'vitest';
import { ADMIN_MESSAGES } from '@tribuna/contracts/adminRules';
import type { Database } from '@tribuna/drizzle/client';
import type { App } from '../../app.ts';
import { useTestApp } from '../../../../test/support/server/harness.ts';
import { CATALOG_MESSAGES } from './rules.ts';
import { auditRows, signInAdmin, type AdminCaller } from '../../../../test/support/server/catalog.ts';

let app: App;
let database: Database;
useTestApp({}, (ready) => ({ app, database } = ready));

const error = (message: string) => expect.objectContaining({ message });

async function createReality(admin: AdminCaller, name = 'Gran Hermano', extra: object = {}) {
  const res = await admin.call('POST', '/api/admin/realities', { name, ...extra });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ id: string; name: string; active: boolean }>();
}

async function createSeason(admin: AdminCaller, payload: object) {
  const res = await admin.call('POST', '/api/admin/seasons', { year: 2025, ...payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ id: string; number: number; active: boolean; realityName: string }>();
}

async function seasonRows(realityId: string) {
  return database.sql<{ id: string; number: number; active: boolean; deleted_at: Date | null }[]>`
    SELECT id, number, active, deleted_at FROM seasons WHERE reality_id = ${realityId} ORDER BY number`;
}

describe('realities', () => {
  it('creates a reality with a trimmed name, active by default, and records who did it', async () => {
    const admin = await signInAdmin(app, database);
    const res = await admin.call('POST', '/api/admin/realities', { name: '  Gran Hermano  ' });
    expect(res.statusCode).toBe(201);
    const reality = res.json();
    expect(reality).toMatchObject({ name: 'Gran Hermano', active: true, seasonCount: 0 });
    const audit = await auditRows(database);
    expect(audit).toEqual([
      expect.objectContaining({ admin_id: admin.id, action: 'reality.create', entity_type: 'reality', entity_id: reality.id, before: null }),
    ]);
    expect(audit[0]!.after).toMatchObject({ name: 'Gran Hermano', active: true });
  });

  it.each([
    ['an empty name', '', ADMIN_MESSAGES.realityNameRequired],
    ['a blank name', '   ', ADMIN_MESSAGES.realityNameRequired],
    ['a name over 100 characters', 'x'.repeat(101), CATALOG_MESSAGES.nameTooLong],
  ])('refuses %s with a message and writes nothing', async (_case, name, message) => {
    const admin = await signInAdmin(app, database);
    const res = await admin.call('POST', '/api/admin/realities', { name });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(error(message));
    expect(await database.sql`SELECT 1 FROM realities`).toHaveLength(0);
    expect(await auditRows(database)).toEqual([]);
  });

  it('lists realities by name with their live season counts, without the deleted ones', async () => {
    const admin = await signInAdmin(app, database);
    const survivor = await createReality(admin, 'Survivor');
    const hermano = await createReality(admin, 'Gran Hermano', { active: false });
    const gone = await createReality(admin, 'Borrado');
    await createSeason(admin, { realityId: hermano.id });
    const deletedSeason = await createSeason(admin, { realityId: hermano.id });
    expect((await admin.call('DELETE', `/api/admin/seasons/${deletedSeason.id}`)).statusCode).toBe(204);
    expect((await admin.call('DELETE', `/api/admin/realities/${gone.id}`)).statusCode).toBe(204);

    const res = await admin.call('GET', '/api/admin/realities');
    expect(res.statusCode).toBe(200);
    expect(res.json().realities).toEqual([
      expect.objectContaining({ id: hermano.id, name: 'Gran Hermano', active: false, seasonCount: 1 }),
      expect.objectContaining({ id: survivor.id, name: 'Survivor', active: true, seasonCount: 0 }),
    ]);
  });

  it('renames and toggles a reality, auditing before and after', async () => {
    const admin = await signInAdmin(app, database);
    const reality = await createReality(admin);
    const toggled = await admin.call('PATCH', `/api/admin/realities/${reality.id}`, { active: false });
    expect(toggled.statusCode).toBe(200);
    expect(toggled.json()).toMatchObject({ id: reality.id, name: 'Gran Hermano', active: false });
    const renamed = await admin.call('PATCH', `/api/admin/realities/${reality.id}`, { name: ' Big Brother ' });
    expect(renamed.json()).toMatchObject({ name: 'Big Brother', active: false });

    const audit = (await auditRows(database)).filter((row) => row.action === 'reality.update');
    expect(audit.map((row) => [row.before?.active, row.after?.active, row.before?.name, row.after?.name])).toEqual([
      [true, false, 'Gran Hermano', 'Gran Hermano'],
      [false, false, 'Gran Hermano', 'Big Brother'],
    ]);
  });

  it('refuses a blank rename and an unknown reality without writing', async () => {
    const admin = await signInAdmin(app, database);
    const reality = await createReality(admin);
    const blank = await admin.call('PATCH', `/api/admin/realities/${reality.id}`, { name: ' ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toEqual(error(ADMIN_MESSAGES.realityNameRequired));
    const unknown = await admin.call('PATCH', '/api/admin/realities/123e4567-e89b-42d3-a456-426614174000', { active: false });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual(error(ADMIN_MESSAGES.realityNotFound));
    expect((await auditRows(database)).map((row) => row.action)).toEqual(['reality.create']);
  });

  it('soft-deletes a reality: the row stays, inactive and hidden, and a second delete or edit is 404', async () => {
    const admin = await signInAdmin(app, database);
    const reality = await createReality(admin);
    const res = await admin.call('DELETE', `/api/admin/realities/${reality.id}`);
    expect(res.statusCode).toBe(204);
    const [row] = await database.sql<{ active: boolean; deleted_at: Date | null }[]>`SELECT active, deleted_at FROM realities WHERE id = ${reality.id}`;
    expect(row!.active).toBe(false);
    expect(row!.deleted_at).not.toBeNull();
    expect((await admin.call('GET', '/api/admin/realities')).json().realities).toEqual([]);
    for (const again of [
      admin.call('DELETE', `/api/admin/realities/${reality.id}`),
      admin.call('PATCH', `/api/admin/realities/${reality.id}`, { active: true }),
    ]) {
      const answer = await again;
      expect(answer.statusCode).toBe(404);
      expect(answer.json()).toEqual(error(ADMIN_MESSAGES.realityNotFound));
    }
    const audit = await auditRows(database);
    expect(audit.map((a) => a.action)).toEqual(['reality.create', 'reality.delete']);
    expect(audit[1]!.before).toMatchObject({ active: true, deletedAt: null });
    expect(audit[1]!.after).toMatchObject({ active: false });
    expect(audit[1]!.after!.deletedAt).toEqual(expect.any(String));
  });
});

describe('seasons', () => {
  it('numbers a reality’s seasons one after another by default and shows the reality’s name', async () => {
    const admin = await signInAdmin(app, database);
    const reality = await createReality(admin);
    const first = await createSeason(admin, { realityId: reality.id, startDate: '2025-01-10', endDate: '2025-04-01' });
    const second = await createSeason(admin, { realityId: reality.id, year: 2026 });
    const fifth = await createSeason(admin, { realityId: reality.id, number: 5, year: 2026 });
    const sixth = await createSeason(admin, { realityId: reality.id, year: 2027 });
    expect([first.number, second.number, fifth.number, sixth.number]).toEqual([1, 2, 5, 6]);
    expect(first).toMatchObject({ realityName: 'Gran Hermano', startDate: '2025-01-10', endDate: '2025-04-01', active: false, year: 2025 });
    expect((await auditRows(database)).filter((a) => a.action === 'season.create')).toHaveLength(4);
  });

  it('keeps a deleted season’s number taken (the next one follows it)', async () => {
    const admin = await signInAdmin(app, database);
    const reality = await createReality(admin);
    const first = await createSeason(admin, { realityId: reality.id });
    expect((await admin.call('DELETE', `/api/admin/seasons/${first.id}`)).statusCode).toBe(204);
    expect((await createSeason(admin, { realityId: reality.id })).number).toBe(2);
  });

  it('refuses a duplicate number in the same reality with 409, allows it in another', async () => {
    const admin = await signInAdmin(app, database);
    const reality = await createReality(admin);
    const other = await createReality(admin, 'Survivor');
    await createSeason(admin, { realityId: reality.id, number: 3 });
    const before = (await auditRows(database)).length;
    const dup = await admin.call('POST', '/api/admin/seasons', { realityId: reality.id, number: 3, year: 2025 });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toEqual(error(ADMIN_MESSAGES.seasonNumberTaken));
    expect(await auditRows(database)).toHaveLength(before);
    await createSeason(admin, { realityId: other.id, number: 3 });

    const second = await createSeason(admin, { realityId: reality.id });
    const renumber = await admin.call('PATCH', `/api/admin/seasons/${second.id}`, { number: 3 });
    expect(renumber.statusCode).toBe(409);
    expect(renumber.json()).toEqual(error(ADMIN_MESSAGES.seasonNumberTaken));
  });

  it.each([
    ['no reality', { realityId: undefined }, 400, ADMIN_MESSAGES.realityRequired],
    ['an unselected reality', { realityId: '' }, 400, ADMIN_MESSAGES.realityRequired],
    ['no year', { year: undefined }, 400, ADMIN_MESSAGES.yearRange],
    ['an unknown reality', { realityId: '123e4567-e89b-42d3-a456-426614174000' }, 400, ADMIN_MESSAGES.realityRequired],
    ['a year before 2000', { year: 1999 }, 400, ADMIN_MESSAGES.yearRange],
    ['a year after 2100', { year: 2101 }, 400, ADMIN_MESSAGES.yearRange],
    ['an end before the start', { startDate: '2025-05-02', endDate: '2025-05-01' }, 400, ADMIN_MESSAGES.seasonDates],
    ['a day that does not exist', { startDate: '2025-02-30' }, 400, CATALOG_MESSAGES.invalidDate],
  ])('refuses %s with its message and writes nothing', async (_case, change, status, message) => {
    const admin = await signInAdmin(app, database);
    const reality = await createReality(admin);
    const payload: Record<string, unknown> = { realityId: reality.id, year: 2025, ...change };
    for (const key of Object.keys(payload)) if (payload[key] === undefined) delete payload[key];
    const res = await admin.call('POST', '/api/admin/seasons', payload);
    expect(res.statusCode).toBe(status);
    expect(res.json()).toEqual(error(message));
    expect(await database.sql`SELECT 1 FROM seasons`).toHaveLength(0);
    expect((await auditRows(database)).map((a) => a.action)).toEqual(['reality.create']);
  });

  it('accepts the year bounds and equal start and end dates', async () => {
    const admin = await signInAdmin(app, database);
    const reality = await createReality(admin);
    await createSeason(admin, { realityId: reality.id, year: 2000 });
    await createSeason(admin, { realityId: reality.id, year: 2100, startDate: '2100-01-01', endDate: '2100-01-01' });
  });

  it('refuses a season of a deleted reality', async () => {
    const admin = await signInAdmin(app, database);
    const reality = await createReality(admin);
    await admin.call('DELETE', `/api/admin/realities/${reality.id}`);
    const res = await admin.call('POST', '/api/admin/seasons', { realityId: reality.id, year: 2025 });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(error(ADMIN_MESSAGES.realityRequired));
  });

  it('checks an edit’s dates against the stored ones', async () => {
    const admin = await signInAdmin(app, database);
    const reality = await createReality(admin);
    const season = await createSeason(admin, { realityId: reality.id, startDate: '2025-03-01', endDate: '2025-06-01' });
    const res = await admin.call('PATCH', `/api/admin/seasons/${season.id}`, { endDate: '2025-02-01' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(error(ADMIN_MESSAGES.seasonDates));
    const year = await admin.call('PATCH', `/api/admin/seasons/${season.id}`, { year: 3000 });
    expect(year.json()).toEqual(error(ADMIN_MESSAGES.yearRange));
    const cleared = await admin.call('PATCH', `/api/admin/seasons/${season.id}`, { startDate: null, year: 2024 });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json()).toMatchObject({ startDate: null, endDate: '2025-06-01', year: 2024 });
  });

  it('answers 404 Temporada no encontrada for an unknown or deleted season', async () => {
    const admin = await signInAdmin(app, database);
    const reality = await createReality(admin);
    const season = await createSeason(admin, { realityId: reality.id });
    await admin.call('DELETE', `/api/admin/seasons/${season.id}`);
    for (const id of [season.id, '123e4567-e89b-42d3-a456-426614174000']) {
      for (const res of [await admin.call('PATCH', `/api/admin/seasons/${id}`, { active: true }), await admin.call('DELETE', `/api/admin/seasons/${id}`)]) {
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual(error(ADMIN_MESSAGES.seasonNotFound));
      }
    }
  });

  it('activating a season deactivates the others of its reality, not those of other realities', async () => {
    const admin = await signInAdmin(app, database);
    const reality = await createReality(admin);
    const other = await createReality(admin, 'Survivor');
    const s1 = await createSeason(admin, { realityId: reality.id, active: true });
    const s2 = await createSeason(admin, { realityId: reality.id });
    const elsewhere = await createSeason(admin, { realityId: other.id, active: true });

    const res = await admin.call('PATCH', `/api/admin/seasons/${s2.id}`, { active: true });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: s2.id, active: true });
    expect((await seasonRows(reality.id)).map((s) => [s.id, s.active])).toEqual([
      [s1.id, false],
      [s2.id, true],
    ]);
    expect((await seasonRows(other.id))[0]).toMatchObject({ id: elsewhere.id, active: true });

    // A new active season takes over as well.
    const s3 = await createSeason(admin, { realityId: reality.id, active: true });
    expect((await seasonRows(reality.id)).filter((s) => s.active).map((s) => s.id)).toEqual([s3.id]);

    const audit = await auditRows(database);
    expect(audit.filter((a) => a.action === 'season.activate').map((a) => a.entity_id)).toEqual([s2.id]);
    expect(audit.filter((a) => a.action === 'season.deactivate').map((a) => [a.entity_id, a.before?.active, a.after?.active])).toEqual([
      [s1.id, true, false],
      [s2.id, true, false],
    ]);
  });

  it('moving an active season to another reality deactivates that reality’s active one', async () => {
    const admin = await signInAdmin(app, database);
    const a = await createReality(admin, 'A');
    const b = await createReality(admin, 'B');
    const moving = await createSeason(admin, { realityId: a.id, active: true, number: 7 });
    const stay = await createSeason(admin, { realityId: b.id, active: true });
    const res = await admin.call('PATCH', `/api/admin/seasons/${moving.id}`, { realityId: b.id });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ realityId: b.id, realityName: 'B', number: 7, active: true });
    expect((await seasonRows(b.id)).map((s) => [s.id, s.active])).toEqual([
      [stay.id, false],
      [moving.id, true],
    ]);
    const unknown = await admin.call('PATCH', `/api/admin/seasons/${moving.id}`, { realityId: '123e4567-e89b-42d3-a456-426614174000' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual(error(ADMIN_MESSAGES.realityRequired));
  });

  it('of concurrent activations of seasons of one reality, exactly one ends active and none fails', async () => {
    const admin = await signInAdmin(app, database);
    const reality = await createReality(admin);
    const seasons = [];
    for (let i = 0; i < 6; i++) seasons.push(await createSeason(admin, { realityId: reality.id }));
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all([
        ...seasons.map((s) => admin.call('PATCH', `/api/admin/seasons/${s.id}`, { active: true })),
        admin.call('POST', '/api/admin/seasons', { realityId: reality.id, year: 2030, active: true }),
      ]);
      expect(answers.map((a) => a.statusCode)).toEqual([...seasons.map(() => 200), 201]);
      expect((await seasonRows(reality.id)).filter((s) => s.active)).toHaveLength(1);
      await app.resetRateLimits();
    }
  });

  it('lists seasons by year then number, oldest first (spec §7), filtered by reality, without deleted seasons or seasons of deleted realities', async () => {
    const admin = await signInAdmin(app, database);
    const a = await createReality(admin, 'A');
    const b = await createReality(admin, 'B');
    const gone = await createReality(admin, 'Borrado');
    const a1 = await createSeason(admin, { realityId: a.id, year: 2024 });
    const a2 = await createSeason(admin, { realityId: a.id, year: 2025 });
    const a3 = await createSeason(admin, { realityId: a.id, year: 2025 });
    const b1 = await createSeason(admin, { realityId: b.id, year: 2023 });
    const deleted = await createSeason(admin, { realityId: a.id, year: 2026 });
    await createSeason(admin, { realityId: gone.id, year: 2026 });
    await admin.call('DELETE', `/api/admin/seasons/${deleted.id}`);
    await admin.call('DELETE', `/api/admin/realities/${gone.id}`);

    const all = await admin.call('GET', '/api/admin/seasons');
    expect(all.statusCode).toBe(200);
    expect(all.json().seasons.map((s: { id: string }) => s.id)).toEqual([b1.id, a1.id, a2.id, a3.id]);
    const ofA = await admin.call('GET', `/api/admin/seasons?realityId=${a.id}`);
    expect(ofA.json().seasons.map((s: { realityName: string; number: number }) => `${s.realityName} ${s.number}`)).toEqual(['A 1', 'A 2', 'A 3']);
    // The year goes first: a later number of an earlier year comes before.
    const late = await createSeason(admin, { realityId: b.id, number: 9, year: 2022 });
    expect((await admin.call('GET', `/api/admin/seasons?realityId=${b.id}`)).json().seasons.map((s: { id: string }) => s.id)).toEqual([late.id, b1.id]);
  });

  it('soft-deletes a season: deactivated, kept with its polls, audited', async () => {
    const admin = await signInAdmin(app, database);
    const reality = await createReality(admin);
    const season = await createSeason(admin, { realityId: reality.id, active: true });
    const res = await admin.call('DELETE', `/api/admin/seasons/${season.id}`);
    expect(res.statusCode).toBe(204);
    const [row] = await seasonRows(reality.id);
    expect(row).toMatchObject({ id: season.id, active: false, deleted_at: expect.any(String) });
    const [audit] = (await auditRows(database)).filter((a) => a.action === 'season.delete');
    expect(audit).toMatchObject({ admin_id: admin.id, entity_id: season.id, before: expect.objectContaining({ active: true }) });
  });

  it('gives 403 to users and moderators and writes nothing', async () => {
    const admin = await signInAdmin(app, database);
    const reality = await createReality(admin);
    for (const role of ['user', 'moderator'] as const) {
      const caller = await signInAdmin(app, database, role);
      const res = await caller.call('POST', '/api/admin/seasons', { realityId: reality.id, year: 2025 });
      expect(res.statusCode).toBe(403);
    }
    expect(await database.sql`SELECT 1 FROM seasons`).toHaveLength(0);
    expect(await auditRows(database)).toHaveLength(1);
  });
});
