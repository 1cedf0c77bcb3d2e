import { lazy } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
import { useSessionStore } from '../../lib/session/sessionStore';
import { AdminLayout } from './AdminLayout';
import { MODERATION_PATH, seesWholeBackOffice } from './staffAccess';

// The back-office (spec admin-backoffice.md §2), mounted by app/routes.tsx under /admin/* as one
// lazy chunk behind RequireAuth role="moderator" (site admins and moderators). Its routes live here, not in the app's route table,
// so the home page's bundle carries nothing of the admin area; each screen is a chunk of its own.
const DashboardPage = lazy(() => import('./dashboard/DashboardPage').then((m) => ({ default: m.DashboardPage })));
const RealitiesPage = lazy(() => import('./realities/RealitiesPage').then((m) => ({ default: m.RealitiesPage })));
const SeasonsPage = lazy(() => import('./seasons/SeasonsPage').then((m) => ({ default: m.SeasonsPage })));
const ContestantsPage = lazy(() => import('./contestants/ContestantsPage').then((m) => ({ default: m.ContestantsPage })));
const PollsPage = lazy(() => import('./polls/PollsPage').then((m) => ({ default: m.PollsPage })));
const ReportsPage = lazy(() => import('./reports/ReportsPage').then((m) => ({ default: m.ReportsPage })));
const AbusePage = lazy(() => import('./abuse/AbusePage').then((m) => ({ default: m.AbusePage })));
const UsersPage = lazy(() => import('./users/UsersPage').then((m) => ({ default: m.UsersPage })));
const AuditPage = lazy(() => import('./audit/AuditPage').then((m) => ({ default: m.AuditPage })));
const QueuesPage = lazy(() => import('./queues/QueuesPage').then((m) => ({ default: m.QueuesPage })));
const ModerationPage = lazy(() => import('./moderation/ModerationPage').then((m) => ({ default: m.ModerationPage })));

/**
 * /admin/*: the shell around the screen of the path; any other path under /admin goes to /admin.
 * A moderator gets the moderation queue only: /admin and every other path go there.
 */
export function AdminPage() {
  const role = useSessionStore((state) => state.user?.role);
  if (!seesWholeBackOffice(role)) {
    return (
      <Routes>
        <Route element={<AdminLayout />}>
          <Route path="moderacion" element={<ModerationPage />} />
          <Route path="*" element={<Navigate to={MODERATION_PATH} replace />} />
        </Route>
      </Routes>
    );
  }
  return (
    <Routes>
      <Route element={<AdminLayout />}>
        <Route index element={<DashboardPage />} />
        <Route path="realitys" element={<RealitiesPage />} />
        <Route path="temporadas" element={<SeasonsPage />} />
        <Route path="concursantes" element={<ContestantsPage />} />
        <Route path="encuestas" element={<PollsPage />} />
        <Route path="informes" element={<ReportsPage />} />
        <Route path="usuarios" element={<UsersPage />} />
        <Route path="abuse-report" element={<AbusePage />} />
        <Route path="auditoria" element={<AuditPage />} />
        <Route path="colas" element={<QueuesPage />} />
        <Route path="moderacion" element={<ModerationPage />} />
        <Route path="*" element={<Navigate to="/admin" replace />} />
      </Route>
    </Routes>
  );
}
