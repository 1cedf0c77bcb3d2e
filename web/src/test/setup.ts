import { afterEach, beforeEach } from 'vitest';
import { cleanup } from '@testing-library/react';

/** jsdom has no matchMedia: answer "no match" unless a test stubs it with vi.stubGlobal. */
function defaultMatchMedia(query: string): MediaQueryList {
  return {
    matches: false,
    media: query,
    onchange: null,
    addEventListener: () => {},
    removeEventListener: () => {},
    addListener: () => {},
    removeListener: () => {},
    dispatchEvent: () => false,
  };
}

beforeEach(() => {
  window.matchMedia = defaultMatchMedia;
  // jsdom does not implement scrolling (used by the router's scroll restoration).
  window.scrollTo = () => {};
});

afterEach(() => {
  cleanup();
  localStorage.clear();
  document.documentElement.className = '';
  document.documentElement.removeAttribute('style');
});
