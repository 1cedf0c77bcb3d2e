// Two server instances on one database, each with its own session cache (separate processes): a
// sign-out or a suspension made through one is refused by the other well before its cache TTL.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@tribuna/drizzle/client';
import { testEnv } from '../../../../test/support/env.ts';
import { buildUser } from '../../../../test/support/factories.ts';
import type { App } from '../../app.ts';
import { REPO_ROOT } from '../../paths.ts';
import { useTestApp } from '../../../../test/support/server/harness.ts';
import { signIn, XHR } from '../../../../test/support/server/sessions.ts';
import { SESSION_CACHE_TTL_MS } from './cache.ts';

/** Well under the cache TTL: a refusal within it comes from an eviction, not from expiry. */
const PROMPTLY_MS = 10_000;

async function waitFor(condition: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + PROMPTLY_MS;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${PROMPTLY_MS} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('session invalidation across server instances', () => {
  let app: App;
  let database: Database;
  useTestApp({}, (ready) => ({ app, database } = ready));

  /** The other instance: the real server (server/src/main.ts) in its own process. */
  let other: ChildProcess;
  let otherUrl: string;
  beforeAll(async () => {
    // node itself (not the tsx wrapper, which runs the server in a grandchild that SIGKILL would orphan).
    other = spawn(process.execPath, ['--import', 'tsx', join(REPO_ROOT, 'server', 'src', 'main.ts')], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...testEnv({ PORT: '0', LOG_LEVEL: 'info' }) },
    });
    let out = '';
    otherUrl = await new Promise<string>((resolve, reject) => {
      other.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
        if (match) resolve(match[1]!);
      });
      other.on('exit', (code) => reject(new Error(`the other instance exited (${code}): ${out}`)));
    });
  }, 60_000);
  afterAll(() => {
    other?.kill('SIGKILL');
  });

  const meThere = async (cookie: string) => (await fetch(`${otherUrl}/api/me`, { headers: { cookie } })).status;

  it('refuses there a session signed out here', async () => {
    expect(SESSION_CACHE_TTL_MS).toBeGreaterThan(PROMPTLY_MS);
    const user = await buildUser(database.db);
    const { cookie } = await signIn(app, user);
    expect(await meThere(cookie)).toBe(200); // now cached there

    expect((await app.inject({ method: 'POST', url: '/auth/logout', headers: { cookie, ...XHR } })).statusCode).toBe(204);
    await waitFor(async () => (await meThere(cookie)) === 401, 'signed-out session refused by the other instance');
  });

  it('refuses there the sessions of a user suspended here', async () => {
    const admin = await buildUser(database.db, { role: 'admin' });
    const adminCookie = (await signIn(app, admin)).cookie;
    const user = await buildUser(database.db);
    const first = await signIn(app, user);
    const second = await signIn(app, user);
    expect(await meThere(first.cookie)).toBe(200);
    expect(await meThere(second.cookie)).toBe(200);

    const res = await app.inject({ method: 'POST', url: `/api/admin/users/${user.id}/suspend`, headers: { cookie: adminCookie, ...XHR } });
    expect(res.statusCode).toBe(200);
    await waitFor(async () => (await meThere(first.cookie)) === 401 && (await meThere(second.cookie)) === 401, 'suspended user refused there');
    // The admin's own session is untouched.
    expect(await meThere(adminCookie)).toBe(200);
  });

  it('refuses here a session signed out there', async () => {
    const user = await buildUser(database.db);
    const { cookie } = await signIn(app, user);
    expect((await app.inject({ method: 'GET', url: '/api/me', headers: { cookie } })).statusCode).toBe(200);

    const res = await fetch(`${otherUrl}/auth/logout`, { method: 'POST', headers: { cookie, ...XHR } });
    expect(res.status).toBe(204);
    await waitFor(async () => (await app.inject({ method: 'GET', url: '/api/me', headers: { cookie } })).statusCode === 401, 'signed-out session refused here');
  });
});
