import { lazy } from 'react';
import { Navigate, type RouteObject } from 'react-router-dom';
import { RouteError } from '../components/RouteError';
import { HomePage } from '../features/polls/HomePage';
import { Layout, type RouteHandle } from './Layout';
import { RequireAuth } from './RequireAuth';

// Every page but home is its own chunk, loaded when first visited (Layout shows a spinner meanwhile):
// a fan opening the home poll on a phone downloads only what the home needs.
const LoginPage = lazy(() => import('../features/auth/LoginPage').then((m) => ({ default: m.LoginPage })));
const AuthCallbackPage = lazy(() => import('../features/auth/AuthCallbackPage').then((m) => ({ default: m.AuthCallbackPage })));
const TermsPage = lazy(() => import('../features/legal/TermsPage').then((m) => ({ default: m.TermsPage })));
const PrivacyPage = lazy(() => import('../features/legal/PrivacyPage').then((m) => ({ default: m.PrivacyPage })));
const ProfileRoute = lazy(() => import('./ProfileRoute').then((m) => ({ default: m.ProfileRoute })));
const WallPage = lazy(() => import('../features/wall/WallPage').then((m) => ({ default: m.WallPage })));
const GroupsPage = lazy(() => import('../features/groups/GroupsPage').then((m) => ({ default: m.GroupsPage })));
const GroupRoute = lazy(() => import('./GroupRoute').then((m) => ({ default: m.GroupRoute })));
const NotificationsPage = lazy(() => import('../features/notifications/NotificationsPage').then((m) => ({ default: m.NotificationsPage })));
const AdminPage = lazy(() => import('../features/admin/AdminPage').then((m) => ({ default: m.AdminPage })));

const publicPage: RouteHandle = { footer: true, siteHeader: 'visitors' };

/** Every web route of the spec (§2). Guards follow app/guards.ts. */
export const routes: RouteObject[] = [
  {
    element: <Layout />,
    errorElement: <RouteError />,
    children: [
      { index: true, element: <HomePage />, handle: { ...publicPage, siteHeader: 'home' } satisfies RouteHandle },
      { path: 'login', element: <LoginPage /> },
      { path: 'auth/callback', element: <AuthCallbackPage /> },
      { path: 'terminos', element: <TermsPage />, handle: publicPage },
      { path: 'privacidad', element: <PrivacyPage />, handle: publicPage },
      // A shared profile link: visitors get the site header (a way home and to sign in).
      { path: 'perfil/:userId', element: <ProfileRoute />, handle: { siteHeader: 'visitors' } satisfies RouteHandle },
      {
        element: <RequireAuth />,
        children: [
          { path: 'wall', element: <WallPage /> },
          { path: 'grupos', element: <GroupsPage /> },
          { path: 'grupos/:groupId', element: <GroupRoute /> },
          { path: 'notificaciones', element: <NotificationsPage /> },
          { path: 'perfil', element: <ProfileRoute /> },
        ],
      },
      {
        // Site admins and moderators (resolveAccess lets admins through a moderator requirement);
        // AdminPage shows a moderator the moderation queue only.
        path: 'admin/*',
        element: (
          <RequireAuth role="moderator">
            <AdminPage />
          </RequireAuth>
        ),
      },
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
];
