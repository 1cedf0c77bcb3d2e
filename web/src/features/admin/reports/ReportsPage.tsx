import { useEffect, useState, type FormEvent } from 'react';
import {
  DEFAULT_REPORT_PERIOD,
  REPORT_COLUMNS,
  REPORT_MESSAGES,
  REPORT_PERIOD_LABELS,
  REPORT_PERIODS,
  type ReportPeriod,
} from '@tribuna/contracts/reportRules';
import type { Report, ReportFigures } from '@tribuna/contracts/api/admin/reports';
import { Alert } from '../../../components/Alert';
import { EmptyState } from '../../../components/admin/EmptyState';
import { ErrorBanner } from '../../../components/admin/ErrorBanner';
import { PageHeader } from '../../../components/admin/PageHeader';
import { CounterSkeleton } from '../../../components/admin/Skeletons';
import { TextField } from '../../../components/admin/fields';
import { panel, primaryButton, secondaryButton } from '../../../components/admin/buttons';
import { EyeIcon, PeopleIcon, UserPlusIcon, VoteIcon } from '../icons';
import { ReportChart } from './ReportChart';
import { downloadText, formatCount, formatReportDay, isEmptyReport, reportCsv, reportCsvFilename, updatedLabel, validateCustomRange } from './reportFormat';
import { useReport } from './useReport';

const TOTALS: ReadonlyArray<{ key: keyof ReportFigures; label: string; icon: typeof VoteIcon; tint: string }> = [
  { key: 'activeUsers', label: 'Usuarios activos', icon: PeopleIcon, tint: 'bg-sky-600/10 text-sky-700 dark:bg-sky-400/15 dark:text-sky-300' },
  { key: 'newUsers', label: 'Usuarios nuevos', icon: UserPlusIcon, tint: 'bg-emerald-600/10 text-emerald-700 dark:bg-emerald-400/15 dark:text-emerald-300' },
  { key: 'totalVotes', label: 'Total votos', icon: VoteIcon, tint: 'bg-fuchsia-600/10 text-fuchsia-700 dark:bg-fuchsia-400/15 dark:text-fuchsia-300' },
  { key: 'pageViews', label: 'Visualizaciones', icon: EyeIcon, tint: 'bg-amber-500/10 text-amber-700 dark:bg-amber-400/15 dark:text-amber-300' },
];

const periodButton =
  'min-h-10 rounded-full px-3.5 py-2 text-sm font-semibold ring-1 transition aria-pressed:bg-fuchsia-600 aria-pressed:text-white aria-pressed:ring-fuchsia-600 aria-pressed:hover:bg-fuchsia-700 ring-slate-300 text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:ring-white/15 dark:hover:bg-white/10 dark:aria-pressed:bg-fuchsia-600 dark:aria-pressed:text-white dark:aria-pressed:ring-fuchsia-600';

/** Re-renders every minute so 'Actualizado hace N min' moves on. */
function useNow(intervalMs = 60_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = window.setInterval(() => setNow(Date.now()), intervalMs);
    return () => window.clearInterval(id);
  }, [intervalMs]);
  return now;
}

/**
 * /admin/informes (spec §2 Reports, §7): a period (default Esta semana) or a custom range, the four
 * totals, the daily chart, the per-date table newest first, CSV export of the table and a full
 * recompute. The figures are the worker's daily aggregates, read from GET /api/admin/reports.
 */
