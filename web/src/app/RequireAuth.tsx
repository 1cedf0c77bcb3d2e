import type { ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import type { Role } from '@tribuna/contracts/roles';
import { useSessionStore } from '../lib/session/sessionStore';
import { PageSpinner } from '../components/Spinner';
import { resolveAccess } from './guards';

interface RequireAuthProps {
  role?: Role;
  /** The protected content; without it the matched child route renders. */
  children?: ReactNode;
}

/** Protects a route with the rules of `resolveAccess`, waiting for the session before deciding. */
export function RequireAuth({ role, children }: RequireAuthProps) {
  const user = useSessionStore((state) => state.user);
  const status = useSessionStore((state) => state.status);
  const location = useLocation();

  if (status === 'loading') return <PageSpinner label="Comprobando tu sesión…" />;

  const access = resolveAccess(user, role);
  if (access !== 'allow') {
    // The login page may send the user back to where they were going.
    return <Navigate to={access} replace state={access === '/login' ? { from: location.pathname } : undefined} />;
  }
  return children ?? <Outlet />;
}
