import { useState } from 'react';
import { QUEUE_MESSAGES } from '@tribuna/contracts/adminRules';
import type { FailedJob, QueueHealth } from '@tribuna/contracts/api/admin/queues';
import { callApi } from '../../../lib/api';
import { formatDateTime } from '../../../lib/dates';
import { EmptyState } from '../../../components/admin/EmptyState';
import { ErrorBanner } from '../../../components/admin/ErrorBanner';
import { PageHeader } from '../../../components/admin/PageHeader';
import { ListSkeleton } from '../../../components/admin/Skeletons';
import { panel, rowButton, secondaryButton } from '../../../components/admin/buttons';
import { PushBroadcasts } from './PushBroadcasts';
import { useQueueHealth } from './useQueueHealth';

const COUNT_LABELS: Array<[keyof QueueHealth['counts'], string]> = [
  ['waiting', 'En espera'],
  ['active', 'Activos'],
  ['failed', 'Fallidos'],
  ['delayed', 'Retrasados'],
  ['completed', 'Completados'],
];

const timeFormat = new Intl.DateTimeFormat('es-ES', { hour: '2-digit', minute: '2-digit', second: '2-digit' });

/** /admin/colas: the worker's queues (counts, workers, latest failures with Reintentar), read every 10 s, and the push broadcasts' progress. */
export function QueuesPage() {
  const health = useQueueHealth();
  const { data } = health;

  return (
    <div className="space-y-5">
      <PageHeader title="Colas" description="Los trabajos en segundo plano: lo pendiente, lo que falló y quién los atiende.">
        <button type="button" className={secondaryButton} onClick={health.refresh} disabled={health.refreshing} aria-busy={health.refreshing}>
          {health.refreshing && data ? 'Actualizando…' : 'Actualizar'}
        </button>
      </PageHeader>

      {data && (
        <p className="text-sm text-slate-500 dark:text-slate-400" aria-live="polite">
          Actualizado a las <time dateTime={data.checkedAt}>{timeFormat.format(new Date(data.checkedAt))}</time> · se actualiza cada 10 s
        </p>
      )}
      <ErrorBanner error={health.error} fallback={QUEUE_MESSAGES.loadFailed} onRetry={health.refresh} />

      {data ? (
        data.queues.length === 0 ? (
          <EmptyState message="No hay colas registradas." />
        ) : (
          <div className="space-y-4">
            {data.queues.map((queue) => (
              <QueueCard key={queue.name} queue={queue} onRetried={health.refresh} />
            ))}
          </div>
        )
      ) : (
        !health.error && <ListSkeleton rows={2} label="Cargando colas…" />
      )}

      <PushBroadcasts />
    </div>
  );
}

function QueueCard({ queue, onRetried }: { queue: QueueHealth; onRetried: () => void }) {
  const headingId = `queue-${queue.name}`;
  return (
    <section aria-labelledby={headingId} className={`${panel} space-y-4 p-4`}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 id={headingId} className="font-mono text-lg font-bold">
          {queue.name}
        </h3>
        <p className={`text-sm font-semibold ${queue.workers === 0 ? 'text-rose-700 dark:text-rose-300' : 'text-slate-600 dark:text-slate-300'}`}>
          {queue.workers === 1 ? '1 worker conectado' : `${queue.workers} workers conectados`}
        </p>
      </div>
      <dl className="grid grid-cols-3 gap-2 sm:grid-cols-5">
        {COUNT_LABELS.map(([key, label]) => (
          <div key={key} className="rounded-xl bg-slate-50 p-2 text-center ring-1 ring-slate-200 dark:bg-white/5 dark:ring-white/10">
            <dt className="truncate text-xs font-semibold text-slate-500 dark:text-slate-400">{label}</dt>
            <dd className={`text-lg font-black tabular-nums ${key === 'failed' && queue.counts.failed > 0 ? 'text-rose-700 dark:text-rose-300' : ''}`}>
              {queue.counts[key].toLocaleString('es')}
            </dd>
          </div>
        ))}
      </dl>
      <div>
        <h4 className="mb-2 text-sm font-bold">Últimos fallos</h4>
        {queue.failures.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-300">{QUEUE_MESSAGES.noFailures}</p>
        ) : (
          <ul aria-label={`Fallos de ${queue.name}`} className="divide-y divide-slate-100 dark:divide-white/5">
            {queue.failures.map((job) => (
              <FailureRow key={job.id} queue={queue.name} job={job} onRetried={onRetried} />
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}

function FailureRow({ queue, job, onRetried }: { queue: string; job: FailedJob; onRetried: () => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  async function retry() {
    setBusy(true);
    setError(null);
    try {
      await callApi('retryJob', { params: { queue, jobId: job.id } });
      onRetried();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  }

  return (
    <li className="space-y-1.5 py-3">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="font-mono text-sm font-semibold break-all">
            {job.name} <span className="font-normal text-slate-500 dark:text-slate-400">#{job.id}</span>
          </p>
          <p className="text-xs text-slate-500 dark:text-slate-400">
            {job.attemptsMade === 1 ? '1 intento' : `${job.attemptsMade} intentos`}
            {job.failedAt && (
              <>
                {' · '}
                <time dateTime={job.failedAt}>{formatDateTime(job.failedAt)}</time>
              </>
            )}
          </p>
        </div>
        <button type="button" className={rowButton} disabled={busy} aria-label={`Reintentar ${job.name} #${job.id}`} onClick={() => void retry()}>
          {busy ? 'Reintentando…' : 'Reintentar'}
        </button>
      </div>
      <p className="rounded-lg bg-rose-50 px-2 py-1 font-mono text-xs break-all text-rose-800 dark:bg-rose-500/10 dark:text-rose-200">
        {job.failedReason || 'Sin detalle del error'}
      </p>
      <ErrorBanner error={error} fallback={QUEUE_MESSAGES.retryFailed} />
    </li>
  );
}
