import { useEffect, useState, type RefObject } from 'react';

/**
 * Whether the element is on screen (with `rootMargin` around the viewport). Without
 * IntersectionObserver (old browsers, tests that do not stub it) it answers `fallback`.
 */
export function useOnScreen(ref: RefObject<Element | null>, rootMargin = '0px', fallback = true): boolean {
  const [visible, setVisible] = useState(false);
  const supported = typeof IntersectionObserver !== 'undefined';
  useEffect(() => {
    const element = ref.current;
    if (!element || !supported) return;
    const observer = new IntersectionObserver(
      (entries) => {
        const entry = entries[entries.length - 1];
        if (entry) setVisible(entry.isIntersecting);
      },
      { rootMargin },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, rootMargin, supported]);
  return supported ? visible : fallback;
}
