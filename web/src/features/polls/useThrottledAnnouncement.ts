import { useEffect, useRef, useState } from 'react';
import { useLatest } from '../../lib/useLatest';

/** How often, at most, a screen reader hears that the live results moved. */
export const LIVE_ANNOUNCE_INTERVAL_MS = 5_000;

/**
 * The text for a polite live region that follows `message`, at most once per `intervalMs`: the
 * first change is announced at once, later ones wait for the interval to pass and then only the
 * latest is announced (a websocket may push several snapshots a second; a screen reader user
 * must not hear each of them). The message present on mount is not announced: the page shows it.
 */
export function useThrottledAnnouncement(message: string, intervalMs = LIVE_ANNOUNCE_INTERVAL_MS): string {
  const [announced, setAnnounced] = useState('');
  const lastSpoken = useRef(message);
  const lastAt = useRef(-Infinity);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const latest = useLatest(message);

  useEffect(() => {
    if (message === lastSpoken.current) return;
    if (timer.current) return; // the pending announcement will read the latest message
    const speak = () => {
      timer.current = null;
      if (latest.current === lastSpoken.current) return;
      lastSpoken.current = latest.current;
      lastAt.current = Date.now();
      setAnnounced(latest.current);
    };
    const wait = lastAt.current + intervalMs - Date.now();
    if (wait <= 0) speak();
    else timer.current = setTimeout(speak, wait);
  }, [message, intervalMs, latest]);

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  return announced;
}
