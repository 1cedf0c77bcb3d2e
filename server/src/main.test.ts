import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { schema } from '@tribuna/drizzle';
import { testDatabase, truncateAll } from '../../test/support/db.ts';
import { testConfig, testEnv } from '../../test/support/env.ts';
import { buildUser } from '../../test/support/factories.ts';
import { factorSecretAad, SecretBox } from './identity/factors/secretBox.ts';
import { REPO_ROOT } from './paths.ts';

const TSX = join(REPO_ROOT, 'node_modules', '.bin', 'tsx');
const MAIN = join(REPO_ROOT, 'server', 'src', 'main.ts');

interface Run {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

function start(env: Record<string, string | undefined>): Run {
  const child = spawn(TSX, [MAIN], { cwd: REPO_ROOT, env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env } });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, stdout: () => out, stderr: () => err, exited };
}

async function waitFor(condition: () => boolean, limitMs: number): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('server/src/main.ts', () => {
  it('prints one configuration error line naming the variable and exits 1', async () => {
    const run = start(testEnv({ PORT: 'abc' }));
    expect(await run.exited).toBe(1);
    const lines = run.stderr().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Configuration error: PORT must be a port number/);
  });

  it('migrates, listens, serves /api/health and stops cleanly on SIGTERM', async () => {
    const run = start(testEnv({ PORT: '0', LOG_LEVEL: 'info' }));
    try {
      await waitFor(() => /listening on http:\/\/127\.0\.0\.1:\d+/.test(run.stdout()), 30_000);
      const port = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(run.stdout())![1];
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      expect(res.status).toBe(200);
      run.child.kill('SIGTERM');
      expect(await run.exited).toBe(0);
      // Plain JSON logs (no pretty printer).
      const firstLine = run.stdout().trim().split('\n')[0]!;
      expect(JSON.parse(firstLine)).toHaveProperty('level');
    } finally {
      if (run.child.exitCode === null) run.child.kill('SIGKILL');
    }
  });

  it('encrypts TOTP secrets stored in plaintext before it listens', async () => {
    const database = testDatabase();
    try {
      await truncateAll(database);
      const user = await buildUser(database.db);
      const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
      const [factor] = await database.db.insert(schema.authFactors).values({ userId: user.id, secret, status: 'verified' }).returning();
      const run = start(testEnv({ PORT: '0', LOG_LEVEL: 'info' }));
      try {
        await waitFor(() => /listening on http:\/\/127\.0\.0\.1:\d+/.test(run.stdout()), 30_000);
        expect(run.stdout()).toContain('TOTP secrets sealed with the current key');
        const [row] = await database.db.select().from(schema.authFactors).where(eq(schema.authFactors.id, factor!.id));
        expect(row!.secret).not.toBe(secret);
        expect(SecretBox.fromConfig(testConfig()).open(row!.secret, factorSecretAad(row!))).toBe(secret);
        run.child.kill('SIGTERM');
        expect(await run.exited).toBe(0);
      } finally {
        if (run.child.exitCode === null) run.child.kill('SIGKILL');
      }
    } finally {
      await truncateAll(database);
      await database.close();
    }
  });
});
