import { isPointsMode as isPointsConfig } from '@tribuna/contracts/pollRules';
import type { OptionResult, Poll, PollOption, PollResults, PollStatus } from '@tribuna/contracts/api/polls';

/** Numbers read the Mexican way (the audience): 12,345 and 42.9%. */
const countFormat = new Intl.NumberFormat('es-MX');
const percentFormat = new Intl.NumberFormat('es-MX', { style: 'percent', maximumFractionDigits: 1 });

export const formatCount = (n: number) => countFormat.format(n);
export const formatPercent = (fraction: number) => percentFormat.format(fraction);

const plural = (n: number, one: string, many: string) => `${formatCount(n)} ${n === 1 ? one : many}`;
export const votesLabel = (n: number) => plural(n, 'voto', 'votos');
export const pointsLabel = (n: number) => plural(n, 'punto', 'puntos');
export const votersLabel = (n: number) => plural(n, 'votante', 'votantes');
/** Votes an admin voided after review: '1 voto anulado por moderación', '3 votos anulados por moderación'. */
export const voidedLabel = (n: number) => `${votesLabel(n)} anulado${n === 1 ? '' : 's'} por moderación`;

/** The contestant's name, else the option's own text. */
export function optionLabel(option: PollOption): string {
  return option.contestant?.fullName ?? option.text ?? 'Opción';
}

/** "La Casa · Temporada 3 (2025)" */
export function seasonLabel(poll: Poll): string {
  return `${poll.season.reality.name} · Temporada ${poll.season.number} (${poll.season.year})`;
}

/** Points mode: each voter distributes up to maxPointsPerUser points across options. */
export const isPointsMode = (poll: Poll) => isPointsConfig(poll.pointsConfig);

export const STATUS_LABELS: Record<PollStatus, string> = { active: 'Activa', closed: 'Cerrada', draft: 'Borrador' };

/** An active poll whose end date has passed reads as closed (the server says so too on the next load). */
export function displayStatus(poll: Poll, endReached: boolean): PollStatus {
  return poll.status === 'active' && endReached ? 'closed' : poll.status;
}

export interface OptionRow {
  option: PollOption;
  label: string;
  result: OptionResult | null;
  /** Share of all points, 0..1. A single-choice vote is worth one point, so this also fits that mode. */
  share: number;
}

/** Options in their display order, each with its result (when results are available). */
export function buildOptionRows(poll: Poll, results: Pick<PollResults, 'options' | 'totalPoints'> | null): OptionRow[] {
  const byOption = new Map(results?.options.map((result) => [result.optionId, result]));
  const totalPoints = results?.totalPoints ?? 0;
  return [...poll.options]
    .sort((a, b) => a.order - b.order)
    .map((option) => {
      const result = byOption.get(option.id) ?? null;
      return {
        option,
        label: optionLabel(option),
        result,
        share: result && totalPoints > 0 ? result.totalPoints / totalPoints : 0,
      };
    });
}
