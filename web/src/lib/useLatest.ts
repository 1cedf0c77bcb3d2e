import { useLayoutEffect, useRef, type RefObject } from 'react';

/**
 * A ref that holds the latest `value`, for effects, timers and handlers that must read it without
 * re-running when it changes. It is written after each render (React forbids writing a ref during
 * one), in a layout effect: before any passive effect of the same commit reads it.
 */
export function useLatest<T>(value: T): RefObject<T> {
  const ref = useRef(value);
  useLayoutEffect(() => {
    ref.current = value;
  });
  return ref;
}
