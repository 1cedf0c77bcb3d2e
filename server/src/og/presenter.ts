import { presentableImageUrl } from '@tribuna/contracts/imageUrls';
import { CARD_HEIGHT, CARD_WIDTH } from './card.ts';
import type { LiveOptionTotals } from '@tribuna/contracts/live';
import type { BallotOptionRow } from '../polls/service.ts';

/** What a link preview (Open Graph / Twitter card) of a shared poll shows. */
export interface SharePreview {
  title: string;
  description: string;
  url: string;
  /** The poll's share card (og/card.ts), its URL versioned by the results it shows. */
  image: string;
  imageAlt: string;
  /** The image's type and size when known (a poll's card: image/png, 1200×630). */
  imageType?: string;
  imageWidth?: number | null;
  imageHeight?: number | null;
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
  totals: (PreviewTotals & { seq?: number }) | null;
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

  return {
    title: input.title,
    description,
    url: `${input.publicUrl}/?encuesta=${input.pollId}`,
    // The version lets chat apps that cache images by URL fetch the newer result.
    image: `${input.publicUrl}/api/polls/${input.pollId}/card.png?v=${input.showResults ? (input.totals?.seq ?? 0) : 0}`,
    imageAlt: input.showResults && input.totals ? `Resultados en vivo de «${input.title}» en Tribuna` : `«${input.title}»: vota en Tribuna`,
    imageType: 'image/png',
    imageWidth: CARD_WIDTH,
    imageHeight: CARD_HEIGHT,
  };
}

/** A post as a link preview shows it. */
export interface PostPreviewInput {
  postId: string;
  authorName: string;
  content: string;
  /** The post's first image (a site path or an http(s) URL as stored), with its size and alt. */
  image: { url: string; width: number | null; height: number | null; alt: string | null } | null;
  publicUrl: string;
}

/** Characters of a post's text in a preview's description. */
export const POST_EXCERPT_CHARS = 200;

export function buildPostPreview(input: PostPreviewInput): SharePreview {
  const text = input.content.replace(/\s+/g, ' ').trim();
  const excerpt =
    [...text].length > POST_EXCERPT_CHARS
      ? `${[...text]
          .slice(0, POST_EXCERPT_CHARS - 1)
          .join('')
          .trimEnd()}…`
      : text;
  const image = input.image ? absoluteUrl(input.image.url, input.publicUrl) : null;
  const title = `Publicación de ${input.authorName}`;
  return {
    title,
    description: excerpt || 'Mira esta publicación en Tribuna',
    url: `${input.publicUrl}/wall?post=${input.postId}`,
    image: image ?? `${input.publicUrl}/icon-512.png`,
    imageAlt: image ? input.image!.alt || `Imagen de la publicación de ${input.authorName}` : 'Tribuna',
    ...(image && input.image!.width && input.image!.height ? { imageWidth: input.image!.width, imageHeight: input.image!.height } : {}),
  };
}

/** A stored image URL as an absolute one of the site or an http(s) URL; null for anything else. */
function absoluteUrl(url: string, publicUrl: string): string | null {
  const presentable = presentableImageUrl(url);
  if (!presentable) return null;
  try {
    const absolute = new URL(presentable, `${publicUrl}/`);
    return absolute.protocol === 'https:' || absolute.protocol === 'http:' ? absolute.toString() : null;
  } catch {
    return null;
  }
}

/** The <head> tags of a shared poll's or post's page, every value escaped. */
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
    ...(preview.imageType ? [meta('property', 'og:image:type', preview.imageType)] : []),
    ...(preview.imageWidth && preview.imageHeight
      ? [meta('property', 'og:image:width', String(preview.imageWidth)), meta('property', 'og:image:height', String(preview.imageHeight))]
      : []),
    meta('property', 'og:image:alt', preview.imageAlt),
    meta('property', 'og:locale', 'es_MX'),
    meta('name', 'twitter:card', 'summary_large_image'),
    meta('name', 'twitter:title', preview.title),
    meta('name', 'twitter:description', preview.description),
    meta('name', 'twitter:image', preview.image),
    meta('name', 'twitter:image:alt', preview.imageAlt),
  ].join('\n    ');
}
