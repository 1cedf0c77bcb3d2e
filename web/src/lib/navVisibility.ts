import { useLocation } from 'react-router-dom';
import { useSessionStore } from './session/sessionStore';

export const isAdminPath = (pathname: string) => pathname === '/admin' || pathname.startsWith('/admin/');

/** The navigation bar shows only to signed-in users, and never on the back-office. */
export function useNavBarVisible(): boolean {
  const signedIn = useSessionStore((state) => state.user !== null);
  const { pathname } = useLocation();
  return signedIn && !isAdminPath(pathname);
}
