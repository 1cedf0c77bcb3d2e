import { useEffect, useRef, useState } from 'react';

/** True for a moment after `value` changes (not on mount): drives the brief highlight of a live number. */
export function useChangeFlash(value: unknown, ms = 900): boolean {
  const [flash, setFlash] = useState(false);
  const previous = useRef(value);

  useEffect(() => {
    if (Object.is(previous.current, value)) return;
    previous.current = value;
    setFlash(true);
    const timer = setTimeout(() => setFlash(false), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);

  return flash;
}
