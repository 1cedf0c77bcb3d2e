import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { registerSW } from 'virtual:pwa-register';
import { App } from './app/App';
import { useSessionStore } from './lib/session/sessionStore';
import { reconnectLiveOnSessionChange } from './app/liveSession';
import { connectPollsToLive } from './features/polls/livePoll';
import { liveClient } from './lib/live/liveClient';
import { listenForInstallPrompt } from './lib/pwa/installPrompt';
import './index.css';

// Start early: the install prompt can fire before any screen mounts, and every screen needs the session.
listenForInstallPrompt();
void useSessionStore.getState().load();
reconnectLiveOnSessionChange();
connectPollsToLive(liveClient);
// The service worker (and workbox-window) only after the page has loaded and gone idle: its
// download and precaching never compete with the home poll on a slow phone connection.
if ('serviceWorker' in navigator) {
  const register = () => registerSW({ immediate: true });
  const whenIdle = () => ('requestIdleCallback' in window ? window.requestIdleCallback(register, { timeout: 10_000 }) : setTimeout(register, 3000));
  if (document.readyState === 'complete') whenIdle();
  else window.addEventListener('load', whenIdle, { once: true });
}

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element');
createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
