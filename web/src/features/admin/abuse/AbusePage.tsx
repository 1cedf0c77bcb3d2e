import type { ReactNode } from 'react';
import { useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { ABUSE_MESSAGES } from '@tribuna/contracts/abuseRules';
import type { AbuseAccount, AbuseScanView, FlaggedDevice, FlaggedUser } from '@tribuna/contracts/api/admin/abuse';
import { Alert } from '../../../components/Alert';
import { errorMessage } from '../../../lib/api';
import { formatDateTime } from '../../../lib/dates';
import { EmptyState } from '../../../components/admin/EmptyState';
import { PageHeader } from '../../../components/admin/PageHeader';
import { CounterSkeleton, ListSkeleton } from '../../../components/admin/Skeletons';
import { StatusBadge } from '../../../components/admin/StatusBadge';
import { panel, primaryButton, rowButton } from '../../../components/admin/buttons';
import { ShieldAlertIcon } from '../icons';
import { AbuseVotesDialog, type VotesTarget } from './AbuseVotesDialog';
import { abuseError, accountName, deviceLabel, formatAge, formatCount, formatRate, plural, userDeviceLabel, usersScreenLink } from './abuseFormat';
import { useAbuseScan, type ScanProgress } from './useAbuseScan';

const LOAD_FALLBACK = 'No se pudo cargar el reporte';
const START_FALLBACK = 'No se pudo iniciar el análisis';

const SUMMARY: ReadonlyArray<{ key: 'flaggedDevices' | 'flaggedUsers' | 'suspiciousVotes'; label: string }> = [
  { key: 'flaggedDevices', label: 'Dispositivos marcados' },
  { key: 'flaggedUsers', label: 'Usuarios marcados' },
  { key: 'suspiciousVotes', label: 'Votos sospechosos' },
];

/**
 * /admin/abuse-report (spec §2 Abuse report, §8 Abuse detection rules): the worker's latest scan —
 * devices 2 or more accounts voted from, users voting from 3 or more devices — with 'Actualizar
 * reporte' starting a new scan whose progress arrives live; each flag opens its votes to review and
 * void (or restore).
 */
export function AbusePage() {
  const { query, active, start, starting, startError, failure } = useAbuseScan();
  const [votesOf, setVotesOf] = useState<VotesTarget | null>(null);
  const scan = query.status === 'ready' ? query.data.scan : null;
  const busy = starting || active !== null;

  return (
    <div className="space-y-6">
      <PageHeader title="Detección de abuso" description="Dispositivos con varias cuentas y usuarios con varios dispositivos.">
        <button type="button" className={primaryButton} disabled={busy || query.status === 'loading'} onClick={() => void start()}>
          {busy ? 'Analizando…' : 'Actualizar reporte'}
        </button>
      </PageHeader>

      <div className="flex items-start gap-3 rounded-2xl border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-400/30 dark:bg-amber-400/10 dark:text-amber-100">
        <ShieldAlertIcon aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
        <p>{ABUSE_MESSAGES.notice}</p>
      </div>

      {startError !== null && <Alert>{abuseError(errorMessage(startError, START_FALLBACK))}</Alert>}
      {failure !== null && <Alert>{abuseError(failure)}</Alert>}
      {active && <ScanProgressBar progress={active} />}

      {query.status === 'loading' && (
        <div className="space-y-4">
          <p role="status" className="text-sm font-medium text-slate-600 dark:text-slate-400">
            {ABUSE_MESSAGES.loading}
          </p>
          <div className="grid grid-cols-1 gap-3 sm:grid-cols-3" aria-hidden="true">
            <CounterSkeleton count={3} />
          </div>
        </div>
      )}
      {query.status === 'error' && (
        <Alert>
          <span>{abuseError(errorMessage(query.error, LOAD_FALLBACK))}</span>
          <button type="button" onClick={query.refetch} className="ml-2 font-bold underline underline-offset-2 hover:no-underline">
            Reintentar
          </button>
        </Alert>
      )}

      {query.status === 'ready' && !scan && !active && <EmptyState message="Aún no hay ningún análisis. Pulsa Actualizar reporte para analizar los votos." />}
      {scan && <ScanReport scan={scan} onVotes={setVotesOf} />}

      {votesOf && <AbuseVotesDialog target={votesOf} onClose={() => setVotesOf(null)} />}
    </div>
  );
}

function ScanProgressBar({ progress }: { progress: ScanProgress }) {
  const label = progress.status === 'queued' ? 'Análisis en cola…' : `Analizando votos… ${progress.progress} %`;
  return (
    <div className={`${panel} space-y-2 p-4`}>
      <div className="flex items-center justify-between gap-2 text-sm font-semibold">
        <span id="abuse-progress-label">{label}</span>
      </div>
      <div
        role="progressbar"
        aria-labelledby="abuse-progress-label"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={progress.progress}
        className="h-2.5 overflow-hidden rounded-full bg-slate-200 dark:bg-white/10"
      >
        <div className="brand-gradient h-full rounded-full transition-[width] duration-500" style={{ width: `${progress.progress}%` }} />
      </div>
    </div>
  );
}

function ScanReport({ scan, onVotes }: { scan: AbuseScanView; onVotes: (target: VotesTarget) => void }) {
  const finished = scan.status === 'done' || scan.status === 'failed';
  return (
    <>
      {scan.status === 'failed' && <Alert>{abuseError(scan.error ?? 'El análisis falló')}</Alert>}
      <section aria-labelledby="abuse-summary" className="space-y-2">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h3 id="abuse-summary" className="text-lg font-bold">
            Resumen
          </h3>
          <p className="text-sm text-slate-500 dark:text-slate-400" data-testid="abuse-scanned-at">
            {finished && scan.finishedAt ? (
              <>
                Análisis del <time dateTime={scan.finishedAt}>{formatDateTime(scan.finishedAt)}</time>
              </>
            ) : (
              <>
                Análisis iniciado el <time dateTime={scan.startedAt}>{formatDateTime(scan.startedAt)}</time>
              </>
            )}
          </p>
        </div>
        <div className="grid grid-cols-1 gap-3 min-[420px]:grid-cols-3">
          {SUMMARY.map(({ key, label }) => (
            <div key={key} className={`${panel} p-4`}>
              <p id={`abuse-${key}`} className="text-sm font-semibold text-slate-600 dark:text-slate-400">
                {label}
              </p>
              <p aria-labelledby={`abuse-${key}`} data-testid={`abuse-${key}`} className="mt-2 text-2xl font-black tabular-nums sm:text-3xl">
                {formatCount(scan[key])}
              </p>
            </div>
          ))}
        </div>
      </section>

      {scan.status === 'done' && (
        <>
          <FlagSection id="abuse-devices" title="Dispositivos con varias cuentas" empty="No se detectaron dispositivos con varias cuentas">
            {scan.devices.map((device) => (
              <DeviceRow key={device.fingerprint} device={device} onVotes={onVotes} />
            ))}
          </FlagSection>
          <FlagSection id="abuse-users" title="Usuarios con varios dispositivos" empty="No se detectaron usuarios con varios dispositivos">
            {scan.users.map((user) => (
              <UserRow key={user.userId} user={user} onVotes={onVotes} />
            ))}
          </FlagSection>
        </>
      )}
      {(scan.status === 'queued' || scan.status === 'running') && <ListSkeleton rows={2} label="El análisis está en curso…" />}
    </>
  );
}

function AccountLink({ account }: { account: Pick<AbuseAccount, 'displayName' | 'username' | 'userId' | 'isSuspended'> }) {
  return (
    <span className="inline-flex min-w-0 flex-wrap items-center gap-1.5">
      <Link to={usersScreenLink(account)} className="font-semibold break-all text-fuchsia-700 hover:underline dark:text-fuchsia-300">
        {accountName(account)}
      </Link>
      {account.isSuspended && <StatusBadge tone="rose">Suspendido</StatusBadge>}
    </span>
  );
}

function DeviceRow({ device, onVotes }: { device: FlaggedDevice; onVotes: (target: VotesTarget) => void }) {
  const [open, setOpen] = useState(false);
  const listId = useId();
  const shown = deviceLabel(device.fingerprint);
  return (
    <li className={`${panel} p-4`} data-testid="abuse-device">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="min-w-0 space-y-1">
          <p className="font-mono text-sm font-semibold break-all" title={device.fingerprint}>
            {shown}
          </p>
          <p className="text-sm text-slate-600 dark:text-slate-400">
            <span className="font-bold text-rose-700 dark:text-rose-300">{plural(device.accountCount, 'cuenta', 'cuentas')}</span> ·{' '}
            {plural(device.voteCount, 'voto', 'votos')}
          </p>
        </div>
        <div className="flex flex-wrap gap-1">
          <button
            type="button"
            className={rowButton}
            aria-expanded={open}
            aria-controls={listId}
            aria-label={`${open ? 'Ocultar cuentas' : 'Ver cuentas'} del dispositivo ${shown}`}
            onClick={() => setOpen((o) => !o)}
          >
            {open ? 'Ocultar cuentas' : 'Ver cuentas'}
          </button>
          <button
            type="button"
            className={rowButton}
            aria-label={`Ver votos del dispositivo ${shown}`}
            onClick={() => onVotes({ kind: 'device', fingerprint: device.fingerprint, label: `dispositivo ${shown}` })}
          >
            Ver votos
          </button>
        </div>
      </div>
      <ul
        id={listId}
        hidden={!open}
        className="mt-3 divide-y divide-slate-200 border-t border-slate-200 dark:divide-white/10 dark:border-white/10"
        aria-label={`Cuentas del dispositivo ${shown}`}
      >
        {device.accounts.map((account) => (
          <li key={account.userId} className="flex flex-col gap-1 py-2.5 text-sm sm:flex-row sm:items-center sm:justify-between">
            <AccountLink account={account} />
            <span className="text-slate-600 tabular-nums dark:text-slate-400">
              {plural(account.voteCount, 'voto', 'votos')} · {formatAge(account.accountAgeHours)} · {formatRate(account.votesPerHour)}
            </span>
          </li>
        ))}
      </ul>
    </li>
  );
}

function UserRow({ user, onVotes }: { user: FlaggedUser; onVotes: (target: VotesTarget) => void }) {
  const name = accountName(user);
  return (
    <li className={`${panel} space-y-2 p-4`} data-testid="abuse-user">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
        <div className="min-w-0 space-y-1">
          <AccountLink account={user} />
          <p className="text-sm text-slate-600 tabular-nums dark:text-slate-400">
            <span className="font-bold text-rose-700 dark:text-rose-300">{plural(user.deviceCount, 'dispositivo', 'dispositivos')}</span> · Antigüedad{' '}
            {formatAge(user.accountAgeHours)} · {formatRate(user.votesPerHour)} · {plural(user.voteCount, 'voto', 'votos')}
          </p>
        </div>
        <button
          type="button"
          className={`${rowButton} self-start sm:self-auto`}
          aria-label={`Ver votos de ${name}`}
          onClick={() => onVotes({ kind: 'user', userId: user.userId, label: name })}
        >
          Ver votos
        </button>
      </div>
      <ul className="flex flex-wrap gap-1.5" aria-label={`Dispositivos de ${name}`}>
        {user.devices.map((device) => (
          <li key={device} title={device} className="rounded-lg bg-slate-100 px-2 py-0.5 font-mono text-xs text-slate-700 dark:bg-white/10 dark:text-slate-300">
            {userDeviceLabel(device)}
          </li>
        ))}
      </ul>
    </li>
  );
}

/** One list of flags (devices or users), with its heading and its empty state. */
function FlagSection({ id, title, empty, children }: { id: string; title: string; empty: string; children: ReactNode[] }) {
  return (
    <section aria-labelledby={id} className="space-y-3">
      <h3 id={id} className="text-lg font-bold">
        {title}
      </h3>
      {children.length === 0 ? (
        <EmptyState message={empty} />
      ) : (
        <ul className="space-y-3" aria-label={title}>
          {children}
        </ul>
      )}
    </section>
  );
}
