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
