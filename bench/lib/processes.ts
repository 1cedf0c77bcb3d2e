// Child processes of the benchmark: the real server and worker, comparison servers and load
// generators. Every child is registered so it is stopped on success, on failure and on exit.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { log } from './log.ts';

export const ROOT = path.resolve(import.meta.dirname, '..', '..');

const running = new Set<BenchChild>();

export interface SpawnOptions {
  env?: NodeJS.ProcessEnv;
  /** Open an IPC channel (process.send / 'message'); load generators use it. */
  ipc?: boolean;
  /** Forward the child's stdout to ours (prefixed); stderr is always forwarded. */
  echoStdout?: boolean;
  /** Extra node flags (investigations only, e.g. --cpu-prof). */
  nodeArgs?: string[];
}

type Message = { type: string } & Record<string, unknown>;

/** A running child: `node --import tsx <script>` behind `ulimit -n <hard limit>`. */
export class BenchChild {
  readonly exited: Promise<number | null>;
  private exitCode: number | null | undefined;
  private readonly inbox: Message[] = [];
  private readonly waiters: { type: string; resolve: (m: Message) => void; reject: (e: Error) => void }[] = [];
  private stderrTail = '';

  constructor(
    readonly name: string,
    readonly proc: ChildProcess,
  ) {
    running.add(this);
    this.exited = new Promise((resolve) => {
      proc.on('exit', (code, signal) => {
        this.exitCode = code ?? (signal ? 128 : null);
        running.delete(this);
        const error = new Error(`${name} exited (code ${code}, signal ${signal}) before answering${this.stderrHint()}`);
        for (const w of this.waiters.splice(0)) w.reject(error);
        resolve(code);
      });
    });
    proc.on('message', (raw) => {
      const message = raw as Message;
      const index = this.waiters.findIndex((w) => w.type === message.type);
      if (index >= 0) this.waiters.splice(index, 1)[0]!.resolve(message);
      else if (message.type === 'error') {
        const error = new Error(`${name} failed: ${String(message.message)}`);
        for (const w of this.waiters.splice(0)) w.reject(error);
      } else this.inbox.push(message);
    });
    proc.stderr?.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      this.stderrTail = (this.stderrTail + text).slice(-4000);
      for (const line of text.split('\n')) if (line.trim()) process.stderr.write(`  [${name}] ${line}\n`);
    });
  }

  get pid(): number {
    return this.proc.pid ?? -1;
  }

  get alive(): boolean {
    return this.exitCode === undefined;
  }

  private stderrHint(): string {
    const tail = this.stderrTail.trim();
    return tail ? `; stderr: ${tail.slice(-600)}` : '';
  }

  send(message: Message): void {
    if (!this.proc.connected) throw new Error(`${this.name} has no IPC channel (exited?)`);
    this.proc.send(message);
  }

  /** The next IPC message of `type`, bounded in time. */
  next<T extends Message = Message>(type: string, timeoutMs: number): Promise<T> {
    const queued = this.inbox.findIndex((m) => m.type === type);
    if (queued >= 0) return Promise.resolve(this.inbox.splice(queued, 1)[0] as T);
    if (!this.alive) return Promise.reject(new Error(`${this.name} is not running${this.stderrHint()}`));
    return new Promise<T>((resolve, reject) => {
      const waiter = {
        type,
        resolve: (m: Message) => {
          clearTimeout(timer);
          resolve(m as T);
        },
        reject: (e: Error) => {
          clearTimeout(timer);
          reject(e);
        },
      };
      const timer = setTimeout(() => {
        const i = this.waiters.indexOf(waiter);
        if (i >= 0) this.waiters.splice(i, 1);
        reject(new Error(`${this.name}: no '${type}' message within ${timeoutMs} ms${this.stderrHint()}`));
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  /** Sends a command and waits for the reply of type `replyType`. */
  async request<T extends Message = Message>(message: Message, replyType: string, timeoutMs: number): Promise<T> {
    const reply = this.next<T>(replyType, timeoutMs);
    this.send(message);
    return reply;
  }

  /** SIGTERM, then SIGKILL after `graceMs`. Resolves once the process is gone. */
  async stop(graceMs = 8000): Promise<void> {
    if (!this.alive) return;
    this.proc.kill('SIGTERM');
    const killed = await Promise.race([this.exited.then(() => false), new Promise<boolean>((r) => setTimeout(() => r(true), graceMs).unref())]);
    if (killed && this.alive) {
      log(`${this.name} did not stop within ${graceMs} ms: SIGKILL`);
      this.proc.kill('SIGKILL');
      await this.exited;
    }
  }
}

/**
 * Spawns `node --import tsx <script> <args…>` from the repository root, with the open-files
 * limit raised to the hard limit (10,000 sockets in one process need it). `exec` keeps the pid,
 * so /proc/<pid> is the node process itself.
 */
export function spawnTs(name: string, script: string, args: string[], options: SpawnOptions = {}): BenchChild {
  const stdio: ('pipe' | 'ipc' | 'inherit' | 'ignore')[] = ['ignore', options.echoStdout ? 'pipe' : 'ignore', 'pipe'];
  if (options.ipc) stdio.push('ipc');
  const proc = spawn(
    'bash',
    ['-c', 'ulimit -n "$(ulimit -Hn)" 2>/dev/null; exec node "$@"', 'bench-child', ...(options.nodeArgs ?? []), '--import', 'tsx', script, ...args],
    { cwd: ROOT, env: { ...process.env, ...options.env }, stdio },
  );
  const child = new BenchChild(name, proc);
  if (options.echoStdout) {
    proc.stdout?.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) process.stdout.write(`  [${name}] ${line}\n`);
    });
  }
  return child;
}

/** Stops every child still running (newest first), each with SIGTERM then SIGKILL. */
export async function stopAll(graceMs = 8000): Promise<void> {
  const children = [...running].reverse();
  await Promise.allSettled(children.map((c) => c.stop(graceMs)));
}

/** Last resort on process exit: synchronous SIGKILL of anything left. */
export function killAllNow(): void {
  for (const child of running) {
    try {
      child.proc.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
}

/** Resident set size of a process in bytes (VmRSS of /proc/<pid>/status). */
export function rssBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
  if (!match) throw new Error(`no VmRSS for pid ${pid}`);
  return Number(match[1]) * 1024;
}

/** CPU time (user + system) consumed so far by a process, in ms (from /proc/<pid>/stat). */
export function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return (ticks * 1000) / 100; // USER_HZ is 100 on Linux
  } catch {
    return NaN;
  }
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Polls `url` until it answers 200, bounded; fails early when `child` exits. */
export async function waitForHttp200(url: string, child: BenchChild, limitMs = 60_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  let last = '';
  while (Date.now() < deadline) {
    if (!child.alive) throw new Error(`${child.name} exited while starting (see its stderr above)`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (res.status === 200) return;
      last = `HTTP ${res.status}`;
    } catch (err) {
      last = (err as Error).message;
    }
    await sleep(250);
  }
  throw new Error(`${url} did not answer 200 within ${limitMs} ms (last: ${last})`);
}
