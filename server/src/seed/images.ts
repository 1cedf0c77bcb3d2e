// Demo images drawn locally: SVG scenes rendered to WebP with sharp (no downloads, no assets).
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';

const FONT = "'DejaVu Sans', 'Liberation Sans', Arial, Helvetica, sans-serif";

/** Pairs of gradient colours, bright enough for white text in both themes. */
export const PALETTES: readonly (readonly [string, string])[] = [
  ['#ff0080', '#7928ca'],
  ['#f7971e', '#ff4e50'],
  ['#00c6ff', '#0072ff'],
  ['#11998e', '#38ef7d'],
  ['#fc466b', '#3f5efb'],
  ['#f953c6', '#b91d73'],
  ['#ff9966', '#ff5e62'],
  ['#43cea2', '#185a9d'],
  ['#8e2de2', '#4a00e0'],
  ['#ee9ca7', '#c0392b'],
  ['#f2994a', '#f2c94c'],
  ['#00b09b', '#96c93d'],
];

export function palette(index: number): readonly [string, string] {
  return PALETTES[((index % PALETTES.length) + PALETTES.length) % PALETTES.length]!;
}

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}

export function initials(name: string): string {
  const words = name
    .replace(/[^\p{L}\s]/gu, ' ')
    .split(/\s+/)
    .filter(Boolean);
  const letters = words.length >= 2 ? [words[0]![0], words[words.length - 1]![0]] : [words[0]?.[0], words[0]?.[1]];
  return letters.filter(Boolean).join('').toUpperCase() || '?';
}

function gradient(id: string, [from, to]: readonly [string, string], vertical = false): string {
  const end = vertical ? 'x2="0" y2="1"' : 'x2="1" y2="1"';
  return `<linearGradient id="${id}" x1="0" y1="0" ${end}><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient>`;
}

/** Small four-pointed stars scattered deterministically from `seed`. */
function stars(width: number, height: number, count: number, seed: number, opacity = 0.35): string {
  let state = seed * 9301 + 49297;
  const next = () => {
    state = (state * 9301 + 49297) % 233280;
    return state / 233280;
  };
  const shapes: string[] = [];
  for (let i = 0; i < count; i++) {
    const x = next() * width;
    const y = next() * height;
    const r = 4 + next() * (Math.min(width, height) / 40);
    shapes.push(
      `<path d="M${x} ${y - r} L${x + r / 4} ${y - r / 4} L${x + r} ${y} L${x + r / 4} ${y + r / 4} L${x} ${y + r} L${x - r / 4} ${y + r / 4} L${x - r} ${y} L${x - r / 4} ${y - r / 4} Z" fill="#fff" opacity="${(opacity * (0.4 + next() * 0.6)).toFixed(2)}"/>`,
    );
  }
  return shapes.join('');
}

