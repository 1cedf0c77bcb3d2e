import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { PushBroadcastView } from '@tribuna/contracts/api/push';
import { PUSH_ADMIN_TEXTS, PUSH_KIND_LABELS } from '@tribuna/contracts/pushRules';
import { callApi } from '../../../lib/api';
import { formatDateTime } from '../../../lib/dates';
import { ErrorBanner } from '../../../components/admin/ErrorBanner';
import { ListSkeleton } from '../../../components/admin/Skeletons';
import { StatusBadge, type BadgeTone } from '../../../components/admin/StatusBadge';
import { panel } from '../../../components/admin/buttons';

/** How often the list is read again while a broadcast is queued or sending (and the page is visible). */
export const BROADCAST_REFRESH_MS = 2000;

const STATUS: Record<PushBroadcastView['status'], { label: string; tone: BadgeTone }> = {
  queued: { label: 'En cola', tone: 'amber' },
  sending: { label: 'Enviando', tone: 'sky' },
  done: { label: 'Terminada', tone: 'green' },
};

const LOAD_FAILED = 'Error al cargar las notificaciones push';

/** The latest broadcasts, read at once and again every 2 s while one of them is still going out. */
function usePushBroadcasts() {
  const [items, setItems] = useState<PushBroadcastView[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [attempt, setAttempt] = useState(0);
  const inFlight = useRef<AbortController | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    inFlight.current = controller;
    callApi('pushBroadcasts', { signal: controller.signal }).then(
      (list) => {
        if (controller.signal.aborted) return;
        setItems(list.items);
        setError(null);
      },
      (failure: unknown) => {
        if (controller.signal.aborted) return;
        console.debug(LOAD_FAILED, failure);
        setError(failure);
      },
    );
    return () => controller.abort();
  }, [attempt]);

  const going = items?.some((item) => item.status !== 'done') ?? false;
  useEffect(() => {
    if (!going) return;
    const timer = setTimeout(() => {
      if (document.visibilityState !== 'hidden') setAttempt((n) => n + 1);
    }, BROADCAST_REFRESH_MS);
    const onVisibility = () => {
      if (document.visibilityState !== 'hidden') setAttempt((n) => n + 1);
    };
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [going, attempt]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { items, error, retry };
}

/** The queues screen's 'Notificaciones push': each broadcast's poll, kind, state and how far it went. */
export function PushBroadcasts() {
  const { items, error, retry } = usePushBroadcasts();
  const titleId = useId();
  return (
    <section aria-labelledby={titleId} className="space-y-3">
      <h3 id={titleId} className="text-lg font-bold">
        {PUSH_ADMIN_TEXTS.broadcastsTitle}
      </h3>
      <ErrorBanner error={error} fallback={LOAD_FAILED} onRetry={retry} />
      {items === null ? (
        !error && <ListSkeleton rows={1} label="Cargando notificaciones push…" />
      ) : items.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-300">{PUSH_ADMIN_TEXTS.broadcastsEmpty}</p>
      ) : (
        <ul aria-labelledby={titleId} className="space-y-3">
          {items.map((item) => (
            <BroadcastRow key={item.id} broadcast={item} />
          ))}
        </ul>
      )}
    </section>
  );
}

function BroadcastRow({ broadcast }: { broadcast: PushBroadcastView }) {
  const { total, sent, gone, failed } = broadcast;
  const handled = Math.min(total, sent + gone + failed);
  const percent = total === 0 ? (broadcast.status === 'done' ? 100 : 0) : Math.round((handled / total) * 100);
  const status = STATUS[broadcast.status];
  const titleId = useId();
  // Until the worker has listed the devices the total is unknown: an indeterminate bar.
  const known = total > 0 || broadcast.status === 'done';
  return (
    <li aria-labelledby={titleId} className={`${panel} space-y-2 p-4`}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <p id={titleId} className="font-semibold break-words">
            {broadcast.pollTitle}
          </p>
          <p className="text-xs text-slate-600 dark:text-slate-400">
            {PUSH_KIND_LABELS[broadcast.kind]} · <time dateTime={broadcast.createdAt}>{formatDateTime(broadcast.createdAt)}</time>
            {broadcast.createdBy === null && ' · automática'}
          </p>
        </div>
        <StatusBadge tone={status.tone}>{status.label}</StatusBadge>
      </div>
      <div
        role="progressbar"
        aria-label={`Progreso de ${broadcast.pollTitle}`}
        aria-valuemin={0}
        aria-valuemax={known ? total : undefined}
        aria-valuenow={known ? handled : undefined}
        aria-valuetext={known ? `${handled.toLocaleString('es')} de ${total.toLocaleString('es')} dispositivos` : 'Preparando el envío'}
        className="h-2 overflow-hidden rounded-full bg-slate-200 dark:bg-white/10"
      >
        <div
          className={`h-full rounded-full bg-fuchsia-600 transition-[width] dark:bg-fuchsia-400 ${known ? '' : 'w-1/3 motion-safe:animate-pulse'}`}
          style={known ? { width: `${percent}%` } : undefined}
        />
      </div>
      <p className="text-sm text-slate-700 tabular-nums dark:text-slate-300">
        {handled.toLocaleString('es')} de {total.toLocaleString('es')} · {sent.toLocaleString('es')} enviadas · {gone.toLocaleString('es')} sin suscripción ·{' '}
        <span className={failed > 0 ? 'font-semibold text-rose-700 dark:text-rose-300' : ''}>{failed.toLocaleString('es')} fallidas</span>
      </p>
    </li>
  );
}
