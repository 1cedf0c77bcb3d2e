import { useCallback, useEffect, useState } from 'react';
import { INSTALL_BANNER_DELAY_MS, isRunningInstalled, rememberInstallBannerDismissed, useInstallPromptStore, wasInstallBannerDismissed } from './installPrompt';

/**
 * The install banner's rule: visible 30 s after load, when the browser offered an install
 * prompt, the app is not running installed and the banner was never dismissed.
 */
export function useInstallBanner() {
  const deferredPrompt = useInstallPromptStore((state) => state.deferredPrompt);
  const loadedAt = useInstallPromptStore((state) => state.loadedAt);
  const [delayOver, setDelayOver] = useState(() => Date.now() - loadedAt >= INSTALL_BANNER_DELAY_MS);
  const [dismissed, setDismissed] = useState(wasInstallBannerDismissed);

  useEffect(() => {
    if (delayOver) return;
    const timer = setTimeout(() => setDelayOver(true), loadedAt + INSTALL_BANNER_DELAY_MS - Date.now());
    return () => clearTimeout(timer);
  }, [delayOver, loadedAt]);

  const install = useCallback(async () => {
    if (!deferredPrompt) return;
    // A prompt can be used once; whatever the answer, the banner has done its job.
    useInstallPromptStore.setState({ deferredPrompt: null });
    try {
      await deferredPrompt.prompt();
      await deferredPrompt.userChoice;
    } catch (error) {
      console.debug('No se pudo mostrar la instalación', error);
    }
  }, [deferredPrompt]);

  const dismiss = useCallback(() => {
    rememberInstallBannerDismissed();
    setDismissed(true);
  }, []);

  const visible = delayOver && !dismissed && deferredPrompt !== null && !isRunningInstalled();
  return { visible, install, dismiss };
}
