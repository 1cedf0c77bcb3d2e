// The schedule of an open-loop load (bench/load/open-loop.ts, bench/load/viral-taps.ts): request k
// is due at start + k / ratePerSecond whatever the server does, fired as soon as it is due (its
// latency is then counted from `due`: no coordinated omission); once all are issued, the requests
// in flight get up to maxDrainMs to be answered.
import { performance } from 'node:perf_hooks';

export interface OpenLoopSchedule {
  ratePerSecond: number;
  durationS: number;
  maxDrainMs: number;
  /** Requests sent and not yet answered. */
  inFlight: () => number;
  /** A request due while this many are in flight is not sent (counted in notSent). */
  maxOutstanding?: number;
  /** Sends request `k`, due at `due` (performance.now() time). */
  fire: (k: number, due: number) => void;
}

export interface OpenLoopTimes {
  /** performance.now() and Date.now() of the first due time. */
  startAt: number;
  startWall: number;
  scheduled: number;
  issued: number;
  notSent: number;
  /** How late the scheduler fired a request at worst (this process's own lag). */
  maxLagMs: number;
}

/** Runs the schedule; resolves once every request was answered or the drain time ran out. */
export function runOpenLoop(s: OpenLoopSchedule): Promise<OpenLoopTimes> {
  const total = Math.floor(s.ratePerSecond * s.durationS);
  const intervalMs = 1000 / s.ratePerSecond;
  const maxOutstanding = s.maxOutstanding ?? Infinity;
  const startAt = performance.now() + 20;
  const startWall = Date.now() + 20;
  let issued = 0;
  let notSent = 0;
  let maxLagMs = 0;
  return new Promise((resolve) => {
    const drain = () => {
      const limit = performance.now() + s.maxDrainMs;
      const check = () => {
        if (s.inFlight() === 0 || performance.now() > limit) resolve({ startAt, startWall, scheduled: total, issued, notSent, maxLagMs });
        else setTimeout(check, 10);
      };
      check();
    };
    const pump = () => {
      const now = performance.now();
      while (issued < total) {
        const due = startAt + issued * intervalMs;
        if (due > now) break;
        if (now - due > maxLagMs) maxLagMs = now - due;
        if (s.inFlight() >= maxOutstanding) notSent++;
        else s.fire(issued, due);
        issued++;
      }
      if (issued < total) setTimeout(pump, Math.max(0, Math.min(1, startAt + issued * intervalMs - performance.now())));
      else drain();
    };
    setTimeout(pump, 20);
  });
}

/**
 * Where in a run the late answers were: per second of due time, the answers later than `lateMs`
 * from their due time and the worst one. A p99 made of one stall shows as one bad second; a queue
 * that grows, as a ramp.
 */
export class LatenessTimeline {
  private readonly late: number[] = [];
  private readonly worst: number[] = [];

  constructor(
    private readonly startAt: () => number,
    private readonly lateMs = 100,
  ) {}

  record(due: number, latencyMs: number): void {
    const second = Math.max(0, Math.floor((due - this.startAt()) / 1000));
    if (latencyMs > this.lateMs) this.late[second] = (this.late[second] ?? 0) + 1;
    if (latencyMs > (this.worst[second] ?? 0)) this.worst[second] = latencyMs;
  }

  summary(): { lateMs: number; lateBySecond: number[]; worstMsBySecond: number[] } {
    const seconds = Math.max(this.late.length, this.worst.length);
    return {
      lateMs: this.lateMs,
      lateBySecond: Array.from({ length: seconds }, (_, i) => this.late[i] ?? 0),
      worstMsBySecond: Array.from({ length: seconds }, (_, i) => Math.round(this.worst[i] ?? 0)),
    };
  }
}

/** `openLoopCapacityPerSecond` (BENCHMARKS.md): the p99 from due time a run must stay under. */
export const CAPACITY_P99_MS = 100;

export interface CapacityStep {
  share: number;
  ratePerSecond: number;
  p99Ms: number;
  answeredPerSecond: number;
  /** Errors, non-2xx answers and requests not sent (the driver's own bound): any of them fails the step. */
  failed: number;
  held: boolean;
}

export interface StepResult {
  p99Ms: number;
  answeredPerSecond: number;
  failed: number;
}

/**
 * The open-loop capacity search: a run at 0.8× the closed-loop rate first (that run is also
 * `openLoopP99MsAt80`), then up by 0.1× while runs hold (p99 from due time under 100 ms for the
 * whole run, nothing failed), or down by 0.1× until one holds. Each step is a whole run of its own.
 * The capacity is the highest rate that held; null if none down to 0.2× did.
 */
export async function searchOpenLoopCapacity(
  closedRatePerSecond: number,
  runAt: (ratePerSecond: number, share: number) => Promise<StepResult>,
  { maxShare = 1.3, minShare = 0.2 }: { maxShare?: number; minShare?: number } = {},
): Promise<{ capacityPerSecond: number | null; at80: CapacityStep; steps: CapacityStep[] }> {
  const steps: CapacityStep[] = [];
  const step = async (share: number) => {
    const ratePerSecond = Math.max(1, Math.round(closedRatePerSecond * share));
    const r = await runAt(ratePerSecond, share);
    const s: CapacityStep = {
      share,
      ratePerSecond,
      p99Ms: r.p99Ms,
      answeredPerSecond: r.answeredPerSecond,
      failed: r.failed,
      held: r.p99Ms < CAPACITY_P99_MS && r.failed === 0,
    };
    steps.push(s);
    return s;
  };
  const at80 = await step(0.8);
  const tenths = (x: number) => Math.round(x * 10) / 10;
  let capacity: CapacityStep | null = at80.held ? at80 : null;
  if (at80.held) {
    for (let share = 0.9; share <= maxShare + 1e-9; share = tenths(share + 0.1)) {
      const s = await step(share);
      if (!s.held) break;
      capacity = s;
    }
  } else {
    for (let share = 0.7; share >= minShare - 1e-9; share = tenths(share - 0.1)) {
      const s = await step(share);
      if (s.held) {
        capacity = s;
        break;
      }
    }
  }
  return { capacityPerSecond: capacity ? capacity.ratePerSecond : null, at80, steps };
}
