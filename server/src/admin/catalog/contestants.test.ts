// The back-office catalogue, contestants (spec admin-backoffice.md §3–§5), against the real database.
import { describe, expect, it } from 'vitest';
import { ADMIN_MESSAGES } from '@tribuna/contracts/adminRules';
import type { Database } from '@tribuna/drizzle/client';
import { buildPoll, buildSeason, buildUser, buildVotes } from '../../../../test/support/factories.ts';
import type { App } from '../../app.ts';
import { useTestApp } from '../../../../test/support/server/harness.ts';
import { CATALOG_MESSAGES } from './rules.ts';
import { auditRows, signInAdmin, type AdminCaller } from '../../../../test/support/server/catalog.ts';

let app: App;
let database: Database;
useTestApp({}, (ready) => ({ app, database } = ready));

const error = (message: string) => expect.objectContaining({ message });

async function createContestant(admin: AdminCaller, payload: object) {
  const res = await admin.call('POST', '/api/admin/contestants', payload);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ id: string; fullName: string; photoUrl: string | null; status: string; eliminationDate: string | null; finalPosition: number | null }>();
}

const contestantCount = async () => (await database.sql`SELECT 1 FROM contestants`).length;

describe('contestants', () => {
  it('creates an active contestant with a trimmed name, its season and reality, and audits it', async () => {
    const admin = await signInAdmin(app, database);
    const { reality, season } = await buildSeason(database.db);
    const res = await admin.call('POST', '/api/admin/contestants', { seasonId: season.id, fullName: '  Ana Pérez ' });
    expect(res.statusCode).toBe(201);
    const contestant = res.json();
    expect(contestant).toMatchObject({
      seasonId: season.id,
      seasonNumber: 1,
      realityName: reality.name,
      fullName: 'Ana Pérez',
      photoUrl: null,
      status: 'active',
      eliminationDate: null,
      finalPosition: null,
    });
    const audit = await auditRows(database);
    expect(audit).toEqual([expect.objectContaining({ admin_id: admin.id, action: 'contestant.create', entity_id: contestant.id, before: null })]);
    expect(audit[0]!.after).toMatchObject({ fullName: 'Ana Pérez', status: 'active' });
  });

  it.each([
    ['no season', { seasonId: undefined }, ADMIN_MESSAGES.contestantSeasonRequired],
    ['an unselected season', { seasonId: '' }, ADMIN_MESSAGES.contestantSeasonRequired],
    ['an unknown season', { seasonId: '123e4567-e89b-42d3-a456-426614174000' }, ADMIN_MESSAGES.contestantSeasonRequired],
    ['no name', { fullName: undefined }, ADMIN_MESSAGES.contestantNameRequired],
    ['a blank name', { fullName: '   ' }, ADMIN_MESSAGES.contestantNameRequired],
    ['a name over 100 characters', { fullName: 'ñ'.repeat(101) }, CATALOG_MESSAGES.nameTooLong],
    ['a final position of 0', { status: 'finalist', finalPosition: 0 }, ADMIN_MESSAGES.finalPositionInvalid],
    ['a negative final position', { status: 'winner', finalPosition: -2 }, ADMIN_MESSAGES.finalPositionInvalid],
    ['an elimination date that does not exist', { status: 'eliminated', eliminationDate: '2025-04-31' }, CATALOG_MESSAGES.invalidDate],
    ['a javascript: photo', { photoUrl: 'javascript:alert(1)' }, ADMIN_MESSAGES.photoUrlInvalid],
    ['a data: photo', { photoUrl: 'data:image/png;base64,AAAA' }, ADMIN_MESSAGES.photoUrlInvalid],
    ['an http photo', { photoUrl: 'http://example.com/a.jpg' }, ADMIN_MESSAGES.photoUrlInvalid],
    ['a protocol-relative photo', { photoUrl: '//example.com/a.jpg' }, ADMIN_MESSAGES.photoUrlInvalid],
    ['a photo that is no URL', { photoUrl: 'foto de ana' }, ADMIN_MESSAGES.photoUrlInvalid],
    ['a /media/ path climbing out', { photoUrl: '/media/../secret.webp' }, ADMIN_MESSAGES.photoUrlInvalid],
    ['an https URL with credentials', { photoUrl: 'https://user:pass@example.com/a.jpg' }, ADMIN_MESSAGES.photoUrlInvalid],
  ])('refuses %s with its message and writes nothing', async (_case, change, message) => {
    const admin = await signInAdmin(app, database);
    const { season } = await buildSeason(database.db);
    const payload: Record<string, unknown> = { seasonId: season.id, fullName: 'Ana', ...change };
    for (const key of Object.keys(payload)) if (payload[key] === undefined) delete payload[key];
    const res = await admin.call('POST', '/api/admin/contestants', payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(error(message));
    expect(await contestantCount()).toBe(0);
    expect(await auditRows(database)).toEqual([]);
  });

  it('refuses a contestant in a deleted season', async () => {
    const admin = await signInAdmin(app, database);
    const { season } = await buildSeason(database.db);
    expect((await admin.call('DELETE', `/api/admin/seasons/${season.id}`)).statusCode).toBe(204);
    const res = await admin.call('POST', '/api/admin/contestants', { seasonId: season.id, fullName: 'Ana' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(error(ADMIN_MESSAGES.contestantSeasonRequired));
  });

  it.each([
    ['https, any host', 'https://cdn.example.org/fotos/ana.jpg?w=400', 'https://cdn.example.org/fotos/ana.jpg?w=400'],
    ['an uploaded /media/ photo', '/media/ab/cd/abcd1234.webp', '/media/ab/cd/abcd1234.webp'],
    ['a hand-placed /media/ photo', '/media/demo/contestant-ana.webp', '/media/demo/contestant-ana.webp'],
    ['an empty string, as null', '', null],
    ['blanks, as null', '   ', null],
    ['null', null, null],
  ])('accepts a photo URL: %s', async (_case, photoUrl, stored) => {
    const admin = await signInAdmin(app, database);
    const { season } = await buildSeason(database.db);
    expect((await createContestant(admin, { seasonId: season.id, fullName: 'Ana', photoUrl })).photoUrl).toBe(stored);
  });

  it.each([
    ['active', { eliminationDate: null, finalPosition: null }],
    ['eliminated', { eliminationDate: '2025-03-02', finalPosition: null }],
    ['finalist', { eliminationDate: '2025-03-02', finalPosition: 2 }],
    ['winner', { eliminationDate: '2025-03-02', finalPosition: 2 }],
  ] as const)('keeps only the outcome fields of a %s contestant', async (status, expected) => {
    const admin = await signInAdmin(app, database);
    const { season } = await buildSeason(database.db);
    const created = await createContestant(admin, { seasonId: season.id, fullName: 'Ana', status, eliminationDate: '2025-03-02', finalPosition: 2 });
    expect(created).toMatchObject({ status, ...expected });
    const [row] = await database.sql<{ elimination_date: string | null; final_position: number | null }[]>`
      SELECT elimination_date::text, final_position FROM contestants WHERE id = ${created.id}`;
    expect(row).toEqual({ elimination_date: expected.eliminationDate, final_position: expected.finalPosition });
  });

  it('ignores a bad final position where none is kept (an active contestant)', async () => {
    const admin = await signInAdmin(app, database);
    const { season } = await buildSeason(database.db);
    expect(await createContestant(admin, { seasonId: season.id, fullName: 'Ana', status: 'active', finalPosition: -1 })).toMatchObject({ finalPosition: null });
  });

  it('judges an edit’s outcome fields with the status it ends with', async () => {
    const admin = await signInAdmin(app, database);
    const { season } = await buildSeason(database.db);
    const ana = await createContestant(admin, { seasonId: season.id, fullName: 'Ana', status: 'winner', eliminationDate: '2025-05-01', finalPosition: 1 });
    const back = await admin.call('PATCH', `/api/admin/contestants/${ana.id}`, { status: 'active' });
    expect(back.statusCode).toBe(200);
    expect(back.json()).toMatchObject({ status: 'active', eliminationDate: null, finalPosition: null });
    const eliminated = await admin.call('PATCH', `/api/admin/contestants/${ana.id}`, { status: 'eliminated', eliminationDate: '2025-04-01' });
    expect(eliminated.json()).toMatchObject({ status: 'eliminated', eliminationDate: '2025-04-01', finalPosition: null });
    const bad = await admin.call('PATCH', `/api/admin/contestants/${ana.id}`, { status: 'finalist', finalPosition: 0 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual(error(ADMIN_MESSAGES.finalPositionInvalid));
    const finalist = await admin.call('PATCH', `/api/admin/contestants/${ana.id}`, { status: 'finalist', finalPosition: 3 });
    // The elimination date stays: a finalist keeps it.
    expect(finalist.json()).toMatchObject({ status: 'finalist', eliminationDate: '2025-04-01', finalPosition: 3 });
    const renamed = await admin.call('PATCH', `/api/admin/contestants/${ana.id}`, { fullName: ' Ana María ', photoUrl: '' });
    expect(renamed.json()).toMatchObject({ fullName: 'Ana María', photoUrl: null, status: 'finalist', finalPosition: 3 });

    const audit = (await auditRows(database)).filter((a) => a.action === 'contestant.update');
    expect(audit).toHaveLength(4);
    expect(audit[0]).toMatchObject({
      admin_id: admin.id,
      before: expect.objectContaining({ status: 'winner' }),
      after: expect.objectContaining({ status: 'active' }),
    });
  });

  it('refuses bad edits with their messages and leaves the row and audit log alone', async () => {
    const admin = await signInAdmin(app, database);
    const { season } = await buildSeason(database.db);
    const ana = await createContestant(admin, { seasonId: season.id, fullName: 'Ana', photoUrl: 'https://example.com/ana.jpg' });
    for (const [payload, message] of [
      [{ fullName: '' }, ADMIN_MESSAGES.contestantNameRequired],
      [{ photoUrl: 'javascript:alert(1)' }, ADMIN_MESSAGES.photoUrlInvalid],
      [{ seasonId: '123e4567-e89b-42d3-a456-426614174000' }, ADMIN_MESSAGES.contestantSeasonRequired],
    ] as const) {
      const res = await admin.call('PATCH', `/api/admin/contestants/${ana.id}`, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual(error(message));
    }
    const [row] = await database.sql<{ full_name: string; photo_url: string }[]>`SELECT full_name, photo_url FROM contestants WHERE id = ${ana.id}`;
    expect(row).toEqual({ full_name: 'Ana', photo_url: 'https://example.com/ana.jpg' });
    expect((await auditRows(database)).map((a) => a.action)).toEqual(['contestant.create']);
  });

  it('moves a contestant to another season', async () => {
    const admin = await signInAdmin(app, database);
    const { season } = await buildSeason(database.db);
    const other = await buildSeason(database.db);
    const ana = await createContestant(admin, { seasonId: season.id, fullName: 'Ana' });
    const res = await admin.call('PATCH', `/api/admin/contestants/${ana.id}`, { seasonId: other.season.id });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ seasonId: other.season.id, realityName: other.reality.name });
  });

  it('lists all contestants newest first, or one season’s by name, without deleted ones', async () => {
    const admin = await signInAdmin(app, database);
    const { season } = await buildSeason(database.db);
    const other = await buildSeason(database.db);
    const zoe = await createContestant(admin, { seasonId: season.id, fullName: 'Zoe' });
    const ana = await createContestant(admin, { seasonId: season.id, fullName: 'Ana' });
    const luis = await createContestant(admin, { seasonId: other.season.id, fullName: 'Luis' });
    const gone = await createContestant(admin, { seasonId: season.id, fullName: 'Borrado' });
    expect((await admin.call('DELETE', `/api/admin/contestants/${gone.id}`)).statusCode).toBe(204);

    const all = await admin.call('GET', '/api/admin/contestants');
    expect(all.statusCode).toBe(200);
    expect(all.json().contestants.map((c: { id: string }) => c.id)).toEqual([luis.id, ana.id, zoe.id]);
    const ofSeason = await admin.call('GET', `/api/admin/contestants?seasonId=${season.id}`);
    expect(ofSeason.json().contestants.map((c: { fullName: string }) => c.fullName)).toEqual(['Ana', 'Zoe']);

    // A deleted season hides its contestants too.
    await admin.call('DELETE', `/api/admin/seasons/${other.season.id}`);
    expect((await admin.call('GET', '/api/admin/contestants')).json().contestants.map((c: { id: string }) => c.id)).toEqual([ana.id, zoe.id]);
  });

  it('soft-deletes a contestant: 204, hidden, and the poll options and votes naming them stay intact', async () => {
    const admin = await signInAdmin(app, database);
    const { poll, options } = await buildPoll(database.db, { options: 2 });
    const fan = await buildUser(database.db);
    await buildVotes(database.db, [{ pollId: poll.id, optionId: options[0]!.id, userId: fan.id }]);
    const contestantId = options[0]!.contestantId!;

    const res = await admin.call('DELETE', `/api/admin/contestants/${contestantId}`);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    const [row] = await database.sql<{ deleted_at: string | null }[]>`SELECT deleted_at FROM contestants WHERE id = ${contestantId}`;
    expect(row!.deleted_at).not.toBeNull();
    expect(await database.sql`SELECT 1 FROM poll_options WHERE id = ${options[0]!.id} AND contestant_id = ${contestantId}`).toHaveLength(1);
    expect(await database.sql`SELECT 1 FROM votes WHERE option_id = ${options[0]!.id}`).toHaveLength(1);
    // The public poll still names them.
    const publicPoll = await app.inject({ method: 'GET', url: `/api/polls/${poll.id}` });
    expect(publicPoll.statusCode).toBe(200);

    for (const again of [
      await admin.call('DELETE', `/api/admin/contestants/${contestantId}`),
      await admin.call('PATCH', `/api/admin/contestants/${contestantId}`, { fullName: 'X' }),
    ]) {
      expect(again.statusCode).toBe(404);
      expect(again.json()).toEqual(error(ADMIN_MESSAGES.contestantNotFound));
    }
    const audit = await auditRows(database);
    expect(audit).toEqual([expect.objectContaining({ action: 'contestant.delete', entity_id: contestantId, admin_id: admin.id })]);
    expect(audit[0]!.before).toMatchObject({ deletedAt: null });
    expect(audit[0]!.after!.deletedAt).toEqual(expect.any(String));
  });

  it('gives 403 to users and moderators and writes nothing', async () => {
    const { season } = await buildSeason(database.db);
    for (const role of ['user', 'moderator'] as const) {
      const caller = await signInAdmin(app, database, role);
      expect((await caller.call('POST', '/api/admin/contestants', { seasonId: season.id, fullName: 'Ana' })).statusCode).toBe(403);
      expect((await caller.call('GET', '/api/admin/contestants')).statusCode).toBe(403);
    }
    expect(await contestantCount()).toBe(0);
    expect(await auditRows(database)).toEqual([]);
  });
});
