import { useSyncExternalStore } from 'react';

// One shared clock for every card's 'hace 5 minutos', ticking once a minute while someone reads it.
let now = Date.now();
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | null = null;

function subscribe(listener: () => void) {
  listeners.add(listener);
  if (!timer) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      for (const l of listeners) l();
    }, 60_000);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = null;
    }
  };
}

/**
 * The clock's time: while no card ticks it (before the first one subscribes, or after the last left)
 * it is read afresh, so a card shown after a quiet while (or after the device's clock was set back)
 * never starts from another time. Within a second the same value comes back, as
 * useSyncExternalStore requires of repeated reads.
 */
function snapshot(): number {
  if (!timer && Math.abs(Date.now() - now) > 1_000) now = Date.now();
  return now;
}

/** The current time, refreshed every minute. */
export const useMinuteClock = () => useSyncExternalStore(subscribe, snapshot, snapshot);