function svg(width: number, height: number, defs: string, body: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><defs>${defs}</defs>${body}</svg>`;
}

/** Contestant portrait: gradient studio backdrop, a silhouette and the initials. */
export function contestantPortraitSvg(name: string, index: number): string {
  const size = 600;
  const colors = palette(index);
  return svg(
    size,
    size,
    `${gradient('bg', colors)}<radialGradient id="glow" cx="0.5" cy="0.35" r="0.6"><stop offset="0" stop-color="#fff" stop-opacity="0.45"/><stop offset="1" stop-color="#fff" stop-opacity="0"/></radialGradient>`,
    `<rect width="${size}" height="${size}" fill="url(#bg)"/>
     <rect width="${size}" height="${size}" fill="url(#glow)"/>
     ${stars(size, size, 14, index + 1)}
     <circle cx="300" cy="215" r="105" fill="#000" opacity="0.28"/>
     <path d="M70 600 C 90 420, 190 350, 300 350 C 410 350, 510 420, 530 600 Z" fill="#000" opacity="0.28"/>
     <text x="300" y="520" font-family="${FONT}" font-size="120" font-weight="bold" fill="#fff" text-anchor="middle" opacity="0.95">${escapeXml(initials(name))}</text>`,
  );
}

/** User avatar: initials on a diagonal gradient. */
export function avatarSvg(name: string, index: number): string {
  const size = 256;
  return svg(
    size,
    size,
    gradient('bg', palette(index + 3)),
    `<rect width="${size}" height="${size}" fill="url(#bg)"/>
     ${stars(size, size, 5, index + 40, 0.3)}
     <text x="128" y="158" font-family="${FONT}" font-size="96" font-weight="bold" fill="#fff" text-anchor="middle">${escapeXml(initials(name))}</text>`,
  );
}

/** Profile or group banner, 1500x500 as the profile form recommends. */
export function bannerSvg(title: string, index: number): string {
  const [w, h] = [1500, 500];
  const [from, to] = palette(index + 5);
  return svg(
    w,
    h,
    gradient('bg', [from, to]),
    `<rect width="${w}" height="${h}" fill="url(#bg)"/>
     ${stars(w, h, 40, index + 70)}
     <path d="M0 380 C 300 300, 500 460, 800 380 S 1300 300, 1500 360 L1500 500 L0 500 Z" fill="#fff" opacity="0.18"/>
     <path d="M0 430 C 350 370, 650 500, 950 430 S 1350 390, 1500 420 L1500 500 L0 500 Z" fill="#fff" opacity="0.22"/>
     <text x="80" y="150" font-family="${FONT}" font-size="64" font-weight="bold" fill="#fff" opacity="0.9">${escapeXml(title)}</text>`,
  );
}

export type SceneKind = 'stage' | 'party' | 'city' | 'beach' | 'kitchen';

/** Wall post picture: a simple colourful scene with a caption. */
export function sceneSvg(kind: SceneKind, caption: string, index: number, width = 1200, height = 900): string {
  const colors = palette(index * 2 + 1);
  const w = width;
  const h = height;
  let scene = '';
  switch (kind) {
    case 'stage': {
      const beams = [0.2, 0.5, 0.8]
        .map((x, i) => `<path d="M${w * x} 0 L${w * x - 220} ${h * 0.78} L${w * x + 220} ${h * 0.78} Z" fill="#fff" opacity="${0.12 + i * 0.04}"/>`)
        .join('');
      scene = `${beams}<rect y="${h * 0.78}" width="${w}" height="${h * 0.22}" fill="#1b1033" opacity="0.85"/>
        ${[0.15, 0.35, 0.55, 0.75]
          .map(
            (x) =>
              `<circle cx="${w * x + 60}" cy="${h * 0.62}" r="34" fill="#1b1033"/><rect x="${w * x + 26}" y="${h * 0.66}" width="68" height="${h * 0.14}" rx="30" fill="#1b1033"/>`,
          )
          .join('')}`;
      break;
    }
    case 'party': {
      const confetti = Array.from({ length: 70 }, (_, i) => {
        const x = (i * 137.5) % w;
        const y = (i * 71.3 + index * 40) % (h * 0.8);
        const c = ['#ffe66d', '#ff6b6b', '#4ecdc4', '#ffffff', '#c56cf0'][i % 5];
        return `<rect x="${x}" y="${y}" width="14" height="26" rx="4" fill="${c}" transform="rotate(${(i * 37) % 180} ${x} ${y})" opacity="0.9"/>`;
      }).join('');
      scene = `${confetti}<circle cx="${w * 0.3}" cy="${h * 0.35}" r="80" fill="#ffe66d" opacity="0.85"/><line x1="${w * 0.3}" y1="${h * 0.35 + 80}" x2="${w * 0.31}" y2="${h * 0.75}" stroke="#fff" stroke-width="4"/>
        <circle cx="${w * 0.7}" cy="${h * 0.3}" r="70" fill="#ff6b6b" opacity="0.85"/><line x1="${w * 0.7}" y1="${h * 0.3 + 70}" x2="${w * 0.69}" y2="${h * 0.7}" stroke="#fff" stroke-width="4"/>`;
      break;
    }
    case 'city': {
      const buildings = Array.from({ length: 14 }, (_, i) => {
        const bw = w / 14;
        const bh = h * (0.25 + ((i * 53) % 40) / 100);
        const windows = Array.from(
          { length: Math.floor(bh / 60) },
          (_, j) =>
            `<rect x="${i * bw + bw * 0.3}" y="${h - bh + 20 + j * 60}" width="${bw * 0.4}" height="24" fill="#ffe66d" opacity="${(i + j) % 3 === 0 ? 0.9 : 0.25}"/>`,
        ).join('');
        return `<rect x="${i * bw}" y="${h - bh}" width="${bw - 4}" height="${bh}" fill="#1b1033" opacity="0.8"/>${windows}`;
      }).join('');
      scene = `<circle cx="${w * 0.8}" cy="${h * 0.22}" r="70" fill="#fff" opacity="0.8"/>${stars(w, h * 0.5, 25, index + 9, 0.6)}${buildings}`;
      break;
    }
    case 'beach': {
      scene = `<circle cx="${w * 0.5}" cy="${h * 0.55}" r="150" fill="#ffe66d" opacity="0.9"/>
        <rect y="${h * 0.55}" width="${w}" height="${h * 0.45}" fill="#0b4f6c" opacity="0.75"/>
        ${Array.from({ length: 6 }, (_, i) => `<path d="M0 ${h * 0.6 + i * 45} Q ${w / 4} ${h * 0.58 + i * 45}, ${w / 2} ${h * 0.6 + i * 45} T ${w} ${h * 0.6 + i * 45}" stroke="#fff" stroke-width="4" fill="none" opacity="0.35"/>`).join('')}
        <path d="M${w * 0.12} ${h} L${w * 0.16} ${h * 0.45} L${w * 0.18} ${h}" fill="#3d2c1e"/>
        <path d="M${w * 0.16} ${h * 0.45} q -120 -20 -170 60 M${w * 0.16} ${h * 0.45} q 120 -30 170 50 M${w * 0.16} ${h * 0.45} q -30 -110 -120 -110" stroke="#1e5128" stroke-width="26" fill="none" stroke-linecap="round"/>`;
      break;
    }
    case 'kitchen': {
      scene = `<rect y="${h * 0.62}" width="${w}" height="${h * 0.38}" fill="#2d2d2d" opacity="0.55"/>
        <ellipse cx="${w * 0.5}" cy="${h * 0.6}" rx="260" ry="60" fill="#eeeeee"/>
        <ellipse cx="${w * 0.5}" cy="${h * 0.55}" rx="200" ry="90" fill="#e85d04"/>
        <circle cx="${w * 0.44}" cy="${h * 0.5}" r="30" fill="#38b000"/><circle cx="${w * 0.56}" cy="${h * 0.49}" r="26" fill="#ffba08"/>
        ${[0.42, 0.5, 0.58].map((x) => `<path d="M${w * x} ${h * 0.4} q 20 -40 0 -80 q -20 -40 0 -80" stroke="#fff" stroke-width="8" fill="none" opacity="0.5"/>`).join('')}`;
      break;
    }
  }
  return svg(
    w,
    h,
    gradient('bg', colors, true),
    `<rect width="${w}" height="${h}" fill="url(#bg)"/>${scene}
     <rect x="0" y="${h - 120}" width="${w}" height="120" fill="#000" opacity="0.35"/>
     <text x="${w / 2}" y="${h - 45}" font-family="${FONT}" font-size="54" font-weight="bold" fill="#fff" text-anchor="middle">${escapeXml(caption)}</text>`,
  );
}

export interface WrittenImage {
  /** Public URL under /media/. */
  url: string;
  width: number;
  height: number;
}

/** Renders an SVG to `<mediaDir>/demo/<name>.webp` and returns its /media URL and size. */
export async function writeWebp(mediaDir: string, name: string, svgText: string): Promise<WrittenImage> {
  if (!/^[a-z0-9_-]+$/.test(name)) throw new Error(`Bad demo image name "${name}"`);
  const dir = path.resolve(mediaDir, 'demo');
  await mkdir(dir, { recursive: true });
  const info = await sharp(Buffer.from(svgText))
    .webp({ quality: 82 })
    .toFile(path.join(dir, `${name}.webp`));
  return { url: `/media/demo/${name}.webp`, width: info.width, height: info.height };
}

/** Renders an SVG as the bytes a phone would upload (JPEG) or a screenshot (PNG): the pipeline's input. */
export async function renderUpload(svgText: string, format: 'jpeg' | 'png'): Promise<Buffer> {
  const image = sharp(Buffer.from(svgText));
  return format === 'jpeg' ? image.jpeg({ quality: 90 }).toBuffer() : image.png().toBuffer();
}
