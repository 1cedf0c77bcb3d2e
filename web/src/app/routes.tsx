import { Navigate, type RouteObject } from 'react-router-dom';
import { RouteError } from '../components/RouteError';
import { AdminPage } from '../features/admin/AdminPage';
import { AuthCallbackPage } from '../features/auth/AuthCallbackPage';
import { LoginPage } from '../features/auth/LoginPage';
import { GroupsPage } from '../features/groups/GroupsPage';
import { PrivacyPage } from '../features/legal/PrivacyPage';
import { TermsPage } from '../features/legal/TermsPage';
import { NotificationsPage } from '../features/notifications/NotificationsPage';
import { HomePage } from '../features/polls/HomePage';
import { ProfilePage } from '../features/profile/ProfilePage';
import { WallPage } from '../features/wall/WallPage';
import { Layout, type RouteHandle } from './Layout';
import { RequireAuth } from './RequireAuth';

const publicPage: RouteHandle = { footer: true };

/** Every web route of the spec (§2). Guards follow app/guards.ts. */
export const routes: RouteObject[] = [
  {
    element: <Layout />,
    errorElement: <RouteError />,
    children: [
      { index: true, element: <HomePage />, handle: publicPage },
      { path: 'login', element: <LoginPage /> },
      { path: 'auth/callback', element: <AuthCallbackPage /> },
      { path: 'terminos', element: <TermsPage />, handle: publicPage },
      { path: 'privacidad', element: <PrivacyPage />, handle: publicPage },
      { path: 'perfil/:userId', element: <ProfilePage /> },
      {
        element: <RequireAuth />,
        children: [
          { path: 'wall', element: <WallPage /> },
          { path: 'grupos', element: <GroupsPage /> },
          { path: 'notificaciones', element: <NotificationsPage /> },
          { path: 'perfil', element: <ProfilePage /> },
        ],
      },
      {
        path: 'admin/*',
        element: (
          <RequireAuth role="admin">
            <AdminPage />
          </RequireAuth>
        ),
      },
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
];
