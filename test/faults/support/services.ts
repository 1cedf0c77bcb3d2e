// Throwaway PostgreSQL and Redis for the fault tests (`npm run test:faults`): each test file
// starts its own on free ports, so it may stop, kill and restart them without touching the shared
// services other runs use. They are real servers (the Debian binaries), not stand-ins.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, postgresAnswers, redisAnswers } from '../../../scripts/infra.ts';
import { waitUntil } from './wait.ts';

const PG_BIN = (() => {
  const versions = readdirSync('/usr/lib/postgresql').sort((a, b) => Number(a) - Number(b));
  return `/usr/lib/postgresql/${versions.at(-1)}/bin`;
})();

/** initdb and postgres refuse to run as root: as root, run them as the postgres user. */
function asPostgres(command: string, args: string[]): [string, string[]] {
  return process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
}

function run(command: string, args: string[]): void {
  const [cmd, argv] = asPostgres(command, args);
  const result = spawnSync(cmd, argv, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status}): ${result.stderr || result.stdout}`);
}

export interface TestPostgres {
  /** postgres://postgres@127.0.0.1:<port>/<database> */
  url(database: string): string;
  port: number;
  start(): Promise<void>;
  /** pg_ctl stop -m fast: connections are closed, the server shuts down cleanly. */
  stop(): Promise<void>;
  /** stop then start: what clients see of a restart. */
  restart(): Promise<void>;
  /** Stops it for good and removes its data directory. */
  destroy(): Promise<void>;
}

/** A fresh PostgreSQL cluster (initdb) on a free port, trust auth over TCP for user postgres. */
export async function startPostgres(): Promise<TestPostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'tribuna-faults-pg-'));
  if (process.getuid?.() === 0) {
    const pg = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
    const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
    chownSync(dir, Number(pg.stdout.trim()), Number(gid.stdout.trim()));
  }
  chmodSync(dir, 0o700);
  const data = join(dir, 'data');
  run(`${PG_BIN}/initdb`, ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync']);
  const port = await freePort();
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${dir} -c max_connections=200 -c shared_buffers=128MB`;
  const isReady = () => postgresAnswers(`postgres://postgres@127.0.0.1:${port}/postgres`);
  const start = async () => {
    run(`${PG_BIN}/pg_ctl`, ['-D', data, '-l', join(dir, 'log'), '-o', options, '-w', 'start']);
    await waitUntil(isReady, { timeoutMs: 30_000, what: `PostgreSQL on ${port}` });
  };
  const stop = async () => run(`${PG_BIN}/pg_ctl`, ['-D', data, '-m', 'fast', '-w', 'stop']);
  await start();
  return {
    port,
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    start,
    stop,
    restart: async () => {
      await stop();
      await start();
    },
    destroy: async () => {
      spawnSync(...asPostgres(`${PG_BIN}/pg_ctl`, ['-D', data, '-m', 'immediate', '-w', 'stop']));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface TestRedis {
  url: string;
  port: number;
  start(): Promise<void>;
  /** SIGKILL: Redis vanishes mid-command, as in a crash or a network cut. */
  kill(): Promise<void>;
  destroy(): Promise<void>;
}

/** A redis-server on a free port, in memory only (no RDB, no AOF): a restart starts empty. */
export async function startRedis(): Promise<TestRedis> {
  const port = await freePort();
  let child: ChildProcess | null = null;
  const ping = () => redisAnswers(`redis://127.0.0.1:${port}`, 1000);
  const start = async () => {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    await waitUntil(ping, { timeoutMs: 10_000, what: `Redis on ${port}` });
  };
  const kill = async () => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await exited;
  };
  await start();
  return { port, url: `redis://127.0.0.1:${port}`, start, kill, destroy: kill };
}
