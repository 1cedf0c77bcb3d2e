import { create } from 'zustand';
import type { Profile } from '@tribuna/contracts';
import { ApiError, apiGet, apiPost } from '../../lib/api';

export type SessionStatus = 'loading' | 'ready';

interface SessionState {
  user: Profile | null;
  status: SessionStatus;
  /** Reads the signed-in profile from GET /api/me; a 401 or any failure means "signed out". */
  load: () => Promise<void>;
  /** Ends the server session (a failure is only logged) and forgets the user. */
  signOut: () => Promise<void>;
  setUser: (user: Profile | null) => void;
}

export const useSessionStore = create<SessionState>()((set) => ({
  user: null,
  status: 'loading',

  async load() {
    try {
      const user = await apiGet<Profile>('/api/me');
      set({ user, status: 'ready' });
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 401)) {
        console.debug('No se pudo cargar la sesión', error);
      }
      set({ user: null, status: 'ready' });
    }
  },

  async signOut() {
    try {
      await apiPost('/auth/logout');
    } catch (error) {
      console.debug('Error al cerrar sesión', error);
    }
    set({ user: null, status: 'ready' });
  },

  setUser(user) {
    set({ user, status: 'ready' });
  },
}));
