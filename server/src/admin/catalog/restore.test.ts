// 'Mostrar eliminados' and Restaurar of the back-office catalogue: deleted realities, seasons and
// contestants listed on request, and their soft delete undone (spec admin-backoffice.md §4: delete is a soft
// deactivate), against the real database.
import { describe, expect, it } from 'vitest';
import { ADMIN_MESSAGES } from '@tribuna/contracts/adminRules';
import type { ContestantView, RealityView, SeasonView } from '@tribuna/contracts/api/admin/catalog';
import type { Database } from '@tribuna/drizzle/client';
import type { App } from '../../app.ts';
import { useTestApp } from '../../../../test/support/server/harness.ts';
import { auditRows, signInAdmin, type AdminCaller } from '../../../../test/support/server/catalog.ts';

let app: App;
let database: Database;
useTestApp({}, (ready) => ({ app, database } = ready));

const UNKNOWN = '123e4567-e89b-42d3-a456-426614174000';
const error = (message: string) => expect.objectContaining({ message });

async function createReality(admin: AdminCaller, name = 'Gran Hermano') {
  const res = await admin.call('POST', '/api/admin/realities', { name });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<RealityView>();
}

async function createSeason(admin: AdminCaller, payload: object) {
  const res = await admin.call('POST', '/api/admin/seasons', { year: 2025, ...payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<SeasonView>();
}

async function remove(admin: AdminCaller, url: string) {
  const res = await admin.call('DELETE', url);
  expect(res.statusCode, res.body).toBe(204);
}

const realitiesOf = async (admin: AdminCaller, query = '') =>
  (await admin.call('GET', `/api/admin/realities${query}`)).json<{ realities: RealityView[] }>().realities;
const seasonsOf = async (admin: AdminCaller, query = '') => (await admin.call('GET', `/api/admin/seasons${query}`)).json<{ seasons: SeasonView[] }>().seasons;

describe('Mostrar eliminados', () => {
  it('lists deleted realities only when asked, marked by deletedAt, by name among the others', async () => {
    const admin = await signInAdmin(app, database);
    const survivor = await createReality(admin, 'Survivor');
    const gone = await createReality(admin, 'Borrado');
    await remove(admin, `/api/admin/realities/${gone.id}`);

    expect((await realitiesOf(admin)).map((r) => r.id)).toEqual([survivor.id]);
    expect((await realitiesOf(admin, '?includeDeleted=false')).map((r) => r.id)).toEqual([survivor.id]);
    const all = await realitiesOf(admin, '?includeDeleted=true');
    expect(all.map((r) => [r.name, r.active, r.deletedAt === null])).toEqual([
      ['Borrado', false, false],
      ['Survivor', true, true],
    ]);
    expect(Date.parse(all[0]!.deletedAt!)).not.toBeNaN();
  });

  it('lists deleted seasons and the seasons of deleted realities only when asked, each marked, in the same order', async () => {
    const admin = await signInAdmin(app, database);
    const casa = await createReality(admin, 'La Casa');
    const isla = await createReality(admin, 'La Isla');
    const kept = await createSeason(admin, { realityId: casa.id, year: 2024 });
    const deleted = await createSeason(admin, { realityId: casa.id, year: 2025 });
    const ofDeletedReality = await createSeason(admin, { realityId: isla.id, year: 2023 });
    await remove(admin, `/api/admin/seasons/${deleted.id}`);
    await remove(admin, `/api/admin/realities/${isla.id}`);

    expect((await seasonsOf(admin)).map((s) => s.id)).toEqual([kept.id]);
    const all = await seasonsOf(admin, '?includeDeleted=true');
    expect(all.map((s) => [s.id, s.deletedAt === null ? 'live' : 'deleted', s.realityDeleted])).toEqual([
      [ofDeletedReality.id, 'live', true],
      [kept.id, 'live', false],
      [deleted.id, 'deleted', false],
    ]);
    const ofCasa = await seasonsOf(admin, `?realityId=${casa.id}&includeDeleted=true`);
    expect(ofCasa.map((s) => s.id)).toEqual([kept.id, deleted.id]);
  });

  it('refuses a malformed includeDeleted with 400', async () => {
    const admin = await signInAdmin(app, database);
    for (const url of ['/api/admin/realities?includeDeleted=quizá', '/api/admin/seasons?includeDeleted=2']) {
      const res = await admin.call('GET', url);
      expect(res.statusCode, url).toBe(400);
    }
  });

  it('is for admins only: users and moderators get 403', async () => {
    for (const role of ['user', 'moderator'] as const) {
      const caller = await signInAdmin(app, database, role);
      for (const url of ['/api/admin/realities?includeDeleted=true', '/api/admin/seasons?includeDeleted=true']) {
        expect((await caller.call('GET', url)).statusCode).toBe(403);
      }
    }
  });
});

describe('restoring a reality', () => {
  it('lists it again, inactive, with its seasons that were not deleted on their own, and audits it', async () => {
    const admin = await signInAdmin(app, database);
    const reality = await createReality(admin);
    const active = await createSeason(admin, { realityId: reality.id, active: true });
    const deletedBefore = await createSeason(admin, { realityId: reality.id });
    await remove(admin, `/api/admin/seasons/${deletedBefore.id}`);
    await remove(admin, `/api/admin/realities/${reality.id}`);

    const res = await admin.call('POST', `/api/admin/realities/${reality.id}/restore`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: reality.id, name: 'Gran Hermano', active: false, deletedAt: null, seasonCount: 1 });
    expect((await realitiesOf(admin)).map((r) => r.id)).toEqual([reality.id]);
    // The season deleted on its own stays deleted; the other is back as it was.
    expect((await seasonsOf(admin)).map((s) => [s.id, s.active])).toEqual([[active.id, true]]);

    const audit = (await auditRows(database)).filter((a) => a.action === 'reality.restore');
    expect(audit).toEqual([expect.objectContaining({ admin_id: admin.id, entity_type: 'reality', entity_id: reality.id })]);
    expect(audit[0]!.before).toMatchObject({ deletedAt: expect.any(String), active: false });
    expect(audit[0]!.after).toMatchObject({ deletedAt: null, active: false });
  });

  it('refuses a reality that is not deleted (409) or does not exist (404), writing nothing', async () => {
    const admin = await signInAdmin(app, database);
    const reality = await createReality(admin);
    const before = await auditRows(database);
    const live = await admin.call('POST', `/api/admin/realities/${reality.id}/restore`);
    expect(live.statusCode).toBe(409);
    expect(live.json()).toEqual(error(ADMIN_MESSAGES.realityNotDeleted));
    const unknown = await admin.call('POST', `/api/admin/realities/${UNKNOWN}/restore`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual(error(ADMIN_MESSAGES.realityNotFound));
    expect(await auditRows(database)).toEqual(before);
  });

  it('of two restores of one reality, one succeeds and the other is told it is not deleted', async () => {
    const admin = await signInAdmin(app, database);
    const reality = await createReality(admin);
    await remove(admin, `/api/admin/realities/${reality.id}`);
    const answers = await Promise.all([1, 2].map(() => admin.call('POST', `/api/admin/realities/${reality.id}/restore`)));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    expect((await auditRows(database)).filter((a) => a.action === 'reality.restore')).toHaveLength(1);
  });
});

describe('restoring a season', () => {
  it('lists it again, inactive even if it was active, and audits it', async () => {
    const admin = await signInAdmin(app, database);
    const reality = await createReality(admin);
    const season = await createSeason(admin, { realityId: reality.id, active: true, startDate: '2025-01-01' });
    await remove(admin, `/api/admin/seasons/${season.id}`);

    const res = await admin.call('POST', `/api/admin/seasons/${season.id}/restore`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id: season.id, number: 1, startDate: '2025-01-01', active: false, deletedAt: null, realityDeleted: false });
    expect((await seasonsOf(admin)).map((s) => s.id)).toEqual([season.id]);

    const audit = (await auditRows(database)).filter((a) => a.action === 'season.restore');
    expect(audit).toEqual([expect.objectContaining({ admin_id: admin.id, entity_type: 'season', entity_id: season.id })]);
    expect(audit[0]!.before).toMatchObject({ deletedAt: expect.any(String), active: false });
    expect(audit[0]!.after).toMatchObject({ deletedAt: null, active: false });
  });

  it('never makes a second active season: the reality’s active one stays the only one', async () => {
    const admin = await signInAdmin(app, database);
    const reality = await createReality(admin);
    const old = await createSeason(admin, { realityId: reality.id, active: true });
    await remove(admin, `/api/admin/seasons/${old.id}`);
    const current = await createSeason(admin, { realityId: reality.id, active: true });

    expect((await admin.call('POST', `/api/admin/seasons/${old.id}/restore`)).statusCode).toBe(200);
    const rows = await database.sql<{ id: string; active: boolean }[]>`SELECT id, active FROM seasons WHERE reality_id = ${reality.id} ORDER BY number`;
    expect(rows.map((r) => [r.id, r.active])).toEqual([
      [old.id, false],
      [current.id, true],
    ]);
    // Activating it afterwards follows the usual rule.
    expect((await admin.call('PATCH', `/api/admin/seasons/${old.id}`, { active: true })).statusCode).toBe(200);
    expect((await seasonsOf(admin)).filter((s) => s.active).map((s) => s.id)).toEqual([old.id]);
  });

  it('refuses a season whose reality is deleted (409, restore the reality first), then restores it once the reality is back', async () => {
    const admin = await signInAdmin(app, database);
    const reality = await createReality(admin);
    const season = await createSeason(admin, { realityId: reality.id });
    await remove(admin, `/api/admin/seasons/${season.id}`);
    await remove(admin, `/api/admin/realities/${reality.id}`);
    const before = await auditRows(database);

    const refused = await admin.call('POST', `/api/admin/seasons/${season.id}/restore`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual(error(ADMIN_MESSAGES.seasonRealityDeleted));
    expect(await auditRows(database)).toEqual(before);
    const [row] = await database.sql<{ deleted_at: Date | null }[]>`SELECT deleted_at FROM seasons WHERE id = ${season.id}`;
    expect(row!.deleted_at).not.toBeNull();

    expect((await admin.call('POST', `/api/admin/realities/${reality.id}/restore`)).statusCode).toBe(200);
    const restored = await admin.call('POST', `/api/admin/seasons/${season.id}/restore`);
    expect(restored.statusCode).toBe(200);
    expect(restored.json()).toMatchObject({ id: season.id, realityDeleted: false, deletedAt: null });
  });

  it('refuses a season that is not deleted (409) or does not exist (404), writing nothing', async () => {
    const admin = await signInAdmin(app, database);
    const reality = await createReality(admin);
    const season = await createSeason(admin, { realityId: reality.id, active: true });
    const before = await auditRows(database);
    const live = await admin.call('POST', `/api/admin/seasons/${season.id}/restore`);
    expect(live.statusCode).toBe(409);
    expect(live.json()).toEqual(error(ADMIN_MESSAGES.seasonNotDeleted));
    const unknown = await admin.call('POST', `/api/admin/seasons/${UNKNOWN}/restore`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual(error(ADMIN_MESSAGES.seasonNotFound));
    const malformed = await admin.call('POST', '/api/admin/seasons/not-a-uuid/restore');
    expect(malformed.statusCode).toBe(400);
    expect(await auditRows(database)).toEqual(before);
    expect((await seasonsOf(admin)).map((s) => [s.id, s.active])).toEqual([[season.id, true]]);
  });

  it('gives 403 to users and moderators and restores nothing', async () => {
    const admin = await signInAdmin(app, database);
    const reality = await createReality(admin);
    const season = await createSeason(admin, { realityId: reality.id });
    await remove(admin, `/api/admin/seasons/${season.id}`);
    for (const role of ['user', 'moderator'] as const) {
      const caller = await signInAdmin(app, database, role);
      expect((await caller.call('POST', `/api/admin/seasons/${season.id}/restore`)).statusCode).toBe(403);
    }
    expect(await seasonsOf(admin)).toEqual([]);
  });
});

describe('contestants: Mostrar eliminados and restoring', () => {
  async function createContestant(admin: AdminCaller, seasonId: string, fullName: string, extra: object = {}) {
    const res = await admin.call('POST', '/api/admin/contestants', { seasonId, fullName, ...extra });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<ContestantView>();
  }
  const contestantsOf = async (admin: AdminCaller, query = '') =>
    (await admin.call('GET', `/api/admin/contestants${query}`)).json<{ contestants: ContestantView[] }>().contestants;

  it('lists deleted contestants and those of deleted seasons only when asked, each marked', async () => {
    const admin = await signInAdmin(app, database);
    const reality = await createReality(admin);
    const season = await createSeason(admin, { realityId: reality.id });
    const goneSeason = await createSeason(admin, { realityId: reality.id });
    const ana = await createContestant(admin, season.id, 'Ana');
    const beto = await createContestant(admin, season.id, 'Beto');
    const carla = await createContestant(admin, goneSeason.id, 'Carla');
    await remove(admin, `/api/admin/contestants/${beto.id}`);
    await remove(admin, `/api/admin/seasons/${goneSeason.id}`);

    expect((await contestantsOf(admin)).map((c) => c.fullName)).toEqual(['Ana']);
    const all = await contestantsOf(admin, '?includeDeleted=true');
    expect(all.map((c) => [c.fullName, c.deletedAt === null ? 'live' : 'deleted', c.seasonDeleted])).toEqual([
      ['Carla', 'live', true],
      ['Beto', 'deleted', false],
      ['Ana', 'live', false],
    ]);
    expect((await contestantsOf(admin, `?seasonId=${season.id}&includeDeleted=true`)).map((c) => c.id)).toEqual([ana.id, beto.id]);
    expect(carla.seasonDeleted).toBe(false);
  });

  it('restores a deleted contestant as it was, and audits it', async () => {
    const admin = await signInAdmin(app, database);
    const reality = await createReality(admin);
    const season = await createSeason(admin, { realityId: reality.id });
    const ana = await createContestant(admin, season.id, 'Ana', { status: 'finalist', finalPosition: 2, eliminationDate: '2025-03-01' });
    await remove(admin, `/api/admin/contestants/${ana.id}`);

    const res = await admin.call('POST', `/api/admin/contestants/${ana.id}/restore`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      id: ana.id,
      fullName: 'Ana',
      status: 'finalist',
      finalPosition: 2,
      eliminationDate: '2025-03-01',
      deletedAt: null,
      seasonDeleted: false,
    });
    expect((await contestantsOf(admin)).map((c) => c.id)).toEqual([ana.id]);
    const audit = (await auditRows(database)).filter((a) => a.action === 'contestant.restore');
    expect(audit).toEqual([expect.objectContaining({ admin_id: admin.id, entity_type: 'contestant', entity_id: ana.id })]);
    expect(audit[0]!.before).toMatchObject({ deletedAt: expect.any(String) });
    expect(audit[0]!.after).toMatchObject({ deletedAt: null });
  });

  it('refuses a contestant whose season is deleted (409), one not deleted (409) or unknown (404), writing nothing', async () => {
    const admin = await signInAdmin(app, database);
    const reality = await createReality(admin);
    const season = await createSeason(admin, { realityId: reality.id });
    const ana = await createContestant(admin, season.id, 'Ana');
    const beto = await createContestant(admin, season.id, 'Beto');
    await remove(admin, `/api/admin/contestants/${ana.id}`);
    await remove(admin, `/api/admin/seasons/${season.id}`);
    const before = await auditRows(database);

    const ofDeletedSeason = await admin.call('POST', `/api/admin/contestants/${ana.id}/restore`);
    expect(ofDeletedSeason.statusCode).toBe(409);
    expect(ofDeletedSeason.json()).toEqual(error(ADMIN_MESSAGES.contestantSeasonDeleted));
    const live = await admin.call('POST', `/api/admin/contestants/${beto.id}/restore`);
    expect(live.statusCode).toBe(409);
    expect(live.json()).toEqual(error(ADMIN_MESSAGES.contestantNotDeleted));
    const unknown = await admin.call('POST', `/api/admin/contestants/${UNKNOWN}/restore`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual(error(ADMIN_MESSAGES.contestantNotFound));
    expect(await auditRows(database)).toEqual(before);

    // Once the season is back, so can the contestant be.
    expect((await admin.call('POST', `/api/admin/seasons/${season.id}/restore`)).statusCode).toBe(200);
    expect((await admin.call('POST', `/api/admin/contestants/${ana.id}/restore`)).statusCode).toBe(200);
  });

  it('gives 403 to users and moderators and restores nothing', async () => {
    const admin = await signInAdmin(app, database);
    const reality = await createReality(admin);
    const season = await createSeason(admin, { realityId: reality.id });
    const ana = await createContestant(admin, season.id, 'Ana');
    await remove(admin, `/api/admin/contestants/${ana.id}`);
    for (const role of ['user', 'moderator'] as const) {
      const caller = await signInAdmin(app, database, role);
      expect((await caller.call('POST', `/api/admin/contestants/${ana.id}/restore`)).statusCode).toBe(403);
      expect((await caller.call('GET', '/api/admin/contestants?includeDeleted=true')).statusCode).toBe(403);
    }
    expect(await contestantsOf(admin)).toEqual([]);
  });
});
