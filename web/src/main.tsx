import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { registerSW } from 'virtual:pwa-register';
import { App } from './app/App';
import { useSessionStore } from './features/auth/sessionStore';
import { reconnectLiveOnSessionChange } from './features/live/sessionSync';
import { listenForInstallPrompt } from './features/pwa/installPrompt';
import './index.css';

// Start early: the install prompt can fire before any screen mounts, and every screen needs the session.
listenForInstallPrompt();
void useSessionStore.getState().load();
reconnectLiveOnSessionChange();
if ('serviceWorker' in navigator) registerSW({ immediate: true });

const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element');
createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
