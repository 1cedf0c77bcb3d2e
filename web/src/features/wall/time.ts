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

/** The current time, refreshed every minute. */
export const useMinuteClock = () => useSyncExternalStore(subscribe, () => now, () => now);
