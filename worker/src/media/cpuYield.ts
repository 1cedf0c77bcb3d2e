import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

// A transcode yields to the live audience (issue 30). FFmpeg already runs niced, in a session of
// its own and in the idle scheduling class (video.ts runNiced), so the request paths preempt it at
// once; yet it still takes every idle moment, and on a machine whose cores the server and
// PostgreSQL keep busy during an episode the votes kept only 0.88× their rate while it ran (caches
// and memory bandwidth shared, cores never idle). While the rest of the machine is busy, FFmpeg
// therefore runs in bursts: stopped (SIGSTOP) for most of each short period, continued (SIGCONT)
// for the rest. A clip takes longer during the peak and runs at full speed again once it passes.

/** CPU time so far, in clock ticks: the whole machine's busy time and one process's own. */
export interface CpuSample {
  machineBusyTicks: number;
  /** The process's user + system time; null when it is gone. */
  processTicks: number | null;
}

export interface CpuYieldOptions {
  /** Length of one stop-and-run cycle. */
  periodMs?: number;
  /** Share of each period the process runs while the machine is busy. */
  runShare?: number;
  /** The others count as busy from this many cores' worth of CPU (default: half the cores, at least 0.5). */
  busyCores?: number;
}

export interface CpuYieldDeps {
  sample(pid: number): CpuSample;
  signal(pid: number, signal: 'SIGSTOP' | 'SIGCONT'): void;
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  /** Clock ticks per second of the samples (Linux: USER_HZ, 100). */
  ticksPerSecond: number;
  cores: number;
}

export interface CpuYield {
  /** Milliseconds the process has spent stopped so far (its time limit is extended by them). */
  stoppedMs(): number;
  /** Stops governing and leaves the process running. */
  release(): void;
}

export const CPU_YIELD_DEFAULTS = { periodMs: 200, runShare: 0.2 } as const;

/**
 * Governs `pid` until released (or until it is gone): every period, measures how much CPU the rest
 * of the machine used during the last one; if that is at least `busyCores`, the process runs for
 * `runShare` of the next period and is stopped for the rest; otherwise it runs the whole period.
 */
export function yieldWhileBusy(pid: number, options: CpuYieldOptions = {}, deps: CpuYieldDeps = procDeps()): CpuYield {
  const periodMs = options.periodMs ?? CPU_YIELD_DEFAULTS.periodMs;
  const runShare = options.runShare ?? CPU_YIELD_DEFAULTS.runShare;
  const busyCores = options.busyCores ?? Math.max(0.5, deps.cores / 2);
  let last = { at: deps.now(), ...deps.sample(pid) };
  let stopped = false;
  let stoppedSince = 0;
  let stoppedTotal = 0;
  let released = false;
  let periodTimer: unknown = null;
  let stopTimer: unknown = null;

  const send = (signal: 'SIGSTOP' | 'SIGCONT') => {
    try {
      deps.signal(pid, signal);
      return true;
    } catch {
      return false; // Gone already (ESRCH).
    }
  };
  const resume = () => {
    if (!stopped) return;
    stopped = false;
    stoppedTotal += deps.now() - stoppedSince;
    send('SIGCONT');
  };
  const pause = () => {
    stopTimer = null;
    if (released || stopped) return;
    if (send('SIGSTOP')) {
      stopped = true;
      stoppedSince = deps.now();
    }
  };

  const tick = () => {
    periodTimer = null;
    if (released) return;
    const at = deps.now();
    let current: CpuSample;
    try {
      current = deps.sample(pid);
    } catch {
      return release(); // /proc unreadable: leave it running.
    }
    if (current.processTicks === null) return release();
    const seconds = (at - last.at) / 1000;
    const ownTicks = Math.max(0, current.processTicks - (last.processTicks ?? current.processTicks));
    const othersTicks = Math.max(0, current.machineBusyTicks - last.machineBusyTicks - ownTicks);
    const othersCores = seconds > 0 ? othersTicks / deps.ticksPerSecond / seconds : 0;
    last = { at, ...current };
    resume();
    if (othersCores >= busyCores) stopTimer = deps.setTimeout(pause, periodMs * runShare);
    periodTimer = deps.setTimeout(tick, periodMs);
  };

  function release(): void {
    if (released) return;
    released = true;
    if (periodTimer !== null) deps.clearTimeout(periodTimer);
    if (stopTimer !== null) deps.clearTimeout(stopTimer);
    resume();
  }

  periodTimer = deps.setTimeout(tick, periodMs);
  return { stoppedMs: () => stoppedTotal + (stopped ? deps.now() - stoppedSince : 0), release };
}

/** Linux's /proc: the machine's busy ticks from /proc/stat, the process's from /proc/<pid>/stat. */
export function procDeps(): CpuYieldDeps {
  return {
    sample(pid) {
      return { machineBusyTicks: machineBusyTicks(readFileSync('/proc/stat', 'utf8')), processTicks: readProcessTicks(pid) };
    },
    signal: (pid, signal) => process.kill(pid, signal),
    now: () => performance.now(),
    setTimeout: (fn, ms) => setTimeout(fn, ms).unref(),
    clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
    ticksPerSecond: 100,
    cores: availableParallelism(),
  };
}

/** Busy ticks of all cores from /proc/stat's `cpu` line: user, nice, system, irq, softirq, steal (not idle, iowait, or guest, already in user). */
export function machineBusyTicks(procStat: string): number {
  const fields = procStat.slice(0, procStat.indexOf('\n')).trim().split(/\s+/).slice(1).map(Number);
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = fields;
  return user + nice + system + irq + softirq + steal;
}

/** A process's user + system ticks from /proc/<pid>/stat (fields 14 and 15, counted after the command's closing parenthesis); null when it is gone. */
export function processTicks(procPidStat: string): number {
  const fields = procPidStat.slice(procPidStat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

function readProcessTicks(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // A zombie (exited, not yet reaped) is gone as far as its CPU goes.
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z' ? null : processTicks(stat);
  } catch {
    return null;
  }
}
