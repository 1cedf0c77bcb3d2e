import { vi } from 'vitest';

/**
 * An IntersectionObserver stand-in: the test says when an element enters or leaves the screen.
 * Like the real one, an observer reports an element's current state right after it starts to
 * watch it, so a test may say an element is on screen before the page has begun to observe it.
 */
export class FakeIntersectionObserver {
  static instances = new Set<FakeIntersectionObserver>();
  /** What the test last said about each element. */
  static states = new WeakMap<Element, boolean>();
  readonly elements = new Set<Element>();
  readonly root = null;
  readonly rootMargin: string;
  readonly thresholds = [0];

  constructor(
    private readonly callback: IntersectionObserverCallback,
    options: IntersectionObserverInit = {},
  ) {
    this.rootMargin = options.rootMargin ?? '0px';
    FakeIntersectionObserver.instances.add(this);
  }

  observe(element: Element) {
    this.elements.add(element);
    const state = FakeIntersectionObserver.states.get(element);
    if (state === undefined) return;
    queueMicrotask(() => {
      if (this.elements.has(element)) this.report(element, state);
    });
  }

  unobserve(element: Element) {
    this.elements.delete(element);
  }

  disconnect() {
    this.elements.clear();
    FakeIntersectionObserver.instances.delete(this);
  }

  takeRecords(): IntersectionObserverEntry[] {
    return [];
  }

  /** Tells every observer watching `element` that it is (or no longer is) intersecting. */
  static trigger(element: Element, isIntersecting: boolean) {
    FakeIntersectionObserver.states.set(element, isIntersecting);
    for (const observer of [...FakeIntersectionObserver.instances]) {
      if (observer.elements.has(element)) observer.report(element, isIntersecting);
    }
  }

  private report(element: Element, isIntersecting: boolean) {
    const rect = element.getBoundingClientRect();
    const entry = {
      target: element,
      isIntersecting,
      intersectionRatio: isIntersecting ? 1 : 0,
      boundingClientRect: rect,
      intersectionRect: rect,
      rootBounds: null,
      time: 0,
    };
    this.callback([entry as IntersectionObserverEntry], this as unknown as IntersectionObserver);
  }

  /** Observers created with this root margin. */
  static withMargin(rootMargin: string) {
    return [...FakeIntersectionObserver.instances].filter((o) => o.rootMargin === rootMargin);
  }
}

export function installFakeIntersectionObserver() {
  FakeIntersectionObserver.instances.clear();
  FakeIntersectionObserver.states = new WeakMap();
  vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
}
