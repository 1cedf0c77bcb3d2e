import type { LiveOptionTotals } from '@tribuna/contracts/live';
import type { BallotOptionRow } from '../polls/service.ts';
import { presentableImageUrl } from '@tribuna/contracts/imageUrls';

/** What a link preview (Open Graph / Twitter card) of a shared poll shows. */
export interface SharePreview {
  title: string;
  description: string;
  url: string;
  image: string;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

export const SITE_NAME = 'Tribuna';

const optionName = (option: BallotOptionRow) => option.contestantName ?? option.text ?? 'Opción';

const votesLabel = (n: number) => `${n.toLocaleString('es-MX')} ${n === 1 ? 'voto' : 'votos'}`;

/** A poll's totals as a preview reads them (the live totals' snapshot has this shape). */
export interface PreviewTotals {
  totalVotes: number;
  totalPoints: number;
  options: readonly LiveOptionTotals[];
}

/** The option with the most points (ties: the first in order), with its share of all points. */
export function leaderOf(options: readonly BallotOptionRow[], totals: PreviewTotals) {
  if (totals.totalPoints <= 0) return null;
  const byOption = new Map(totals.options.map((c) => [c.optionId, c]));
  let best: { option: BallotOptionRow; points: number } | null = null;
  for (const option of options) {
    const points = byOption.get(option.id)?.totalPoints ?? 0;
    if (points > 0 && (!best || points > best.points)) best = { option, points };
  }
  if (!best) return null;
  return {
    option: best.option,
    name: optionName(best.option),
    percent: Math.round((best.points * 100) / totals.totalPoints),
    totalVotes: totals.totalVotes,
  };
}

export interface PreviewInput {
  pollId: string;
  title: string;
  closed: boolean;
  showResults: boolean;
  options: readonly BallotOptionRow[];
  /** null when the results are hidden or could not be read (Redis unavailable): no figures then. */
  totals: PreviewTotals | null;
  publicUrl: string;
}

export function buildSharePreview(input: PreviewInput): SharePreview {
  const leader = input.showResults && input.totals ? leaderOf(input.options, input.totals) : null;
  let description: string;
  if (!input.showResults || !input.totals) description = '¡Vota en Tribuna!';
  else if (leader && input.closed) description = `Ganó ${leader.name} con ${leader.percent}% · ${votesLabel(leader.totalVotes)} — Tribuna`;
  else if (leader) description = `Va ganando ${leader.name} con ${leader.percent}% · ${votesLabel(leader.totalVotes)} — ¡Vota en Tribuna!`;
  else if (input.closed) description = 'Encuesta cerrada — Tribuna';
  else description = 'Sé el primero en votar — ¡Vota en Tribuna!';

  const photo = leader?.option.contestantPhotoUrl ?? null;
  return {
    title: input.title,
    description,
    url: `${input.publicUrl}/?encuesta=${input.pollId}`,
    image: photo ? absoluteUrl(photo, input.publicUrl) : `${input.publicUrl}/icon-512.png`,
  };
}

function absoluteUrl(url: string, publicUrl: string): string {
  const presentable = presentableImageUrl(url);
  if (!presentable) return `${publicUrl}/icon-512.png`;
  try {
    return new URL(presentable, `${publicUrl}/`).toString();
  } catch {
    return `${publicUrl}/icon-512.png`;
  }
}

/** The <head> tags of a shared poll's page, every value escaped. */
export function renderPreviewTags(preview: SharePreview): string {
  const meta = (attr: 'property' | 'name', key: string, value: string) => `<meta ${attr}="${key}" content="${escapeHtml(value)}" />`;
  return [
    `<title>${escapeHtml(`${preview.title} · ${SITE_NAME}`)}</title>`,
    meta('property', 'og:type', 'website'),
    meta('property', 'og:site_name', SITE_NAME),
    meta('property', 'og:title', preview.title),
    meta('property', 'og:description', preview.description),
    meta('property', 'og:url', preview.url),
    meta('property', 'og:image', preview.image),
    meta('property', 'og:locale', 'es_MX'),
    meta('name', 'twitter:card', 'summary_large_image'),
    meta('name', 'twitter:title', preview.title),
    meta('name', 'twitter:description', preview.description),
    meta('name', 'twitter:image', preview.image),
  ].join('\n    ');
}
