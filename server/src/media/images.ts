import sharp, { type Metadata, type OutputInfo, type SharpOptions } from 'sharp';
import { fileTypeFromBuffer, fileTypeFromFile } from 'file-type';
import { rgbaToThumbHash } from 'thumbhash';
import { IMAGE_MIME_TYPES, WALL_MESSAGES } from '@tribuna/contracts/wallRules';
import { badRequest } from '../http/errors.ts';
import { contentKey } from './storage.ts';

// One libvips thread per image: the limiter (limiter.ts) bounds how many images run at once, so
// at most that many of libuv's four threads are busy with images and the rest stay free for
// file and DNS work. The operation cache is useless for uploads that are each seen once.
sharp.concurrency(1);
sharp.cache(false);

/** Images above this many pixels are refused before decoding (a small PNG can declare gigapixels). */
export const MAX_INPUT_PIXELS = 40_000_000;
/** The stored image fits inside this box (never enlarged). */
export const MAX_DIMENSION = 2048;
/** The thumbnail fits inside this box. */
export const THUMB_DIMENSION = 480;
const WEBP_QUALITY = 80;
/** ThumbHash encodes at most 100×100 pixels. */
const THUMBHASH_DIMENSION = 100;

export interface ProcessImageOptions {
  /** The Content-Type the client sent for the file; only used to refuse a lie. */
  declaredType?: string;
  maxPixels?: number;
  /**
   * Crop to a square of this side (never enlarged: a smaller image gives a square of its shorter
   * side), keeping the most salient region (libvips' attention strategy). Contestant photos.
   */
  square?: number;
  /**
   * Crop to exactly this aspect ratio, as large as the image allows up to this size (never
   * enlarged), keeping the most salient region: profile banners (1500×500) and avatars (400×400).
   */
  cover?: { width: number; height: number };
}

/** The box an image is cropped to (`square` or `cover`), from its upright dimensions; null: no crop. */
function cropBox(options: ProcessImageOptions, metadata: Metadata): { width: number; height: number } | null {
  const frameHeight = metadata.pageHeight ?? metadata.height!;
  if (options.square) {
    // The side is what both dimensions allow (rotation swaps them, the shorter stays the shorter).
    const side = Math.min(options.square, metadata.width!, frameHeight);
    return { width: side, height: side };
  }
  if (options.cover) {
    // EXIF orientations 5-8 turn the image a quarter: its upright width is the stored height.
    const turned = (metadata.orientation ?? 1) >= 5;
    const width = turned ? frameHeight : metadata.width!;
    const height = turned ? metadata.width! : frameHeight;
    const scale = Math.min(1, width / options.cover.width, height / options.cover.height);
    return {
      width: Math.max(1, Math.min(width, Math.round(options.cover.width * scale))),
      height: Math.max(1, Math.min(height, Math.round(options.cover.height * scale))),
    };
  }
  return null;
}

export interface ProcessedImage {
  contentType: 'image/webp';
  data: Buffer;
  width: number;
  height: number;
  thumb: Buffer;
  thumbWidth: number;
  thumbHeight: number;
  /** ThumbHash, base64. */
  placeholder: string;
  /** Content-addressed storage keys of `data` and `thumb`. */
  key: string;
  thumbKey: string;
}

/** An image's bytes, or the path of a file holding them (an upload streamed to disk: sharp reads it from there). */
export type ImageInput = Buffer | string;

/** The type the bytes' signature tells (file-type reads only the first few kilobytes of a file). */
export function sniffType(input: ImageInput): ReturnType<typeof fileTypeFromBuffer> {
  return typeof input === 'string' ? fileTypeFromFile(input) : fileTypeFromBuffer(input);
}

type ImageMimeType = (typeof IMAGE_MIME_TYPES)[number];
const isImageMimeType = (mime: string): mime is ImageMimeType => (IMAGE_MIME_TYPES as readonly string[]).includes(mime);

/** The declared type as a comparable MIME type: lower case, no parameters, image/jpg spelled image/jpeg. */
function normalizedDeclaredType(declared: string | undefined): string {
  const mime = (declared ?? '').split(';')[0]!.trim().toLowerCase();
  return mime === 'image/jpg' ? 'image/jpeg' : mime;
}

