import { formatPercent, votesLabel, type OptionRow } from './pollView';
import { useThrottledAnnouncement } from './useThrottledAnnouncement';

/** "Resultados actualizados: Ana 60 %, Bruno 40 %. 12 votos." */
export function resultsAnnouncement(rows: OptionRow[], totalVotes: number): string {
  const parts = rows.filter((row) => row.result).map((row) => `${row.label} ${formatPercent(row.share)}`);
  return `Resultados actualizados: ${parts.join(', ')}. ${votesLabel(totalVotes)}.`;
}

/**
 * A polite, visually hidden live region telling screen reader users that the live results moved,
 * at most once every few seconds (useThrottledAnnouncement), however often the snapshots arrive.
 */
export function LiveResultsAnnouncer({ rows, totalVotes }: { rows: OptionRow[]; totalVotes: number }) {
  const announced = useThrottledAnnouncement(resultsAnnouncement(rows, totalVotes));
  return (
    <p aria-live="polite" aria-atomic="true" className="sr-only" data-testid="live-results-announcer">
      {announced}
    </p>
  );
}
