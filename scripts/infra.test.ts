import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureDatabase, runMigrations } from '@tribuna/drizzle/migrate';
import { StartupError, postgresAnswers, redisAnswers, startEmbeddedPostgres, startRedisServer, type Stoppable } from './infra.ts';

describe('npm start infrastructure fallbacks', () => {
  const stoppers: Stoppable[] = [];
  const dir = mkdtempSync(path.join(tmpdir(), 'tribuna-embedded-'));
  // The embedded server runs as the `postgres` user when we are root: it must reach its folder.
  chmodSync(dir, 0o755);

  afterAll(async () => {
    for (const s of stoppers) await s.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs an embedded PostgreSQL that takes the migrations', async () => {
    const resolved = await startEmbeddedPostgres(path.join(dir, 'postgres'));
    stoppers.push(resolved.stopper!);
    expect(await postgresAnswers(resolved.value)).toBe(true);
    expect(await ensureDatabase(resolved.value)).toBe(true);
    await runMigrations(resolved.value);
    const sql = postgres(resolved.value, { max: 1, onnotice: () => {} });
    const [row] = await sql<{ n: number }[]>`SELECT count(*)::int AS n FROM pg_tables WHERE tablename = 'votes'`;
    await sql.end();
    expect(row!.n).toBe(1);
  }, 120_000);

  it('starts redis-server from PATH on a free port', async () => {
    const resolved = await startRedisServer('redis-server');
    stoppers.push(resolved.stopper!);
    expect(resolved.value).not.toBe('redis://127.0.0.1:6379');
    expect(await redisAnswers(resolved.value)).toBe(true);
  });

  it('says what to install when there is no redis-server', async () => {
    await expect(startRedisServer(null)).rejects.toThrow(StartupError);
    await expect(startRedisServer(null)).rejects.toThrow(/install it \(apt-get install redis-server\) or set REDIS_URL/);
  });
});