export function ReportsPage() {
  const [period, setPeriod] = useState<ReportPeriod>(DEFAULT_REPORT_PERIOD);
  const [range, setRange] = useState<{ from: string; to: string } | null>(null);
  const [draft, setDraft] = useState({ from: '', to: '' });
  const [rangeError, setRangeError] = useState<string | null>(null);
  const { report, recompute, startRecompute } = useReport(period, range);
  const now = useNow();

  function choose(next: ReportPeriod) {
    setPeriod(next);
    setRangeError(null);
    if (next !== 'custom') setRange(null);
  }

  function apply(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const error = validateCustomRange(draft.from, draft.to);
    setRangeError(error);
    if (!error) setRange({ ...draft });
    else event.currentTarget.querySelectorAll<HTMLInputElement>('input[type="date"]')[draft.from && !draft.to ? 1 : 0]?.focus();
  }

  const loading = report.status === 'loading';
  const data = report.status === 'ready' ? report.data : null;
  const empty = data ? isEmptyReport(data) : false;

  return (
    <div className="space-y-6">
      <PageHeader title="Informes" description="Actividad del sitio por día: usuarios, votos y visualizaciones.">
        <button
          type="button"
          className={secondaryButton}
          disabled={!data || empty}
          onClick={() => data && downloadText(reportCsv(data.days), reportCsvFilename(data))}
        >
          Exportar CSV
        </button>
        <button type="button" className={primaryButton} disabled={recompute.status === 'running'} onClick={() => void startRecompute()}>
          {recompute.status === 'running' ? 'Recalculando…' : 'Recalcular todo'}
        </button>
      </PageHeader>

      {recompute.status === 'accepted' && <Alert tone="success">Recálculo en marcha: las cifras se actualizarán en unos momentos.</Alert>}
      {recompute.status === 'error' && <ErrorBanner error={recompute.error} fallback="Error al recalcular los informes" />}

      <section aria-labelledby="report-period" className="space-y-3">
        <h3 id="report-period" className="sr-only">
          Período
        </h3>
        <div role="group" aria-label="Período" className="flex flex-wrap gap-2">
          {REPORT_PERIODS.map((p) => (
            <button key={p} type="button" aria-pressed={period === p} className={periodButton} onClick={() => choose(p)}>
              {REPORT_PERIOD_LABELS[p]}
            </button>
          ))}
        </div>
        {period === 'custom' && (
          <form noValidate onSubmit={apply} className={`${panel} grid gap-3 p-4 sm:grid-cols-[1fr_1fr_auto] sm:items-start`}>
            <TextField
              label="Desde"
              type="date"
              required
              value={draft.from}
              max={draft.to || undefined}
              onChange={(e) => setDraft((d) => ({ ...d, from: e.target.value }))}
              error={rangeError && !draft.from ? rangeError : null}
            />
            <TextField
              label="Hasta"
              type="date"
              required
              value={draft.to}
              min={draft.from || undefined}
              onChange={(e) => setDraft((d) => ({ ...d, to: e.target.value }))}
              error={rangeError && !draft.to && draft.from ? rangeError : null}
            />
            <button type="submit" className={`${primaryButton} sm:mt-7`}>
              Aplicar
            </button>
            {rangeError && draft.from && draft.to && (
              <p role="alert" className="text-sm font-medium text-rose-700 sm:col-span-3 dark:text-rose-300">
                {rangeError}
              </p>
            )}
          </form>
        )}
      </section>

      {report.status === 'error' && <ErrorBanner error={report.error} fallback={REPORT_MESSAGES.loadFailed} onRetry={report.refetch} />}
      {report.status === 'idle' && <p className="text-sm text-slate-600 dark:text-slate-400">Elige las fechas Desde y Hasta y pulsa Aplicar.</p>}

      {loading && (
        <p role="status" className="sr-only">
          Cargando estadísticas…
        </p>
      )}

      {(loading || data) && (
        <section aria-labelledby="report-totals" className="space-y-2">
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <h3 id="report-totals" className="text-lg font-bold">
              Totales del período
            </h3>
            {data && (
              <p className="text-sm text-slate-500 dark:text-slate-400" data-testid="report-updated">
                {data.from === data.to ? formatReportDay(data.from) : `${formatReportDay(data.from)} – ${formatReportDay(data.to)}`} ·{' '}
                {updatedLabel(data.updatedAt, now)}
              </p>
            )}
          </div>
          <div className="grid grid-cols-2 gap-3 lg:grid-cols-4" aria-busy={loading}>
            {loading && <CounterSkeleton />}
            {data &&
              TOTALS.map(({ key, label, icon: TotalIcon, tint }) => (
                <div key={key} className={`${panel} flex flex-col gap-3 p-4`}>
                  <div className="flex items-center justify-between gap-2">
                    <p id={`report-total-${key}`} className="text-sm font-semibold text-slate-600 dark:text-slate-400">
                      {label}
                    </p>
                    <span aria-hidden="true" className={`inline-flex size-9 shrink-0 items-center justify-center rounded-xl max-[419px]:hidden ${tint}`}>
                      <TotalIcon className="size-5" />
                    </span>
                  </div>
                  <p aria-labelledby={`report-total-${key}`} data-testid={`report-total-${key}`} className="text-2xl font-black tabular-nums sm:text-3xl">
                    {formatCount(data.totals[key])}
                  </p>
                </div>
              ))}
          </div>
        </section>
      )}

      {loading && <div aria-hidden="true" className={`${panel} h-64 animate-pulse`} />}
      {data && empty && <EmptyState message={REPORT_MESSAGES.empty} />}
      {data && !empty && <ReportDetails report={data} />}
    </div>
  );
}

function ReportDetails({ report }: { report: Report }) {
  return (
    <>
      <section aria-labelledby="report-chart" className={`${panel} p-4 sm:p-5`}>
        <h3 id="report-chart" className="mb-3 text-lg font-bold">
          Evolución diaria
        </h3>
        <ReportChart days={report.days} />
      </section>

      <section aria-labelledby="report-table" className={`${panel} min-w-0 overflow-hidden`}>
        <h3 id="report-table" className="px-4 pt-4 text-lg font-bold sm:px-5">
          Detalle por día
        </h3>
        <div className="overflow-x-auto" tabIndex={0} role="region" aria-labelledby="report-table">
          <table className="mt-3 w-full min-w-[34rem] text-sm">
            <caption className="sr-only">Detalle por día, del más reciente al más antiguo</caption>
            <thead className="bg-slate-50 text-left text-xs font-bold tracking-wide text-slate-600 uppercase dark:bg-white/5 dark:text-slate-400">
              <tr>
                {REPORT_COLUMNS.map((column, i) => (
                  <th key={column} scope="col" className={`px-4 py-2.5 ${i === 0 ? '' : 'text-right'}`}>
                    {column}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200 dark:divide-white/10">
              {report.days.map((d) => (
                <tr key={d.day}>
                  <th scope="row" className="px-4 py-2.5 text-left font-semibold whitespace-nowrap">
                    <time dateTime={d.day}>{formatReportDay(d.day)}</time>
                  </th>
                  <td className="px-4 py-2.5 text-right tabular-nums">{formatCount(d.activeUsers)}</td>
                  <td className="px-4 py-2.5 text-right tabular-nums">{formatCount(d.newUsers)}</td>
                  <td className="px-4 py-2.5 text-right tabular-nums">{formatCount(d.totalVotes)}</td>
                  <td className="px-4 py-2.5 text-right tabular-nums">{formatCount(d.pageViews)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </>
  );
}
