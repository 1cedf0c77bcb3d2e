import type { ReportDay } from '@tribuna/contracts/api/admin/reports';
import { formatCount, formatReportDay, formatShortDay } from './reportFormat';

const WIDTH = 600;
const HEIGHT = 200;
/** Up to this many days the series are bars side by side; beyond, lines (bars would be hairlines). */
const BAR_DAYS = 31;

const SERIES = [
  { key: 'totalVotes', label: 'Votos', color: 'text-fuchsia-600 dark:text-fuchsia-400', swatch: 'bg-fuchsia-600 dark:bg-fuchsia-400' },
  { key: 'pageViews', label: 'Visualizaciones', color: 'text-sky-600 dark:text-sky-400', swatch: 'bg-sky-600 dark:bg-sky-400' },
] as const;

/** A round axis maximum at or above `max` (1, 2, 5 × 10ⁿ). */
export function niceMax(max: number): number {
  if (max <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 5, 10]) if (step * power >= max) return step * power;
  return 10 * power;
}

/** What the chart shows, in words (its accessible name; the table below has every figure). */
export function chartSummary(days: readonly ReportDay[]): string {
  if (days.length === 0) return 'Gráfico sin datos';
  const ordered = [...days].sort((a, b) => a.day.localeCompare(b.day));
  const first = ordered[0]!;
  const last = ordered[ordered.length - 1]!;
  const peak = ordered.reduce((best, d) => (d.totalVotes > best.totalVotes ? d : best), first);
  const votes = ordered.reduce((sum, d) => sum + d.totalVotes, 0);
  const views = ordered.reduce((sum, d) => sum + d.pageViews, 0);
  const range = ordered.length === 1 ? `el ${formatReportDay(first.day)}` : `del ${formatReportDay(first.day)} al ${formatReportDay(last.day)}`;
  return `Votos y visualizaciones por día ${range}: ${formatCount(votes)} votos y ${formatCount(views)} visualizaciones; el día con más votos fue el ${formatReportDay(peak.day)} con ${formatCount(peak.totalVotes)}.`;
}

/**
 * The daily series of votes and page views, hand-drawn in SVG (no charting library in the bundle).
 * The SVG stretches to its box; the labels are HTML so they keep their size on a phone. Screen
 * readers get a one-sentence summary (role img); the table under it is the accessible data.
 */
export function ReportChart({ days }: { days: readonly ReportDay[] }) {
  const ordered = [...days].sort((a, b) => a.day.localeCompare(b.day));
  const max = niceMax(Math.max(0, ...ordered.flatMap((d) => [d.totalVotes, d.pageViews])));
  const n = ordered.length;
  const y = (value: number) => HEIGHT - (value / max) * HEIGHT;
  const bars = n <= BAR_DAYS;
  const slot = WIDTH / Math.max(n, 1);

  return (
    <figure className="space-y-3">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm" aria-hidden="true">
        {SERIES.map((s) => (
          <span key={s.key} className="inline-flex items-center gap-1.5 text-slate-700 dark:text-slate-300">
            <span className={`size-3 rounded-sm ${s.swatch}`} />
            {s.label}
          </span>
        ))}
      </div>
      <div className="flex gap-2">
        <div aria-hidden="true" className="flex w-12 shrink-0 flex-col justify-between text-right text-xs text-slate-500 tabular-nums dark:text-slate-400">
          <span>{formatCount(max)}</span>
          <span>{formatCount(max / 2)}</span>
          <span>0</span>
        </div>
        <div className="min-w-0 flex-1">
          <svg
            role="img"
            aria-label={chartSummary(ordered)}
            viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
            preserveAspectRatio="none"
            className="block h-48 w-full sm:h-56"
            data-testid="report-chart"
          >
            {[0, 0.5, 1].map((f) => (
              <line
                key={f}
                x1={0}
                x2={WIDTH}
                y1={HEIGHT * f}
                y2={HEIGHT * f}
                className="stroke-slate-200 dark:stroke-white/10"
                strokeWidth={1}
                vectorEffect="non-scaling-stroke"
              />
            ))}
            {bars
              ? ordered.map((d, i) => {
                  const width = (slot * 0.8) / SERIES.length;
                  return SERIES.map((s, k) => {
                    const value = d[s.key];
                    return (
                      <rect
                        key={`${d.day}-${s.key}`}
                        x={i * slot + slot * 0.1 + k * width}
                        y={y(value)}
                        width={width}
                        height={HEIGHT - y(value)}
                        className={s.color}
                        fill="currentColor"
                      >
                        <title>{`${formatReportDay(d.day)}: ${formatCount(value)} ${s.label.toLowerCase()}`}</title>
                      </rect>
                    );
                  });
                })
              : SERIES.map((s) => (
                  <polyline
                    key={s.key}
                    points={ordered.map((d, i) => `${(i + 0.5) * slot},${y(d[s.key])}`).join(' ')}
                    fill="none"
                    stroke="currentColor"
                    strokeWidth={2}
                    strokeLinejoin="round"
                    vectorEffect="non-scaling-stroke"
                    className={s.color}
                  />
                ))}
          </svg>
          {n > 0 && (
            <div aria-hidden="true" className="mt-1 flex justify-between text-xs text-slate-500 dark:text-slate-400">
              <span>{formatShortDay(ordered[0]!.day)}</span>
              {n > 1 && <span>{formatShortDay(ordered[n - 1]!.day)}</span>}
            </div>
          )}
        </div>
      </div>
    </figure>
  );
}
