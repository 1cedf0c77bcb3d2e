// The benchmark's own database and Redis prefix on the local PostgreSQL and Redis, and the real
// server and worker started exactly as in production against them.
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { dropDatabase, ensureDatabase, runMigrations } from '@tribuna/drizzle/migrate';
import { freePort, NODE_PROCESS_FLAGS, postgresAnswers, redisAnswers } from '../../scripts/infra.ts';
import { log } from './log.ts';
import { spawnTs, waitForHttp200, type BenchChild } from './processes.ts';

export const PG_BASE_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

export class BenchSetupError extends Error {}

export interface BenchEnv {
  name: string;
  databaseUrl: string;
  redisUrl: string;
  redisPrefix: string;
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** Fails with a clear message when the local PostgreSQL or Redis does not answer. */
export async function checkServices(): Promise<void> {
  const [pg, redis] = await Promise.all([postgresAnswers(PG_BASE_URL), redisAnswers(REDIS_URL)]);
  const missing: string[] = [];
  if (!pg) missing.push(`PostgreSQL at ${new URL(PG_BASE_URL).host} (set BENCH_POSTGRES_URL)`);
  if (!redis) missing.push(`Redis at ${new URL(REDIS_URL).host} (set BENCH_REDIS_URL)`);
  if (missing.length) {
    throw new BenchSetupError(`The benchmarks need a running ${missing.join(' and ')}; start them (e.g. bash scripts/ensure-services.sh) and retry.`);
  }
}

/** A fresh, migrated database `tribuna_bench_<pid>` (suffix for several per run). */
export async function createBenchEnv(suffix = ''): Promise<BenchEnv> {
  const name = `tribuna_bench_${process.pid}${suffix}`;
  const env: BenchEnv = { name, databaseUrl: withDatabase(PG_BASE_URL, name), redisUrl: REDIS_URL, redisPrefix: name };
  await dropDatabase(env.databaseUrl);
  await deleteRedisKeys(env);
  await ensureDatabase(env.databaseUrl);
  await runMigrations(env.databaseUrl);
  return env;
}

/** Drops the database and deletes every Redis key under the prefix. */
export async function destroyBenchEnv(env: BenchEnv): Promise<void> {
  const results = await Promise.allSettled([dropDatabase(env.databaseUrl), deleteRedisKeys(env)]);
  for (const r of results) if (r.status === 'rejected') log(`cleanup of ${env.name} failed: ${(r.reason as Error).message}`);
}

export async function deleteRedisKeys(env: BenchEnv): Promise<number> {
  const redis = new Redis(env.redisUrl, { maxRetriesPerRequest: 1, lazyConnect: true });
  let deleted = 0;
  try {
    await redis.connect();
    for (const pattern of [`${env.redisPrefix}:*`, `${env.redisPrefix}`]) {
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
        cursor = next;
        if (keys.length) deleted += await redis.unlink(...keys);
      } while (cursor !== '0');
    }
  } finally {
    redis.disconnect();
  }
  return deleted;
}

export interface Tribuna {
  /** MEDIA_DIR of this run (a temporary directory, removed by stop). */
  mediaDir: string;
  server: BenchChild;
  worker: BenchChild;
  port: number;
  baseUrl: string;
  /** PUBLIC_URL: the Origin a page of the site sends (the server refuses any other on /ws). */
  publicUrl: string;
  stop(): Promise<void>;
}

/**
 * `node --max-semi-space-size=16 --import tsx server/src/main.ts` and `… worker/src/main.ts` as in production
 * (NODE_ENV=production, LOG_LEVEL=warn), listening on 127.0.0.1 only; waits for /api/health.
 */
export interface StartOptions {
  /** The port of PUBLIC_URL when a TLS terminator in front of the server listens there (bench/web.ts); default the server's own. */
  publicPort?: number;
  /** Variables set on top of the defaults for both processes (the push bench: its local push service's origin). */
  env?: NodeJS.ProcessEnv;
}

export async function startTribuna(env: BenchEnv, options: StartOptions = {}): Promise<Tribuna> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const publicUrl = `https://127.0.0.1:${options.publicPort ?? port}`;
  const mediaDir = join(tmpdir(), `${env.name}-media`);
  const processEnv: NodeJS.ProcessEnv = {
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    SESSION_SECRET: randomBytes(32).toString('hex'),
    DEV_LOGIN: '0',
    HOST: '127.0.0.1',
    PORT: String(port),
    // Production requires an https PUBLIC_URL: as behind a TLS-terminating load balancer, the
    // public address is https while the load reaches the server over plain HTTP.
    PUBLIC_URL: publicUrl,
    // As behind a load balancer on this host: the load sends each fan's address in X-Forwarded-For.
    TRUST_PROXY: 'loopback',
    // The fan-out bench's thousands of viewers all connect from 127.0.0.1; the cap is still checked.
    WS_MAX_CONNECTIONS_PER_ADDRESS: '100000',
    DATABASE_URL: env.databaseUrl,
    REDIS_URL: env.redisUrl,
    REDIS_PREFIX: env.redisPrefix,
    MEDIA_DIR: mediaDir,
    ...options.env,
  };
  // BENCH_SERVER_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") is for investigating a
  // run, never set by default.
  const nodeArgs = [...NODE_PROCESS_FLAGS, ...(process.env.BENCH_SERVER_NODE_ARGS?.split(/\s+/).filter(Boolean) ?? [])];
  const server = spawnTs('server', 'server/src/main.ts', [], { env: processEnv, echoStdout: true, nodeArgs });
  const worker = spawnTs('worker', 'worker/src/main.ts', [], { env: processEnv, echoStdout: true, nodeArgs: NODE_PROCESS_FLAGS });
  const stop = async () => {
    await Promise.allSettled([server.stop(), worker.stop()]);
    await rm(mediaDir, { recursive: true, force: true });
  };
  try {
    await waitForHttp200(`${baseUrl}/api/health`, server);
    if (!worker.alive) throw new Error('the worker exited while starting (see its stderr above)');
  } catch (err) {
    await stop();
    throw err;
  }
  return { mediaDir, server, worker, port, baseUrl, publicUrl, stop };
}
