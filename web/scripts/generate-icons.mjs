// Writes the PWA PNG icons into web/public using only Node built-ins (no network, no deps).
// Run once with `node web/scripts/generate-icons.mjs`; the PNGs are committed.
// The drawing mirrors web/public/icon.svg: a violet-to-pink gradient tile with a white "T".
import { deflateSync } from 'node:zlib';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const publicDir = fileURLToPath(new URL('../public/', import.meta.url));

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const byte of buf) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}
function encodePng(size, rgba) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 6; // RGBA
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0; // filter: none
    rgba.copy(raw, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const from = [124, 58, 237]; // violet-600
const to = [219, 39, 119]; // pink-600

/** Coverage (0..1) of a pixel by the shape, supersampled 4x4 for smooth edges. */
function coverage(x, y, inside) {
  let hits = 0;
  for (let sy = 0; sy < 4; sy++) for (let sx = 0; sx < 4; sx++) if (inside(x + (sx + 0.5) / 4, y + (sy + 0.5) / 4)) hits++;
  return hits / 16;
}

function draw(size, { rounded }) {
  const s = size / 512; // the design is drawn on a 512 grid
  const radius = rounded ? 112 * s : 0;
  const inTile = (x, y) => {
    if (!rounded) return true;
    const cx = Math.min(Math.max(x, radius), size - radius);
    const cy = Math.min(Math.max(y, radius), size - radius);
    return (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2;
  };
  // The "T": a bar and a stem, kept inside the maskable safe zone (central 80%).
  const inT = (x, y) => (x >= 136 * s && x <= 376 * s && y >= 132 * s && y <= 196 * s) || (x >= 224 * s && x <= 288 * s && y >= 132 * s && y <= 384 * s);
  const inDot = (x, y) => (x - 352 * s) ** 2 + (y - 352 * s) ** 2 <= (32 * s) ** 2;

  const rgba = Buffer.alloc(size * size * 4);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const t = (x + y) / (2 * size);
      let r = from[0] + (to[0] - from[0]) * t;
      let g = from[1] + (to[1] - from[1]) * t;
      let b = from[2] + (to[2] - from[2]) * t;
      const white = coverage(x, y, inT);
      const amber = coverage(x, y, inDot);
      r = r * (1 - white - amber) + 255 * white + 251 * amber;
      g = g * (1 - white - amber) + 255 * white + 191 * amber;
      b = b * (1 - white - amber) + 255 * white + 36 * amber;
      const i = (y * size + x) * 4;
      rgba[i] = Math.round(r);
      rgba[i + 1] = Math.round(g);
      rgba[i + 2] = Math.round(b);
      rgba[i + 3] = Math.round(255 * coverage(x, y, inTile));
    }
  }
  return encodePng(size, rgba);
}

const outputs = [
  ['icon-192.png', 192, { rounded: true }],
  ['icon-512.png', 512, { rounded: true }],
  ['icon-maskable-512.png', 512, { rounded: false }],
  ['apple-touch-icon.png', 180, { rounded: false }],
];
for (const [name, size, options] of outputs) {
  writeFileSync(publicDir + name, draw(size, options));
  console.log(`wrote public/${name}`);
}
