// The machine's speed, measured in the same run as the load: a fixed CPU-bound unit of work
// (SHA-256 over 64 KiB and an integer loop, about 4 ms alone) timed in its own CPU time, so waiting
// in the run queue behind the load does not count, while a slower core (another tenant of the host,
// a lower clock, caches and memory bandwidth shared with the load) does. A unit that costs 10 % more
// CPU time means the machine ran about 10 % slower for everything measured beside it. Caution: the
// load's own memory traffic counts too. Beside a process allocating as fast as it can, the unit
// took 11 ms instead of 3.5 ms, while two `yes` hogs left it at 3.9 ms.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { median, round } from './stats.ts';

/**
 * The probe runs in a child process of its own: process.cpuUsage() counts every thread of a
 * process, and run in the orchestrator the unit read 11 ms in the first two minutes of two soaks
 * and 3.5 ms after, with the orchestrator's other threads counted in. The child allocates next to
 * nothing, so its CPU time is its one thread's. It prints one line per unit: milliseconds since
 * the epoch and the unit's CPU milliseconds.
 */
const PROBE_SCRIPT = `
const { createHash } = require('node:crypto');
const BLOCK = Buffer.alloc(64 * 1024, 7);
function unitOfWork() {
  let digest = Buffer.alloc(1);
  for (let i = 0; i < 40; i++) digest = createHash('sha256').update(BLOCK).digest();
  let x = 0;
  for (let i = 0; i < 2000000; i++) x = (x * 31 + i) | 0;
  return x + digest[0];
}
for (let i = 0; i < 20; i++) unitOfWork();
const tick = () => {
  const before = process.cpuUsage();
  unitOfWork();
  const used = process.cpuUsage(before);
  process.stdout.write(Date.now() + ' ' + (used.user + used.system) / 1000 + '\\n');
};
setInterval(tick, Number(process.argv[1]));
`;

export interface SpeedSample {
  /** Seconds since the probe's t0. */
  t: number;
  /** CPU milliseconds one unit took. */
  unitCpuMs: number;
}

/** Runs one unit every intervalMs (after a few warm-up units for the JIT) until stopped. */
export class SpeedProbe {
  readonly samples: SpeedSample[] = [];
  private child: ChildProcess | null = null;

  constructor(
    private readonly t0: number,
    private readonly intervalMs = 2000,
  ) {}

  start(): void {
    const child = spawn(process.execPath, ['-e', PROBE_SCRIPT, String(this.intervalMs)], { stdio: ['ignore', 'pipe', 'inherit'] });
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const [at, cpuMs] = line.split(' ').map(Number);
      if (Number.isFinite(at) && Number.isFinite(cpuMs)) this.samples.push({ t: round((at! - this.t0) / 1000, 1), unitCpuMs: round(cpuMs!, 3) });
    });
    this.child = child;
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }

  /** Median CPU ms of a unit in [fromT, toT), or null without a sample there. */
  between(fromT: number, toT: number): number | null {
    const inside = this.samples.filter((s) => s.t >= fromT && s.t < toT).map((s) => s.unitCpuMs);
    return inside.length ? round(median(inside), 3) : null;
  }
}
