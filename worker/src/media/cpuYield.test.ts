import { describe, expect, it } from 'vitest';
import { machineBusyTicks, processTicks, yieldWhileBusy, type CpuYieldDeps } from './cpuYield.ts';

/** A fake machine: a clock, timers, and CPU counters the test moves; the signals the governor sent. */
function fakeMachine({ cores = 2 } = {}) {
  let now = 0;
  const timers: { at: number; fn: () => void; id: number }[] = [];
  let nextId = 1;
  const machine: {
    busyTicks: number;
    processTicks: number | null;
    signals: { at: number; signal: string }[];
    advance(ms: number, load?: { othersCores?: number; processCores?: number }): void;
    deps: CpuYieldDeps;
  } = {
    busyTicks: 0,
    processTicks: 0 as number | null,
    signals: [] as { at: number; signal: string }[],
    /** Moves the clock, firing due timers in order; `othersCores` of the others' CPU and the process's own while it runs. */
    advance(ms: number, { othersCores = 0, processCores = 1 } = {}) {
      const end = now + ms;
      for (;;) {
        timers.sort((a, b) => a.at - b.at || a.id - b.id);
        const next = timers[0];
        const until = next && next.at <= end ? next.at : end;
        const seconds = (until - now) / 1000;
        const running = machine.processTicks !== null && machine.signals.at(-1)?.signal !== 'SIGSTOP';
        const own = running ? processCores * seconds * 100 : 0;
        machine.busyTicks += othersCores * seconds * 100 + own;
        if (machine.processTicks !== null) machine.processTicks += own;
        now = until;
        if (!next || next.at > end) break;
        timers.shift();
        next.fn();
      }
    },
    deps: {
      sample: () => ({ machineBusyTicks: machine.busyTicks, processTicks: machine.processTicks }),
      signal: (_pid: number, signal: 'SIGSTOP' | 'SIGCONT') => {
        if (machine.processTicks === null) throw new Error('ESRCH');
        machine.signals.push({ at: now, signal });
      },
      now: () => now,
      setTimeout: (fn: () => void, ms: number) => {
        const timer = { at: now + ms, fn, id: nextId++ };
        timers.push(timer);
        return timer.id;
      },
      clearTimeout: (id: unknown) => {
        const at = timers.findIndex((t) => t.id === id);
        if (at >= 0) timers.splice(at, 1);
      },
      ticksPerSecond: 100,
      cores,
    },
  };
  return machine;
}

describe('yieldWhileBusy', () => {
  it('leaves the process running while the rest of the machine is quiet', () => {
    const machine = fakeMachine();
    const governor = yieldWhileBusy(42, { periodMs: 200, runShare: 0.2 }, machine.deps);
    machine.advance(2000, { othersCores: 0.3 });
    expect(machine.signals).toEqual([]);
    expect(governor.stoppedMs()).toBe(0);
    governor.release();
  });

  it('runs it for a share of each period only while the others keep the cores busy, then lets it run again', () => {
    const machine = fakeMachine();
    const governor = yieldWhileBusy(42, { periodMs: 200, runShare: 0.2 }, machine.deps);
    machine.advance(200, { othersCores: 1.5 }); // the first period measures: busy
    machine.advance(1000, { othersCores: 1.5 });
    // Stopped 40 ms into every period, continued at the next one.
    expect(machine.signals.slice(0, 4)).toEqual([
      { at: 240, signal: 'SIGSTOP' },
      { at: 400, signal: 'SIGCONT' },
      { at: 440, signal: 'SIGSTOP' },
      { at: 600, signal: 'SIGCONT' },
    ]);
    const stopped = governor.stoppedMs();
    expect(stopped).toBe(5 * 160);
    // The audience leaves: one more period is measured busy, then it runs without stops.
    const before = machine.signals.length;
    machine.advance(2000, { othersCores: 0.2 });
    const after = machine.signals.slice(before);
    expect(after.filter((s) => s.signal === 'SIGSTOP').length).toBeLessThanOrEqual(1);
    expect(machine.signals.at(-1)!.signal).toBe('SIGCONT');
    expect(governor.stoppedMs()).toBeLessThanOrEqual(stopped + 160);
    governor.release();
  });

  it("does not count the process's own CPU as the machine being busy", () => {
    const machine = fakeMachine();
    const governor = yieldWhileBusy(42, {}, machine.deps);
    machine.advance(3000, { othersCores: 0.4, processCores: 1 });
    expect(machine.signals).toEqual([]);
    governor.release();
  });

  it('continues a stopped process when released, and stops governing', () => {
    const machine = fakeMachine();
    const governor = yieldWhileBusy(42, { periodMs: 200, runShare: 0.2 }, machine.deps);
    machine.advance(250, { othersCores: 2 });
    expect(machine.signals.at(-1)).toEqual({ at: 240, signal: 'SIGSTOP' });
    governor.release();
    expect(machine.signals.at(-1)).toEqual({ at: 250, signal: 'SIGCONT' });
    const count = machine.signals.length;
    machine.advance(2000, { othersCores: 2 });
    expect(machine.signals).toHaveLength(count);
  });

  it('stops governing once the process is gone', () => {
    const machine = fakeMachine();
    yieldWhileBusy(42, { periodMs: 200, runShare: 0.2 }, machine.deps);
    machine.advance(300, { othersCores: 2 });
    machine.processTicks = null;
    const count = machine.signals.length;
    machine.advance(2000, { othersCores: 2 });
    expect(machine.signals).toHaveLength(count);
  });
});

describe('/proc parsing', () => {
  it("reads the machine's busy ticks from /proc/stat's cpu line (user, nice, system, irq, softirq, steal)", () => {
    expect(machineBusyTicks('cpu  100 20 30 5000 7 1 2 3 0 0\ncpu0 50 10 15 2500 3 0 1 1 0 0\n')).toBe(100 + 20 + 30 + 1 + 2 + 3);
  });

  it("reads a process's user and system ticks from /proc/<pid>/stat, whatever its command name holds", () => {
    const stat = '4242 (ff mpeg) (x)) S 1 4242 4242 0 -1 4194560 1000 0 0 0 321 45 0 0 39 19 1 0 100 200000 3000';
    expect(processTicks(stat)).toBe(321 + 45);
  });
});
