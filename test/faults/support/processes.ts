// The server and the worker as real child processes (the production entry points, `node --import
// tsx server/src/main.ts` and `worker/src/main.ts`), so a fault test can kill -9 them, SIGTERM
// them and start them again.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, NODE_PROCESS_FLAGS, ROOT } from '../../../scripts/infra.ts';
import { GiveUp, waitUntil } from './wait.ts';

export interface ProcessEnvInput {
  databaseUrl: string;
  redisUrl: string;
  /** Defaults to a fresh one per call: pass the same to processes meant to share keys and queues. */
  redisPrefix: string;
  extra?: Record<string, string>;
}

/** The environment of a server or worker of this test (see CONTRACT.md for the variables). */
export function processEnv(input: ProcessEnvInput, port?: number): NodeJS.ProcessEnv {
  const url = port ? `http://127.0.0.1:${port}` : 'http://127.0.0.1';
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    // Not production: that requires https and refuses DEV_LOGIN, which the tests sign in with
    // (POST /api/auth/dev/login). Everything else runs as in production.
    NODE_ENV: 'test',
    DEV_LOGIN: '1',
    HOST: '127.0.0.1',
    PORT: String(port ?? 0),
    PUBLIC_URL: url,
    DATABASE_URL: input.databaseUrl,
    REDIS_URL: input.redisUrl,
    REDIS_PREFIX: input.redisPrefix,
    SESSION_SECRET: 'faults-secret-faults-secret-faults-secret',
    MEDIA_DIR: join(tmpdir(), 'tribuna-faults-media'),
    LOG_LEVEL: process.env.FAULTS_LOG_LEVEL ?? 'warn',
    // FFmpeg and push encryption at normal priority: these tests run beside the whole suite, which
    // keeps every core busy, and in the idle scheduling class they would wait for a free core.
    TRANSCODE_NICENESS: '0',
    PUSH_NICENESS: '0',
    ...input.extra,
  };
}

export const newRedisPrefix = () => `faults_${randomBytes(4).toString('hex')}`;

export interface RunningProcess {
  child: ChildProcess;
  /** Everything it wrote on stdout and stderr so far. */
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** kill -9: no handler runs, nothing is flushed. */
  kill9(): Promise<void>;
  /** SIGTERM, then waits for the exit (the graceful path). */
  terminate(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function launch(entry: string, env: NodeJS.ProcessEnv): RunningProcess {
  const child = spawn(process.execPath, [...NODE_PROCESS_FLAGS, '--import', 'tsx', entry], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => {
    output += chunk.toString();
    if (output.length > 2_000_000) output = output.slice(-1_000_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    output: () => output,
    exited,
    kill9: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    terminate: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

export interface ServerProcess extends RunningProcess {
  port: number;
  url: string;
}

/** The server on a free port (or `port`), resolved once GET /api/health answers 200. */
export async function startServerProcess(input: ProcessEnvInput, port?: number): Promise<ServerProcess> {
  const chosen = port ?? (await freePort());
  const running = launch('server/src/main.ts', processEnv(input, chosen));
  const url = `http://127.0.0.1:${chosen}`;
  try {
    await waitUntil(
      async () => {
        if (running.child.exitCode !== null) throw new GiveUp(`server exited (${running.child.exitCode}): ${running.output().slice(-2000)}`);
        const res = await fetch(`${url}/api/health`).catch(() => null);
        return res?.status === 200;
      },
      { timeoutMs: 60_000, what: 'the server to answer /api/health' },
    );
  } catch (err) {
    await running.kill9();
    throw err;
  }
  return { ...running, port: chosen, url };
}

/**
 * The worker, resolved once its log says it is ready (its queues running, schedules registered,
 * start-up done): a fixed wait was not enough on a busy machine, where a PostgreSQL restart could
 * then land inside the worker's start-up, which ends the process by design. The worker logs at
 * `info` unless the test sets LOG_LEVEL, so that line is there.
 */
export async function startWorkerProcess(input: ProcessEnvInput): Promise<RunningProcess> {
  const running = launch('worker/src/main.ts', processEnv({ ...input, extra: { LOG_LEVEL: 'info', ...input.extra } }));
  try {
    await waitUntil(
      async () => {
        if (running.child.exitCode !== null) throw new GiveUp(`worker exited (${running.child.exitCode}): ${running.output().slice(-2000)}`);
        return running.output().includes('"msg":"worker ready"');
      },
      { timeoutMs: 60_000, what: 'the worker to log that it is ready' },
    );
  } catch (err) {
    await running.kill9();
    throw err;
  }
  return running;
}

/** A scratch directory for a test's files (media, logs). */
export const scratchDir = (label: string) => mkdtempSync(join(tmpdir(), `tribuna-faults-${label}-`));
