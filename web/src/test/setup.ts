import { afterEach, beforeEach, vi } from 'vitest';
import { cleanup, configure } from '@testing-library/react';
import { liveClient } from '../lib/live/liveClient';
import { useLiveResultsStore } from '../features/polls/liveResultsStore';
import { connectPollsToLive } from '../features/polls/livePoll';
import { FakeWebSocket } from './fakeWebSocket';
import { installConsoleGuard } from './consoleGuard';

// As web/src/main.tsx does for the app.
connectPollsToLive(liveClient);

installConsoleGuard();

// findBy* and waitFor wait for what they look for; the bound is only how long before giving up.
// 1 s (the default) is too little on a slow or busy machine, where a lazy screen's first import is
// transformed on demand: give up after 5 s (the test's own timeout is web/vitest.config.ts's).
configure({ asyncUtilTimeout: 5_000 });

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
  // No test opens a real socket: pages that watch live results get a fake one they never hear from.
  FakeWebSocket.reset();
  vi.stubGlobal('WebSocket', FakeWebSocket);
});

afterEach(() => {
  cleanup();
  // A test that pinned the clock (pinClock) or faked timers gets the real ones back.
  vi.useRealTimers();
  liveClient.stop();
  useLiveResultsStore.getState().reset();
  localStorage.clear();
  document.documentElement.className = '';
  document.documentElement.removeAttribute('style');
});
