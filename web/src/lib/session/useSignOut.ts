import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { useSessionStore } from './sessionStore';

/** Signs out, then goes to /login (the spec's "Cerrar sesión"). */
export function useSignOut(): () => Promise<void> {
  const signOut = useSessionStore((state) => state.signOut);
  const navigate = useNavigate();
  return useCallback(async () => {
    await signOut();
    navigate('/login', { replace: true });
  }, [signOut, navigate]);
}
