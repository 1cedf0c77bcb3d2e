import { lazy, Suspense, useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { useReportStore } from '../lib/reports';

// The report dialog is its own chunk, fetched the first time a fan chooses 'Reportar'.
const ReportDialogHost = lazy(() => import('../features/moderation/ReportDialog').then((m) => ({ default: m.ReportDialogHost })));

/**
 * The report dialog of every page: posts, comments and profiles ask for it through lib/reports
 * (features never import each other), and the shell shows it here. Going to another page (the
 * browser's back button included) closes it.
 */
export function ReportHost() {
  const open = useReportStore((state) => state.subject !== null);
  const { key } = useLocation();
  useEffect(() => () => useReportStore.getState().close(), [key]);
  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <ReportDialogHost />
    </Suspense>
  );
}
