import { afterEach, beforeEach, vi } from 'vitest';
import { cleanup } from '@testing-library/react';
import { liveClient } from '../lib/live/liveClient';
import { useLiveResultsStore } from '../features/polls/liveResultsStore';
import { connectPollsToLive } from '../features/polls/livePoll';
import { FakeWebSocket } from './fakeWebSocket';

// As web/src/main.tsx does for the app.
connectPollsToLive(liveClient);

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
  liveClient.stop();
  useLiveResultsStore.getState().reset();
  localStorage.clear();
  document.documentElement.className = '';
  document.documentElement.removeAttribute('style');
});
