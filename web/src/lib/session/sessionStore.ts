import { create } from 'zustand';
import type { AuthSession } from '@tribuna/contracts/api/auth';
import type { Profile } from '@tribuna/contracts/api/me';
import { callApi } from '../api';

export type SessionStatus = 'loading' | 'ready';

/** Where the browser stands in the sign-in flow (never a 401). */
export const fetchAuthSession = (signal?: AbortSignal) => callApi('authSession', { signal });

interface SessionState {
  user: Profile | null;
  /** The signed-in user's own e-mail, when the session answer carries it (the admin header shows it). */
  email: string | null;
  status: SessionStatus;
  /**
   * Set while Google sign-in succeeded but the second step (a TOTP code) is still missing: the
   * factor to challenge. `user` stays null then, as every protected route treats it as signed out.
   */
  mfaFactorId: string | null;
  /** Reads GET /api/auth/session; any failure means "signed out". */
  load: () => Promise<void>;
  /** Adopts a session the server just answered (session read, dev login, code verification). */
  setFromAuthSession: (session: AuthSession) => void;
  /** Ends the server session (a failure is only logged) and forgets the user. */
  signOut: () => Promise<void>;
  setUser: (user: Profile | null) => void;
  /**
   * Replaces the signed-in user's profile with a fresher copy (what PATCH /api/me answered), so the
   * navigation bar's avatar and name change at once. Ignored when nobody, or somebody else, is signed in.
   */
  replaceProfile: (profile: Profile) => void;
  /** Forgets the session here without asking the server (it already ended it, e.g. after deleting the account). */
  clearLocally: () => void;
}

function fromAuthSession(session: AuthSession): Pick<SessionState, 'user' | 'email' | 'mfaFactorId'> {
  if (session.status === 'signed_in' && session.user) return { user: session.user, email: session.email ?? null, mfaFactorId: null };
  if (session.status === 'mfa_required' && session.factorId) return { user: null, email: null, mfaFactorId: session.factorId };
  return { user: null, email: null, mfaFactorId: null };
}

// Bumped by every change of session; a `load` that started before one must not overwrite it
// (e.g. the start-up read answering after the user already entered their code).
let revision = 0;

export const useSessionStore = create<SessionState>()((set, get) => ({
  user: null,
  email: null,
  status: 'loading',
  mfaFactorId: null,

  async load() {
    const started = revision;
    let next: Pick<SessionState, 'user' | 'email' | 'mfaFactorId'>;
    try {
      next = fromAuthSession(await fetchAuthSession());
    } catch (error) {
      console.debug('No se pudo cargar la sesión', error);
      next = { user: null, email: null, mfaFactorId: null };
    }
    if (started === revision) set({ ...next, status: 'ready' });
  },

  setFromAuthSession(session) {
    revision += 1;
    set({ ...fromAuthSession(session), status: 'ready' });
  },

  async signOut() {
    try {
      await callApi('logout');
    } catch (error) {
      console.debug('Error al cerrar sesión', error);
    }
    revision += 1;
    set({ user: null, email: null, mfaFactorId: null, status: 'ready' });
  },

  setUser(user) {
    revision += 1;
    set({ user, status: 'ready' });
  },

  replaceProfile(profile) {
    if (get().user?.id !== profile.id) return;
    revision += 1;
    set({ user: profile });
  },

  clearLocally() {
    revision += 1;
    set({ user: null, email: null, mfaFactorId: null, status: 'ready' });
  },
}));
