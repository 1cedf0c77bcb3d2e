// A suspension made through one server instance stops the user's writes on another one at once:
// the sessions it revoked leave that instance's cache when the commit's NOTIFY arrives, and a new
// sign-in is refused writing from its first request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@tribuna/drizzle/client';
import { testConfig } from '../../../../test/support/env.ts';
import { buildPoll, buildUser } from '../../../../test/support/factories.ts';
import { buildApp, type App } from '../../app.ts';
import { useTestApp } from '../../../../test/support/server/harness.ts';
import { multipart } from '../../../../test/support/server/multipart.ts';
import { asUser, signIn } from '../../../../test/support/server/sessions.ts';

const SUSPENDED = 'Tu cuenta está suspendida. No puedes realizar esta acción.';
/**
 * Well under the session cache's TTL (60 s), so a refusal within it comes from the invalidation,
 * with room for a slow machine (the NOTIFY usually lands within milliseconds).
 */
const PROMPTLY_MS = 10_000;

describe('suspension across server instances', () => {
  let a: App;
  let database: Database;
  useTestApp({}, (ready) => ({ app: a, database } = ready));

  /** The other instance: same database, same Redis prefix, its own session cache. */
  let b: App;
  beforeAll(async () => {
    b = await buildApp(testConfig());
  });
  afterAll(async () => {
    await b?.close();
  });

  const vote = (app: App, headers: Record<string, string>, poll: Awaited<ReturnType<typeof buildPoll>>, option = 0) =>
    app.inject({
      method: 'POST',
      url: `/api/polls/${poll.poll.id}/votes`,
      headers,
      payload: { optionId: poll.options[option]!.id, deviceFingerprint: 'device-fingerprint-1' },
    });
  const post = (app: App, headers: Record<string, string>) => {
    const body = multipart([{ name: 'content', value: 'Hola muro' }]);
    return app.inject({ method: 'POST', url: '/api/posts', headers: { ...headers, ...body.headers }, payload: body.payload });
  };

  it("refuses the user's next vote and post on the other instance", async () => {
    const admin = await buildUser(database.db, { role: 'admin' });
    const fan = await buildUser(database.db);
    const poll = await buildPoll(database.db);
    const fanHeaders = asUser(await signIn(b, fan));
    // The fan writes through b (its session now cached there).
    const before = await vote(b, fanHeaders, poll);
    expect(before.statusCode, before.body).toBeLessThan(300);
    expect((await post(b, fanHeaders)).statusCode).toBe(201);

    const suspended = await a.inject({ method: 'POST', url: `/api/admin/users/${fan.id}/suspend`, headers: asUser(await signIn(a, admin)) });
    expect(suspended.statusCode).toBe(200);
    const at = Date.now();

    // The revoked session: refused by b as soon as the commit's notification arrived.
    let answer = await vote(b, fanHeaders, poll, 1);
    while (answer.statusCode < 300 && Date.now() - at < PROMPTLY_MS) {
      await new Promise((r) => setTimeout(r, 10));
      answer = await vote(b, fanHeaders, poll, 1);
    }
    expect(answer.statusCode).toBe(401);
    expect(Date.now() - at).toBeLessThan(PROMPTLY_MS);
    expect((await post(b, fanHeaders)).statusCode).toBe(401);

    // Signing in again works, but writing is refused on both instances from the first request.
    const again = asUser(await signIn(b, fan));
    for (const app of [b, a]) {
      const refusedVote = await vote(app, again, poll, 1);
      expect(refusedVote.statusCode).toBe(403);
      expect(refusedVote.json().message).toBe(SUSPENDED);
      const refusedPost = await post(app, again);
      expect(refusedPost.statusCode).toBe(403);
      expect(refusedPost.json().message).toBe(SUSPENDED);
    }
    const [posts] = await database.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM posts WHERE user_id = ${fan.id}`;
    expect(posts!.n).toBe(1);
  });
});