/**
 * The bytes' own type, from their signature. The file name and the client's Content-Type are
 * never trusted: a script renamed photo.jpg is refused here, and a PNG declared as a GIF is
 * refused as a lie (an absent or generic declared type is fine: some browsers send nothing).
 */
async function sniffImageType(input: ImageInput, declaredType: string | undefined): Promise<ImageMimeType> {
  const sniffed = (await sniffType(input))?.mime;
  if (sniffed === undefined || !isImageMimeType(sniffed)) throw badRequest(WALL_MESSAGES.imagesOnly);
  const declared = normalizedDeclaredType(declaredType);
  if (declared.startsWith('image/') && declared !== sniffed) throw badRequest(WALL_MESSAGES.typeMismatch);
  return sniffed;
}

/**
 * Re-encodes an upload into what the site stores and serves: auto-oriented, first frame only,
 * within 2048×2048, WebP, with no metadata (sharp writes none unless asked: EXIF with its GPS
 * position, XMP, IPTC and foreign ICC profiles are dropped and pixels are converted to sRGB),
 * plus a 480×480 thumbnail and a ThumbHash placeholder (with `square` or `cover`: cropped first). Re-encoding also neutralises polyglots:
 * what is served is pixels sharp wrote, never bytes the client sent.
 * Throws HttpError 400 (imagesOnly, typeMismatch, imageTooManyPixels, imageUnreadable).
 */
export async function processImage(input: ImageInput, options: ProcessImageOptions = {}): Promise<ProcessedImage> {
  await sniffImageType(input, options.declaredType);
  const maxPixels = options.maxPixels ?? MAX_INPUT_PIXELS;
  // failOn 'error' (implies 'truncated'): a cut-off or corrupt file fails instead of being padded
  // with grey; limitInputPixels is the decoder's own guard behind the header check below.
  // pages 1: an animated GIF or WebP keeps its first frame.
  const inputOptions: SharpOptions = { failOn: 'error', limitInputPixels: maxPixels, pages: 1 };

  let metadata: Metadata;
  try {
    // Only the header is read here; the limit is checked below, with its own message.
    metadata = await sharp(input, { ...inputOptions, limitInputPixels: false }).metadata();
  } catch {
    throw badRequest(WALL_MESSAGES.imageUnreadable);
  }
  if (!metadata.width || !metadata.height) throw badRequest(WALL_MESSAGES.imageUnreadable);
  if (metadata.width * metadata.height > maxPixels) throw badRequest(WALL_MESSAGES.imageTooManyPixels);

  // Square or cover: cropped to that shape without being enlarged. pageHeight: one frame.
  const box = cropBox(options, metadata);
  let main: { data: Buffer; info: OutputInfo };
  try {
    main = await sharp(input, inputOptions)
      .rotate()
      .resize(
        box
          ? { ...box, fit: 'cover', position: sharp.strategy.attention }
          : { width: MAX_DIMENSION, height: MAX_DIMENSION, fit: 'inside', withoutEnlargement: true },
      )
      .webp({ quality: WEBP_QUALITY })
      .toBuffer({ resolveWithObject: true });
  } catch {
    throw badRequest(WALL_MESSAGES.imageUnreadable);
  }

  // The thumbnail and the placeholder come from the (at most 2048 px) WebP just written:
  // decoding it is far cheaper than decoding the original again.
  const thumb = await sharp(main.data)
    .resize(THUMB_DIMENSION, THUMB_DIMENSION, { fit: 'inside', withoutEnlargement: true })
    .webp({ quality: WEBP_QUALITY })
    .toBuffer({ resolveWithObject: true });
  const small = await sharp(main.data)
    .resize(THUMBHASH_DIMENSION, THUMBHASH_DIMENSION, { fit: 'inside' })
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const placeholder = Buffer.from(rgbaToThumbHash(small.info.width, small.info.height, small.data)).toString('base64');

  return {
    contentType: 'image/webp',
    data: main.data,
    width: main.info.width,
    height: main.info.height,
    thumb: thumb.data,
    thumbWidth: thumb.info.width,
    thumbHeight: thumb.info.height,
    placeholder,
    key: contentKey(main.data, 'webp'),
    thumbKey: contentKey(thumb.data, 'webp'),
  };
}
