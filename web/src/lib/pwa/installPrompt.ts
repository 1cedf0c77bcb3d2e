import { create } from 'zustand';

/** Chromium's install prompt event (not in the DOM typings). */
export interface BeforeInstallPromptEvent extends Event {
  prompt: () => Promise<void>;
  readonly userChoice: Promise<{ outcome: 'accepted' | 'dismissed'; platform: string }>;
}

export const INSTALL_DISMISSED_KEY = 'tribuna-install-dismissed';
export const INSTALL_BANNER_DELAY_MS = 30_000;

interface InstallPromptState {
  /** The browser's deferred prompt; null until offered, and again once used. */
  deferredPrompt: BeforeInstallPromptEvent | null;
  /** When the app started: the banner waits 30 s from here, not from when the home page mounts. */
  loadedAt: number;
}

export const useInstallPromptStore = create<InstallPromptState>()(() => ({
  deferredPrompt: null,
  loadedAt: Date.now(),
}));

/** Keeps the browser's install prompt for our own banner. Call once at startup; returns a cleanup. */
export function listenForInstallPrompt(): () => void {
  function onBeforeInstallPrompt(event: Event) {
    event.preventDefault();
    useInstallPromptStore.setState({ deferredPrompt: event as BeforeInstallPromptEvent });
  }
  function onAppInstalled() {
    useInstallPromptStore.setState({ deferredPrompt: null });
  }
  window.addEventListener('beforeinstallprompt', onBeforeInstallPrompt);
  window.addEventListener('appinstalled', onAppInstalled);
  return () => {
    window.removeEventListener('beforeinstallprompt', onBeforeInstallPrompt);
    window.removeEventListener('appinstalled', onAppInstalled);
  };
}

/** Running as an installed app (Android/desktop standalone window, or iOS home-screen app). */
export function isRunningInstalled(): boolean {
  const standalone = typeof window.matchMedia === 'function' && window.matchMedia('(display-mode: standalone)').matches;
  return standalone || (navigator as Navigator & { standalone?: boolean }).standalone === true;
}

export function wasInstallBannerDismissed(): boolean {
  try {
    return localStorage.getItem(INSTALL_DISMISSED_KEY) === '1';
  } catch {
    return false;
  }
}

export function rememberInstallBannerDismissed(): void {
  try {
    localStorage.setItem(INSTALL_DISMISSED_KEY, '1');
  } catch {
    // Without storage the banner simply stays closed for this visit.
  }
}
