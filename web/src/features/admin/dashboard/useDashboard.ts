import { useEffect } from 'react';
import type { Dashboard } from '@tribuna/contracts/api/admin/polls';
import { callApi } from '../../../lib/api';
import { liveClient } from '../../../lib/live/liveClient';
import { useQuery } from '../../../lib/useQuery';

/**
 * GET /api/admin/dashboard, kept live while the screen is open: the `admin` topic's
 * 'admin-dashboard' messages replace the counters and the recent activity (the recent polls stay as
 * loaded). After a dropped connection the dashboard is read again over HTTP.
 */
export function useDashboard() {
  const query = useQuery(['admin-dashboard'], (signal) => callApi('adminDashboard', { signal }));
  const { setData, refetch } = query;

  useEffect(
    () =>
      liveClient.subscribe('admin', {
        onMessage(message) {
          if (message.type !== 'admin-dashboard') return;
          setData((current: Dashboard) => ({ ...current, stats: message.stats, recentActivity: message.recentActivity }));
        },
        onResync: refetch,
      }),
    [setData, refetch],
  );

  return query;
}
