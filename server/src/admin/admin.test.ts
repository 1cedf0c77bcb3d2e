// Roles on the server: the admin guard of /api/admin/*, suspension, REQUIRE_ADMIN_MFA.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { schema } from '@tribuna/drizzle';
import type { Database } from '@tribuna/drizzle/client';
import { buildUser } from '../../../test/support/factories.ts';
import type { App } from '../app.ts';
import { hasRole } from '../identity/plugin.ts';
import { asUser, signIn, XHR } from '../../../test/support/server/sessions.ts';
import { useTestApp } from '../../../test/support/server/harness.ts';

describe('role rule', () => {
  it('admin passes any requirement, moderator only a moderator requirement', () => {
    expect(hasRole('admin', 'admin')).toBe(true);
    expect(hasRole('admin', 'moderator')).toBe(true);
    expect(hasRole('admin', 'user')).toBe(true);
    expect(hasRole('moderator', 'moderator')).toBe(true);
    expect(hasRole('moderator', 'admin')).toBe(false);
    expect(hasRole('user', 'moderator')).toBe(false);
    expect(hasRole('user', 'admin')).toBe(false);
  });
});

describe('/api/admin/*', () => {
  let app: App;
  let database: Database;
  useTestApp({}, (ready) => ({ app, database } = ready));

  const suspend = (userId: string, headers: Record<string, string>) => app.inject({ method: 'POST', url: `/api/admin/users/${userId}/suspend`, headers });
  const me = (cookie: string) => app.inject({ method: 'GET', url: '/api/me', headers: { cookie } });

  it('answers 401 to a visitor', async () => {
    const target = await buildUser(database.db);
    const res = await suspend(target.id, XHR);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ statusCode: 401, error: 'Unauthorized', message: 'User not authenticated' });
  });

  it.each(['user', 'moderator'] as const)('answers 403 Unauthorized to a %s', async (role) => {
    const caller = await buildUser(database.db, { role });
    const target = await buildUser(database.db);
    const res = await suspend(target.id, asUser(await signIn(app, caller)));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ statusCode: 403, error: 'Forbidden', message: 'Unauthorized' });
    const [row] = await database.db.select().from(schema.profiles).where(eq(schema.profiles.id, target.id));
    expect(row!.isSuspended).toBe(false);
  });

  it('treats an admin whose sign-in still owes the second factor as signed out', async () => {
    const admin = await buildUser(database.db, { role: 'admin' });
    const target = await buildUser(database.db);
    const res = await suspend(target.id, asUser(await signIn(app, admin, { mfaPending: true })));
    expect(res.statusCode).toBe(401);
  });

  it('lets an admin suspend a user: every session of that user stops working at once', async () => {
    const admin = await buildUser(database.db, { role: 'admin' });
    const target = await buildUser(database.db);
    const phone = await signIn(app, target);
    const laptop = await signIn(app, target);
    expect((await me(phone.cookie)).statusCode).toBe(200);

    const res = await suspend(target.id, asUser(await signIn(app, admin)));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: target.id, isSuspended: true });

    expect((await me(phone.cookie)).statusCode).toBe(401);
    expect((await me(laptop.cookie)).statusCode).toBe(401);
    const sessions = await database.db.select().from(schema.sessions).where(eq(schema.sessions.userId, target.id));
    expect(sessions.every((s) => s.revokedAt !== null)).toBe(true);
  });

  it('lifts a suspension', async () => {
    const admin = await buildUser(database.db, { role: 'admin' });
    const target = await buildUser(database.db, { isSuspended: true });
    const res = await app.inject({
      method: 'POST',
      url: `/api/admin/users/${target.id}/unsuspend`,
      headers: asUser(await signIn(app, admin)),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: target.id, isSuspended: false });
  });

  it('refuses an admin suspending their own account with the Spanish message', async () => {
    const admin = await buildUser(database.db, { role: 'admin' });
    const session = await signIn(app, admin);
    const res = await suspend(admin.id, asUser(session));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('No puedes suspender tu propia cuenta');
    expect((await me(session.cookie)).statusCode).toBe(200);
  });

  it('answers 404 for an unknown user and 400 for a malformed id', async () => {
    const admin = await buildUser(database.db, { role: 'admin' });
    const headers = asUser(await signIn(app, admin));
    const unknown = await suspend('123e4567-e89b-42d3-a456-426614174000', headers);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Usuario no encontrado');
    expect((await suspend('not-a-uuid', headers)).statusCode).toBe(400);
  });

  it('refuses a suspended admin with the Spanish suspension message', async () => {
    const admin = await buildUser(database.db, { role: 'admin', isSuspended: true });
    const target = await buildUser(database.db);
    const res = await suspend(target.id, asUser(await signIn(app, admin)));
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Tu cuenta está suspendida. No puedes realizar esta acción.');
  });

  it('checks the role before anything else: a user gets 403 even for a malformed id', async () => {
    const user = await buildUser(database.db);
    const res = await suspend('not-a-uuid', asUser(await signIn(app, user)));
    expect(res.statusCode).toBe(403);
  });

  it('lists the admin routes in the OpenAPI document under the admin tag', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    expect(doc.paths['/api/admin/users/{userId}/suspend'].post.tags).toEqual(['admin']);
    expect(doc.paths['/api/admin/users/{userId}/unsuspend'].post.tags).toEqual(['admin']);
  });
});

describe('/api/admin/* with REQUIRE_ADMIN_MFA', () => {
  let app: App;
  let database: Database;
  useTestApp({ REQUIRE_ADMIN_MFA: '1' }, (ready) => ({ app, database } = ready));

  const unsuspend = (userId: string, headers: Record<string, string>) => app.inject({ method: 'POST', url: `/api/admin/users/${userId}/unsuspend`, headers });

  it('refuses an admin session not verified with a second factor', async () => {
    const admin = await buildUser(database.db, { role: 'admin' });
    const target = await buildUser(database.db);
    const res = await unsuspend(target.id, asUser(await signIn(app, admin, { level: 'aal1' })));
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Se requiere verificación en dos pasos para administradores');
  });

  it('lets an aal2 admin session through', async () => {
    const admin = await buildUser(database.db, { role: 'admin' });
    const target = await buildUser(database.db);
    const res = await unsuspend(target.id, asUser(await signIn(app, admin, { level: 'aal2' })));
    expect(res.statusCode).toBe(200);
  });

  it('still answers 403 Unauthorized to a non-admin, even at aal2', async () => {
    const user = await buildUser(database.db);
    const target = await buildUser(database.db);
    const res = await unsuspend(target.id, asUser(await signIn(app, user, { level: 'aal2' })));
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Unauthorized');
  });
});
