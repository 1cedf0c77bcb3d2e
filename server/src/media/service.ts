import type { DbOrTx } from '@tribuna/drizzle/client';
import { processImage } from './images.ts';
import type { ConcurrencyLimiter } from './limiter.ts';
import { referencedKeys } from './repository.ts';
import type { MediaStorage } from './storage.ts';
import { probeVideo, type VideoProbe } from './videoProbe.ts';

/** An image in storage, with what its `media` row needs (insertMedia) and what a view shows. */
export interface StoredImage {
  key: string;
  thumbKey: string;
  contentType: 'image/webp' | 'image/avif';
  width: number;
  height: number;
  /** Size of the stored image (not the thumbnail). */
  bytes: number;
  /** ThumbHash, base64. */
  placeholder: string;
  url: string;
  thumbnailUrl: string;
}

export interface IngestOptions {
  /** Crop the image square to at most this many pixels a side (contestant photos); see processImage. */
  square?: number;
  /** Crop to exactly this aspect ratio, at most this size (profile avatars and banners); see processImage. */
  cover?: { width: number; height: number };
}

/** An image to ingest: its bytes, or (an upload, see media/uploads.ts) the temporary file holding them. */
export type IngestFile = ({ data: Buffer } | { path: string }) & { declaredType: string };

/** The media pipeline as the domains use it (app.media). */
export interface MediaService {
  storage: MediaStorage;
  /**
   * Validates, re-encodes and stores one upload (image and thumbnail), bounded by the instance's
   * limiter. Throws HttpError 400 for a file that is not a usable image, 503 when too many wait.
   * Files are stored before any row names them: call `discard` if the transaction then fails.
   */
  ingest(file: IngestFile, options?: IngestOptions): Promise<StoredImage>;
  /**
   * Deletes the files of `images` that no media row names (after a failed transaction). Files
   * another row shares (the same image uploaded before) stay. What this misses, the worker's
   * media.gc removes after its grace period.
   */
  discard(images: Pick<StoredImage, 'key' | 'thumbKey'>[]): Promise<void>;
  /**
   * Reads an uploaded clip's duration, size and codecs (ffprobe), bounded by the same limiter as
   * images (503 when too many wait). Rejects with NotAVideoError for a file that is no readable
   * video, FfmpegUnavailableError when ffprobe cannot run (see videoProbe.ts).
   */
  probeVideo(path: string): Promise<VideoProbe>;
}

export function createMediaService(deps: { storage: MediaStorage; db: DbOrTx; limiter: ConcurrencyLimiter }): MediaService {
  const { storage, db, limiter } = deps;

  /** Content-addressed: a key already present holds exactly these bytes. */
  async function putOnce(key: string, data: Buffer, contentType: string): Promise<void> {
    if (!(await storage.exists(key))) await storage.put(key, data, contentType);
  }

  return {
    storage,
    async ingest(file, options = {}) {
      const input = 'path' in file ? file.path : file.data;
      const image = await limiter.run(() => processImage(input, { declaredType: file.declaredType, ...options }));
      await putOnce(image.key, image.data, image.contentType);
      await putOnce(image.thumbKey, image.thumb, image.contentType);
      return {
        key: image.key,
        thumbKey: image.thumbKey,
        contentType: image.contentType,
        width: image.width,
        height: image.height,
        bytes: image.data.length,
        placeholder: image.placeholder,
        url: storage.urlFor(image.key),
        thumbnailUrl: storage.urlFor(image.thumbKey),
      };
    },
    async discard(images) {
      const keys = [...new Set(images.flatMap((image) => [image.key, image.thumbKey]))];
      const kept = await referencedKeys(db, keys);
      for (const key of keys) if (!kept.has(key)) await storage.delete(key);
    },
    probeVideo: (path) => limiter.run(() => probeVideo(path)),
  };
}

// What other domains (posts, comments, profile images, the catalogue, the seed) use of media rows.
export { insertMedia, MEDIA_URL_PREFIX } from './repository.ts';
