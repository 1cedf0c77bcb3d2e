import { vi } from 'vitest';

/** An IntersectionObserver stand-in: the test says when an element enters or leaves the screen. */
export class FakeIntersectionObserver {
  static instances = new Set<FakeIntersectionObserver>();
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

  /** Whether some observer watches `element` (the page observes its cards in an effect, after they render). */
  static observes(element: Element): boolean {
    return [...FakeIntersectionObserver.instances].some((o) => o.elements.has(element));
  }

  observe(element: Element) {
    this.elements.add(element);
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
    for (const observer of [...FakeIntersectionObserver.instances]) {
      if (!observer.elements.has(element)) continue;
      const rect = element.getBoundingClientRect();
      const entry = { target: element, isIntersecting, intersectionRatio: isIntersecting ? 1 : 0, boundingClientRect: rect, intersectionRect: rect, rootBounds: null, time: 0 };
      observer.callback([entry as IntersectionObserverEntry], observer as unknown as IntersectionObserver);
    }
  }

  /** Observers created with this root margin. */
  static withMargin(rootMargin: string) {
    return [...FakeIntersectionObserver.instances].filter((o) => o.rootMargin === rootMargin);
  }
}

export function installFakeIntersectionObserver() {
  FakeIntersectionObserver.instances.clear();
  vi.stubGlobal('IntersectionObserver', FakeIntersectionObserver);
}
