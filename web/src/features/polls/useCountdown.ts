import { useEffect, useState } from 'react';

/**
 * Milliseconds left until `endDate` (never negative), or null without an end date.
 * Re-renders every second only while `active` and time remains.
 */
export function useCountdown(endDate: string | null, active: boolean): number | null {
  const endMs = endDate ? Date.parse(endDate) : Number.NaN;
  const [now, setNow] = useState(() => Date.now());
  const ticking = active && Number.isFinite(endMs) && endMs > now;

  useEffect(() => {
    if (!ticking) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [ticking]);

  return Number.isFinite(endMs) ? Math.max(0, endMs - now) : null;
}
