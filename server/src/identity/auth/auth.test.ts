import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '@tribuna/drizzle';
import type { Database } from '@tribuna/drizzle/client';
import { testConfig } from '../../../../test/support/env.ts';
import { buildUser } from '../../../../test/support/factories.ts';
import { buildApp, type App } from '../../app.ts';
import { asUser, sessionCookieOf, signIn } from '../../../../test/support/server/sessions.ts';
import { useTestApp } from '../../../../test/support/server/harness.ts';

describe('GET /api/me without a session', () => {
  let app: App;
  beforeAll(async () => {
    app = await buildApp(testConfig());
  });
  afterAll(async () => {
    await app.close();
  });

  it('answers 401 User not authenticated', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/me' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ statusCode: 401, error: 'Unauthorized', message: 'User not authenticated' });
  });
});

describe('DELETE /api/me (account deletion)', () => {
  let app: App;
  let database: Database;
  useTestApp({}, (ready) => ({ app, database } = ready));

  async function userWithEverything() {
    const user = await buildUser(database.db, {
      displayName: 'Ana López',
      bio: 'Fan del reality',
      avatarUrl: 'https://lh3.googleusercontent.com/a/ana.jpg',
      bannerUrl: 'https://lh3.googleusercontent.com/a/banner.jpg',
      totalPoints: 40,
    });
    await database.db.insert(schema.accounts).values({
      userId: user.id,
      email: 'ana@example.com',
      emailVerified: true,
      oidcIssuer: 'https://accounts.google.com',
      oidcSubject: 'ana-sub',
    });
    await database.db.insert(schema.authFactors).values({ userId: user.id, secret: 'JBSWY3DPEHPK3PXP', status: 'verified' });
    const post = await database.db.insert(schema.posts).values({ userId: user.id, content: 'Mi opinión' }).returning();
    return { user, post: post[0]! };
  }

  const remove = (headers: Record<string, string>, payload: unknown) => app.inject({ method: 'DELETE', url: '/api/me', headers, payload: payload as object });

  it('anonymises the profile, forgets the account, revokes every session and clears the cookie', async () => {
    const { user, post } = await userWithEverything();
    const here = await signIn(app, user);
    const elsewhere = await signIn(app, user);

    const res = await remove(asUser(here), { confirm: 'ELIMINAR' });
    expect(res.statusCode).toBe(204);
    expect(sessionCookieOf(res)?.value).toBe('');

    const [profile] = await database.db.select().from(schema.profiles).where(eq(schema.profiles.id, user.id));
    expect(profile).toMatchObject({
      displayName: 'Usuario eliminado',
      username: null,
      avatarUrl: null,
      bannerUrl: null,
      bio: null,
      isSuspended: true,
    });
    expect(await database.db.select().from(schema.accounts)).toHaveLength(0);
    expect(await database.db.select().from(schema.authFactors)).toHaveLength(0);
    // Posts stay, without the name.
    expect(await database.db.select().from(schema.posts).where(eq(schema.posts.id, post.id))).toHaveLength(1);

    for (const session of [here, elsewhere]) {
      expect((await app.inject({ method: 'GET', url: '/api/me', headers: { cookie: session.cookie } })).statusCode).toBe(401);
    }
  });

  it.each([['eliminar'], ['BORRAR'], ['']])('refuses the confirmation %j with the Spanish message', async (confirm) => {
    const { user } = await userWithEverything();
    const session = await signIn(app, user);
    const res = await remove(asUser(session), { confirm });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Debes escribir "ELIMINAR" para confirmar');
    const [profile] = await database.db.select().from(schema.profiles).where(eq(schema.profiles.id, user.id));
    expect(profile!.displayName).toBe('Ana López');
    expect((await app.inject({ method: 'GET', url: '/api/me', headers: { cookie: session.cookie } })).statusCode).toBe(200);
  });

  it('answers 401 to a visitor', async () => {
    const res = await remove({ 'x-requested-with': 'tribuna' }, { confirm: 'ELIMINAR' });
    expect(res.statusCode).toBe(401);
  });
});
