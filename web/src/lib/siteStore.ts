import { useEffect } from 'react';
import { create } from 'zustand';
import type { SiteConfig } from '@tribuna/contracts/api/site';
import { callApi } from './api';

type SiteStatus = 'idle' | 'loading' | 'ready' | 'error';

interface SiteState {
  config: SiteConfig | null;
  status: SiteStatus;
  /** Loads GET /api/site once; later calls do nothing unless the first one failed. */
  load: () => Promise<void>;
}

export const useSiteStore = create<SiteState>()((set, get) => ({
  config: null,
  status: 'idle',
  async load() {
    const { status } = get();
    if (status === 'loading' || status === 'ready') return;
    set({ status: 'loading' });
    try {
      set({ config: await callApi('site'), status: 'ready' });
    } catch (error) {
      console.debug('No se pudo cargar la configuración del sitio', error);
      set({ status: 'error' });
    }
  },
}));

/** The site configuration, loaded on first use; null until it arrives (or if it cannot be loaded). */
export function useSiteConfig(): SiteConfig | null {
  const config = useSiteStore((state) => state.config);
  const status = useSiteStore((state) => state.status);
  const load = useSiteStore((state) => state.load);
  useEffect(() => {
    if (status === 'idle') void load();
  }, [status, load]);
  return config;
}
