import { createHash, randomBytes } from 'node:crypto';
import { mkdir, opendir, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';

// No server-only imports here: the worker's media GC uses this module too.

/**
 * Where uploaded images live. Keys are relative, slash-separated and content-addressed
 * (`ab/cd/<sha256>.webp`). Only the local disk exists today; an S3 (or R2, GCS) implementation is
 * a drop-in: put/delete/exists map to PutObject/DeleteObject/HeadObject, list to ListObjectsV2
 * over the fan-out prefixes, urlFor to the bucket's or CDN's public URL.
 */
export interface MediaStorage {
  /** Stores `data` under `key`; a reader never sees a half-written file. */
  put(key: string, data: Buffer, contentType: string): Promise<void>;
  /** Removes `key`; a missing key is not an error. */
  delete(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
  /** Every file this storage may have written (content keys and leftover temporary files), for the GC. */
  list(): AsyncIterable<{ key: string; modifiedAt: Date }>;
  /** The public URL of `key`. */
  urlFor(key: string): string;
}

const KEY = /^[a-z0-9._-]+(?:\/[a-z0-9._-]+)*$/;
const HEX_DIR = /^[0-9a-f]{2}$/;
/** A stored file (`<sha256>.webp`) or what a crashed put left behind (`<sha256>.webp.<random>.tmp`). */
const STORED_FILE = /^[0-9a-f]{64}\.(?:webp|avif)(?:\.[0-9a-f]{16}\.tmp)?$/;

/** Refuses keys that could leave the storage root or that this module would never generate. */
export function assertValidKey(key: string): void {
  if (!KEY.test(key) || key.split('/').some((segment) => segment === '.' || segment === '..')) {
    throw new Error(`invalid media key ${JSON.stringify(key)}`);
  }
}

/**
 * The content-addressed key of encoded bytes: the sha256 of the bytes, fanned out over two levels
 * of directories (65,536 of them) so no directory holds more than a few entries per million files.
 */
export function contentKey(data: Buffer, extension: 'webp' | 'avif'): string {
  const hash = createHash('sha256').update(data).digest('hex');
  return `${hash.slice(0, 2)}/${hash.slice(2, 4)}/${hash}.${extension}`;
}

/**
 * Files under `root` (MEDIA_DIR), served at /media/. Files written by hand or by the seed
 * (`demo/`, `contestants/`) sit beside the fan-out directories and are never listed, so the GC
 * leaves them alone.
 */
export class LocalDiskStorage implements MediaStorage {
  readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  private pathOf(key: string): string {
    assertValidKey(key);
    return join(this.root, ...key.split('/'));
  }

  /**
   * Written to a temporary file beside the target, then renamed: atomic on one filesystem. The
   * content type is not stored: the key's extension tells the static server what to send.
   */
  async put(key: string, data: Buffer, _contentType: string): Promise<void> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true });
    const temp = `${path}.${randomBytes(8).toString('hex')}.tmp`;
    try {
      await writeFile(temp, data, { flag: 'wx' });
      await rename(temp, path);
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    try {
      await unlink(this.pathOf(key));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }

  async exists(key: string): Promise<boolean> {
    try {
      return (await stat(this.pathOf(key))).isFile();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw err;
    }
  }

  async *list(): AsyncIterable<{ key: string; modifiedAt: Date }> {
    for (const first of await subdirectories(this.root)) {
      for (const second of await subdirectories(join(this.root, first))) {
        const dir = join(this.root, first, second);
        for await (const entry of await opendir(dir)) {
          if (!entry.isFile() || !STORED_FILE.test(entry.name)) continue;
          try {
            const { mtime } = await stat(join(dir, entry.name));
            yield { key: `${first}/${second}/${entry.name}`, modifiedAt: mtime };
          } catch (err) {
            // Deleted between the listing and the stat (a concurrent GC or discard).
            if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
          }
        }
      }
    }
  }

  urlFor(key: string): string {
    assertValidKey(key);
    return `/media/${key}`;
  }
}

/** The two-hex-digit fan-out directories directly under `dir` (none if `dir` does not exist). */
async function subdirectories(dir: string): Promise<string[]> {
  const names: string[] = [];
  try {
    for await (const entry of await opendir(dir)) {
      if (entry.isDirectory() && HEX_DIR.test(entry.name)) names.push(entry.name);
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  return names.sort();
}
