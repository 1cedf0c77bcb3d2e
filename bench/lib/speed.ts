// The machine's speed, measured in the same run as the load: a fixed CPU-bound unit of work
// (SHA-256 over 64 KiB and an integer loop, about 4 ms) timed in this process's own CPU time, so
// waiting in the run queue behind the load does not count, while a slower core (another tenant of
// the host, a lower clock, caches and memory bandwidth shared with the load) does. A unit that costs
// 10 % more CPU time means the machine ran about 10 % slower for everything measured beside it.
import { createHash } from 'node:crypto';
import { median, round } from './stats.ts';
import { sleep } from './processes.ts';

const BLOCK = Buffer.alloc(64 * 1024, 7);

function unitOfWork(): number {
  let digest: Buffer = Buffer.alloc(1);
  for (let i = 0; i < 40; i++) digest = createHash('sha256').update(BLOCK).digest();
  let x = 0;
  for (let i = 0; i < 2_000_000; i++) x = (x * 31 + i) | 0;
  return x + digest[0]!;
}

export interface SpeedSample {
  /** Seconds since the probe's t0. */
  t: number;
  /** CPU milliseconds one unit took. */
  unitCpuMs: number;
}

/** Runs one unit every intervalMs (after a few warm-up units for the JIT) until stopped. */
export class SpeedProbe {
  readonly samples: SpeedSample[] = [];
  private running = false;
  private loop: Promise<void> | null = null;

  constructor(
    private readonly t0: number,
    private readonly intervalMs = 2000,
  ) {}

  start(): void {
    for (let i = 0; i < 20; i++) unitOfWork();
    this.running = true;
    this.loop = (async () => {
      while (this.running) {
        const before = process.cpuUsage();
        unitOfWork();
        const used = process.cpuUsage(before);
        this.samples.push({ t: round((Date.now() - this.t0) / 1000, 1), unitCpuMs: round((used.user + used.system) / 1000, 3) });
        await sleep(this.intervalMs);
      }
    })();
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.loop;
  }

  /** Median CPU ms of a unit in [fromT, toT), or null without a sample there. */
  between(fromT: number, toT: number): number | null {
    const inside = this.samples.filter((s) => s.t >= fromT && s.t < toT).map((s) => s.unitCpuMs);
    return inside.length ? round(median(inside), 3) : null;
  }
}
