import { useCallback, useEffect, useRef, useState } from 'react';
import type { AbuseScanMessage, LatestAbuseScan } from '@tribuna/contracts/api/admin/abuse';
import { callApi } from '../../../lib/api';
import { liveClient } from '../../../lib/live/liveClient';
import { useQuery } from '../../../lib/useQuery';
import { useLatest } from '../../../lib/useLatest';

export type ScanProgress = Pick<AbuseScanMessage, 'scanId' | 'status' | 'progress'>;

/** While a scan runs and the live channel is quiet (or down), the latest scan is read again this often. */
export const SCAN_POLL_MS = 15_000;

/**
 * GET /api/admin/abuse/scans/latest, and the refresh button's scan (POST /api/admin/abuse/scans, a
 * worker job) followed live on the `admin` topic: its 'abuse-scan' messages move the progress bar;
 * when the scan is done (or failed) the latest scan is read again, in place. The report on screen
 * stays while a new scan runs.
 */
export function useAbuseScan() {
  const query = useQuery(['admin-abuse-scan'], (signal) => callApi('latestAbuseScan', { signal }));
  const { setData } = query;
  const [live, setLive] = useState<ScanProgress | null>(null);
  const [starting, setStarting] = useState(false);
  const [startError, setStartError] = useState<unknown>(null);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  /** The report on screen (a finished scan stays there while a newer one runs or if it fails). */
  const shown = useLatest<LatestAbuseScan | null>(query.status === 'ready' ? query.data : null);
  /** A scan that failed after the page loaded (the previous report stays on screen). */
  const [failure, setFailure] = useState<string | null>(null);

  /** Reads the latest scan again without the loading state. */
  const reload = useCallback(async () => {
    let fresh: LatestAbuseScan;
    try {
      fresh = await callApi('latestAbuseScan');
    } catch (error) {
      console.debug('No se pudo actualizar el reporte de abuso', error);
      return;
    }
    if (!mounted.current) return;
    const scan = fresh.scan;
    const keep = shown.current?.scan?.status === 'done' && scan !== null && scan.id !== shown.current.scan.id;
    if (scan && (scan.status === 'queued' || scan.status === 'running')) {
      setLive({ scanId: scan.id, status: scan.status, progress: scan.progress });
      if (!keep) setData(fresh);
      return;
    }
    if (scan?.status === 'failed' && keep) {
      setFailure(scan.error ?? 'El análisis falló');
    } else {
      setFailure(null);
      setData(fresh);
    }
    // The scan we were following is over (its final message may have been lost).
    setLive((current) => (current && scan?.id === current.scanId ? null : current));
  }, [setData, shown]);

  useEffect(
    () =>
      liveClient.subscribe('admin', {
        onMessage(message) {
          if (message.type !== 'abuse-scan') return;
          if (message.status === 'done' || message.status === 'failed') {
            setLive(null);
            void reload();
            return;
          }
          setLive({ scanId: message.scanId, status: message.status, progress: message.progress });
        },
        onResync: reload,
      }),
    [reload],
  );

  const loaded = query.status === 'ready' ? query.data.scan : null;
  const loadedActive =
    loaded && (loaded.status === 'queued' || loaded.status === 'running') ? { scanId: loaded.id, status: loaded.status, progress: loaded.progress } : null;
  const active: ScanProgress | null = live ?? loadedActive;

  // A safety net for a lost live channel: while a scan runs, read the latest scan now and then.
  const running = active !== null;
  useEffect(() => {
    if (!running) return;
    const timer = window.setInterval(() => void reload(), SCAN_POLL_MS);
    return () => window.clearInterval(timer);
  }, [running, reload]);

  const start = useCallback(async () => {
    setStarting(true);
    setStartError(null);
    setFailure(null);
    try {
      const scan = await callApi('startAbuseScan');
      if (!mounted.current) return;
      if (scan.status === 'done' || scan.status === 'failed') void reload();
      else setLive((current) => (current?.scanId === scan.id ? current : { scanId: scan.id, status: scan.status, progress: scan.progress }));
    } catch (error) {
      if (!mounted.current) return;
      setStartError(error);
      // e.g. 'Ya hay un análisis en curso': show the running one.
      void reload();
    } finally {
      if (mounted.current) setStarting(false);
    }
  }, [reload]);

  return { query, active, start, starting, startError, failure, reload };
}
