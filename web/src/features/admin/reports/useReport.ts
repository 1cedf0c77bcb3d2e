import { useCallback, useEffect, useRef, useState } from 'react';
import type { ReportPeriod } from '@tribuna/contracts/reportRules';
import { callApi } from '../../../lib/api';
import { useQuery } from '../../../lib/useQuery';
import { reportQuery } from './reportFormat';
import { useLatest } from '../../../lib/useLatest';

/** After a recompute is accepted, the report is read again this long after (the worker's job runs meanwhile). */
export const RECOMPUTE_REFRESH_MS = 4_000;

/**
 * GET /api/admin/reports for a period (custom: only once a range is applied), and the full
 * recompute (POST /api/admin/reports/recompute, a worker job): 'Recalculando…' while the request
 * runs, then a notice, and the report read again in place a few seconds later.
 */
export function useReport(period: ReportPeriod, range: { from: string; to: string } | null) {
  const query = reportQuery(period, range);
  const enabled = period !== 'custom' || range !== null;
  const report = useQuery(['admin-report', query], (signal) => callApi('adminReport', { query, signal }), { enabled });
  const { setData } = report;

  const [recompute, setRecompute] = useState<{ status: 'idle' | 'running' | 'accepted' } | { status: 'error'; error: unknown }>({ status: 'idle' });
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const latestQuery = useLatest(query);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      if (timer.current) clearTimeout(timer.current);
    };
  }, []);

  const startRecompute = useCallback(async () => {
    setRecompute({ status: 'running' });
    try {
      await callApi('recomputeReports');
    } catch (error) {
      if (mounted.current) setRecompute({ status: 'error', error });
      return;
    }
    if (!mounted.current) return;
    setRecompute({ status: 'accepted' });
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      timer.current = null;
      const asked = latestQuery.current;
      // Read again without the skeleton: the figures change in place.
      callApi('adminReport', { query: asked }).then(
        (fresh) => {
          if (mounted.current && JSON.stringify(asked) === JSON.stringify(latestQuery.current)) setData(fresh);
        },
        (error: unknown) => console.debug('No se pudo actualizar el informe', error),
      );
    }, RECOMPUTE_REFRESH_MS);
  }, [setData, latestQuery]);

  return { report, recompute, startRecompute };
}
