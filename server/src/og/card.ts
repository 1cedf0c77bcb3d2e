import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { resolve, sep } from 'node:path';
import satori from 'satori';
import { Resvg } from '@resvg/resvg-js';
import sharp from 'sharp';
import { presentableImageUrl } from '@tribuna/contracts/imageUrls';
import type { BallotOptionRow } from '../polls/service.ts';
import type { PreviewTotals } from './presenter.ts';

// The share card of a poll: a 1200×630 PNG drawn on the server from its current results, what chat
// apps and social networks show for a shared link (og:image). Markup (satori) → SVG → PNG (resvg),
// with the project's own font files (no network at run time) and the contestants' photos read from
// MEDIA_DIR (a photo elsewhere is drawn as the option's initial).

export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;
/** Options drawn on a card; a longer ballot ends with '+N más'. */
export const CARD_MAX_OPTIONS = 6;

const require = createRequire(import.meta.url);
const FONT_FILES = {
  400: require.resolve('@fontsource/inter/files/inter-latin-400-normal.woff'),
  700: require.resolve('@fontsource/inter/files/inter-latin-700-normal.woff'),
} as const;

let fonts: Promise<{ name: string; data: Buffer; weight: 400 | 700; style: 'normal' }[]> | null = null;
function loadFonts() {
  fonts ??= Promise.all(
    ([400, 700] as const).map(async (weight) => ({ name: 'Inter', data: await readFile(FONT_FILES[weight]), weight, style: 'normal' as const })),
  );
  return fonts;
}

// The brand: the ink of the dark theme and the violet-to-pink gradient of both themes.
const INK = '#0f0a1e';
const INK_SOFT = '#211a3a';
const TEXT = '#ffffff';
const MUTED = '#c4b5fd';
const GRADIENT = 'linear-gradient(135deg, #7c3aed 0%, #db2777 100%)';

export interface CardInput {
  title: string;
  closed: boolean;
  showResults: boolean;
  options: readonly BallotOptionRow[];
  /** null: results hidden or unavailable (the card lists the options without figures). */
  totals: PreviewTotals | null;
  mediaDir: string;
}

type Node = { type: string; props: Record<string, unknown> & { style?: Record<string, unknown>; children?: unknown } };
const el = (type: string, style: Record<string, unknown>, children?: unknown, extra: Record<string, unknown> = {}): Node => ({
  type,
  props: { style, children, ...extra },
});

const optionName = (option: BallotOptionRow) => option.contestantName ?? option.text ?? 'Opción';
const votesLabel = (n: number) => `${n.toLocaleString('es-MX')} ${n === 1 ? 'voto' : 'votos'}`;

/** A photo under /media/ as a small PNG data URI, or null (elsewhere, missing, unreadable). */
async function photoDataUri(url: string | null | undefined, mediaDir: string): Promise<string | null> {
  const path = presentableImageUrl(url);
  if (!path || !path.startsWith('/media/')) return null;
  const root = resolve(mediaDir);
  const file = resolve(root, decodeURIComponent(path.slice('/media/'.length)));
  if (!file.startsWith(root + sep)) return null;
  try {
    const png = await sharp(file).resize(96, 96, { fit: 'cover' }).png().toBuffer();
    return `data:image/png;base64,${png.toString('base64')}`;
  } catch {
    return null;
  }
}

/** The poll's card as a PNG: title, up to CARD_MAX_OPTIONS options with photo, bar and percentage, the totals. */
export async function renderPollCard(input: CardInput): Promise<Buffer> {
  const byOption = new Map((input.totals?.options ?? []).map((o) => [o.optionId, o]));
  const points = input.totals?.totalPoints ?? 0;
  const shown = input.options.slice(0, CARD_MAX_OPTIONS);
  const photos = await Promise.all(shown.map((o) => photoDataUri(o.contestantPhotoUrl, input.mediaDir)));
  const withFigures = input.showResults && input.totals !== null;

  const rows = shown.map((option, i) => {
    const share = withFigures && points > 0 ? ((byOption.get(option.id)?.totalPoints ?? 0) * 100) / points : 0;
    const percent = Math.round(share);
    const photo = photos[i];
    const avatar = photo
      ? el('img', { width: 44, height: 44, borderRadius: 22 }, undefined, { src: photo, width: 44, height: 44 })
      : el(
          'div',
          {
            width: 44,
            height: 44,
            borderRadius: 22,
            background: GRADIENT,
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'center',
            fontSize: 22,
            fontWeight: 700,
            flexShrink: 0,
          },
          optionName(option).slice(0, 1).toUpperCase(),
        );
    const bar = el('div', { display: 'flex', height: 12, borderRadius: 6, background: INK_SOFT, width: '100%', marginTop: 6 }, [
      el('div', { height: 12, borderRadius: 6, background: GRADIENT, width: `${Math.max(share, withFigures ? 1 : 0)}%` }),
    ]);
    return el('div', { display: 'flex', alignItems: 'center', gap: 20 }, [
      avatar,
      el('div', { display: 'flex', flexDirection: 'column', flexGrow: 1 }, [
        el('div', { display: 'flex', justifyContent: 'space-between', fontSize: 24 }, [
          el('div', { display: 'flex', maxWidth: 760, overflow: 'hidden', whiteSpace: 'nowrap', textOverflow: 'ellipsis' }, optionName(option)),
          el('div', { display: 'flex', fontWeight: 700 }, withFigures ? `${percent}%` : ''),
        ]),
        withFigures ? bar : el('div', { display: 'flex' }),
      ]),
    ]);
  });
  const more = input.options.length - shown.length;
  const footer = [
    withFigures ? votesLabel(input.totals!.totalVotes) : input.showResults ? '' : 'Resultados ocultos hasta el cierre',
    input.closed ? 'Encuesta cerrada' : 'Vota en Tribuna',
  ].filter(Boolean);

  const tree = el(
    'div',
    {
      width: '100%',
      height: '100%',
      display: 'flex',
      flexDirection: 'column',
      background: INK,
      color: TEXT,
      fontFamily: 'Inter',
      padding: '40px 64px',
      boxSizing: 'border-box',
    },
    [
      el('div', { display: 'flex', alignItems: 'center', justifyContent: 'space-between' }, [
        el('div', { display: 'flex', fontSize: 30, fontWeight: 700, backgroundImage: GRADIENT, backgroundClip: 'text', color: 'transparent' }, 'Tribuna'),
        el('div', { display: 'flex', fontSize: 24, color: MUTED }, input.closed ? 'Resultado final' : 'En vivo'),
      ]),
      el('div', { display: 'block', fontSize: 36, fontWeight: 700, marginTop: 12, lineHeight: 1.15, lineClamp: 2, flexShrink: 0 }, input.title),
      el('div', { display: 'flex', flexDirection: 'column', gap: 8, marginTop: 18, flexGrow: 1 }, [
        ...rows,
        ...(more > 0 ? [el('div', { display: 'flex', fontSize: 24, color: MUTED }, `+${more} más`)] : []),
      ]),
      el('div', { display: 'flex', justifyContent: 'space-between', fontSize: 26, color: MUTED }, [
        el('div', { display: 'flex' }, footer[0] ?? ''),
        el('div', { display: 'flex', fontWeight: 700, color: TEXT }, footer[1] ?? ''),
      ]),
    ],
  );
  const svg = await satori(tree as unknown as Parameters<typeof satori>[0], { width: CARD_WIDTH, height: CARD_HEIGHT, fonts: await loadFonts() });
  return new Resvg(svg, { fitTo: { mode: 'width', value: CARD_WIDTH } }).render().asPng();
}
