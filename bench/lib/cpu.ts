// CPU accounting from /proc while a load runs: tells where the two cores went (server, worker,
// PostgreSQL, Redis, load generators, and anything else on the machine). Every process is sampled
// every SAMPLE_MS, so short-lived ones (autovacuum workers, other people's test runs) are counted
// too; one that starts and ends between two samples is missed.
import { readdirSync, readFileSync } from 'node:fs';

const SAMPLE_MS = 500;
const TICK_MS = 10; // USER_HZ is 100 on Linux

interface ProcSample {
  comm: string;
  cpuMs: number;
  /** Start time (clock ticks after boot): tells a reused pid from the same process. */
  startedAt: string;
}

function readProc(pid: string): ProcSample | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const open = stat.indexOf('(');
    const close = stat.lastIndexOf(')');
    const fields = stat.slice(close + 2).split(' ');
    return { comm: stat.slice(open + 1, close), cpuMs: (Number(fields[11]) + Number(fields[12])) * TICK_MS, startedAt: fields[19] ?? '' };
  } catch {
    return null;
  }
}

function readAll(): Map<number, ProcSample> {
  const out = new Map<number, ProcSample>();
  for (const entry of readdirSync('/proc')) {
    if (entry.charCodeAt(0) < 48 || entry.charCodeAt(0) > 57) continue;
    const sample = readProc(entry);
    if (sample) out.set(Number(entry), sample);
  }
  return out;
}

/** Machine-wide busy time (all cores) in ms, from /proc/stat, and the part of it stolen by the hypervisor. */
function machineBusyMs(): { busy: number; steal: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
  const v = line.trim().split(/\s+/).slice(1).map(Number);
  const idle = (v[3] ?? 0) + (v[4] ?? 0);
  const total = v.reduce((a, b) => a + b, 0);
  return { busy: (total - idle) * TICK_MS, steal: (v[7] ?? 0) * TICK_MS };
}

/** A process and its direct children (the native viewers client runs under the viewers process). */
export function withChildren(pid: number): number[] {
  try {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
    return [pid, ...(children ? children.split(/\s+/).map(Number) : [])];
  } catch {
    return [pid];
  }
}

/** Pids whose command name starts with one of `names` (for callers that need the list). */
export function pidsByCommand(names: string[]): number[] {
  const pids: number[] = [];
  for (const [pid, s] of readAll()) if (names.some((n) => s.comm.startsWith(n))) pids.push(pid);
  return pids;
}

/**
 * A group: fixed pids (resolved when the meter starts), a command-name prefix, or a command name
 * plus a test on the process title (PostgreSQL backends show their database there).
 */
export type CpuGroup = { pids: () => number[] } | { comm: string; title?: (title: string) => boolean };

const titles = new Map<number, string>();
function titleOf(pid: number): string {
  let title = titles.get(pid);
  if (title === undefined) {
    try {
      title = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
    } catch {
      title = '';
    }
    titles.set(pid, title);
  }
  return title;
}
export type CpuGroups = Record<string, CpuGroup | (() => number[])>;

/**
 * `start()` … `stop()` gives each group's CPU in cores (1.0 = one core busy for the whole window),
 * `machine` (all busy time, kernel included), `others` (processes in no group, by command name in
 * `othersTop`), `unattributed` (busy time no process accounts for: interrupts, missed processes,
 * steal) and `steal` (time the hypervisor ran other guests instead of this machine's processes).
 */
export class CpuMeter {
  private startAt = 0;
  private startMachine = { busy: 0, steal: 0 };
  private last = new Map<number, ProcSample>();
  private readonly perPid = new Map<number, { comm: string; ms: number }>();
  private timer: NodeJS.Timeout | null = null;
  private groupPids = new Map<string, Set<number>>();

  constructor(private readonly groups: CpuGroups) {}

  start(): void {
    titles.clear();
    this.startAt = Date.now();
    this.startMachine = machineBusyMs();
    this.perPid.clear();
    this.groupPids.clear();
    for (const [name, group] of Object.entries(this.groups)) {
      const pids = typeof group === 'function' ? group() : 'pids' in group ? group.pids() : [];
      this.groupPids.set(name, new Set(pids));
    }
    this.last = readAll();
    for (const pid of this.last.keys()) titleOf(pid);
    this.timer = setInterval(() => this.sample(), SAMPLE_MS);
    this.timer.unref();
  }

  private sample(): void {
    const now = readAll();
    for (const [pid, s] of now) {
      const before = this.last.get(pid);
      if (!before) titleOf(pid);
      // A pid not seen before started inside the window: all its time counts.
      // (Kernel workers change their command name as they go: same start time, same process.)
      const delta = before && before.startedAt === s.startedAt ? s.cpuMs - before.cpuMs : s.cpuMs;
      if (delta > 0) {
        const entry = this.perPid.get(pid) ?? { comm: s.comm.replace(/^kworker.*/, 'kworker'), ms: 0 };
        entry.ms += delta;
        this.perPid.set(pid, entry);
      }
    }
    this.last = now;
  }

  stop(): Record<string, unknown> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.sample();
    const wall = Math.max(1, Date.now() - this.startAt);
    const cores = (ms: number) => Math.round((ms / wall) * 100) / 100;
    const out: Record<string, unknown> = {};
    const attributed = new Set<number>();
    for (const [name, group] of Object.entries(this.groups)) {
      let ms = 0;
      for (const [pid, entry] of this.perPid) {
        const member =
          typeof group === 'function' || 'pids' in group
            ? this.groupPids.get(name)!.has(pid)
            : entry.comm.startsWith(group.comm) && (!group.title || group.title(titleOf(pid)));
        if (member && !attributed.has(pid)) {
          ms += entry.ms;
          attributed.add(pid);
        }
      }
      out[name] = cores(ms);
    }
    const others = new Map<string, number>();
    let othersMs = 0;
    let allMs = 0;
    for (const [pid, entry] of this.perPid) {
      allMs += entry.ms;
      if (attributed.has(pid)) continue;
      othersMs += entry.ms;
      others.set(entry.comm, (others.get(entry.comm) ?? 0) + entry.ms);
    }
    const machineNow = machineBusyMs();
    const machineMs = machineNow.busy - this.startMachine.busy;
    out.others = cores(othersMs);
    out.machine = cores(machineMs);
    // CPU the hypervisor gave to other guests while ours wanted it (a shared, noisy host).
    out.steal = cores(machineNow.steal - this.startMachine.steal);
    out.unattributed = cores(Math.max(0, machineMs - allMs));
    out.othersTop = Object.fromEntries(
      [...others.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 4)
        .filter(([, ms]) => ms / wall >= 0.01)
        .map(([comm, ms]) => [comm, cores(ms)]),
    );
    return out;
  }
}

/** PostgreSQL's backends of one database (its name is in their process title). */
export const postgresOf = (database: string): CpuGroup => ({ comm: 'postgres', title: (t) => t.includes(` ${database} `) });

/** PostgreSQL's shared background processes (WAL writer, checkpointer, …). */
export const postgresShared: CpuGroup = {
  comm: 'postgres',
  title: (t) => /: (checkpointer|background writer|walwriter|autovacuum launcher|logical replication launcher|stats collector|archiver)/.test(t),
};
