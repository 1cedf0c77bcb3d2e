import { vi } from 'vitest';

/**
 * Pins Date (Date.now(), new Date()) to `at` for the running test, timers left real: what a test
 * asserting a relative time, a countdown or a day needs, however slowly it runs. The setup file
 * puts the real clock back after each test.
 */
export function pinClock(at: number | string | Date): void {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(at);
}
