import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, mkdir, opendir, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
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
  /** Stores the file at `path` under `key` without holding it in memory (a 50 MB clip); same guarantee. */
  putFile(key: string, path: string, contentType: string): Promise<void>;
  /** Copies the file stored under `key` to the local file `path` (the worker reads an uploaded clip so). */
  getFile(key: string, path: string): Promise<void>;
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
const STORED_FILE = /^[0-9a-f]{64}\.(?:webp|avif|mp4)(?:\.[0-9a-f]{16}\.tmp)?$/;
/** Where uploaded clips wait for the worker: `uploads/<uuid>.upload` (named by a video_uploads row). */
export const UPLOADS_DIR = 'uploads';
const UPLOAD_FILE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.upload(?:\.[0-9a-f]{16}\.tmp)?$/;

/** The storage key of an uploaded clip waiting for the worker. */
export function uploadKey(uploadId: string): string {
  return `${UPLOADS_DIR}/${uploadId.toLowerCase()}.upload`;
}

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
export function contentKey(data: Buffer, extension: 'webp' | 'avif' | 'mp4'): string {
  return keyOfHash(createHash('sha256').update(data).digest('hex'), extension);
}

/** contentKey of a file's bytes, read as a stream (a clip is never held in memory). */
export async function fileContentKey(path: string, extension: 'webp' | 'mp4'): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return keyOfHash(hash.digest('hex'), extension);
}

function keyOfHash(hash: string, extension: string): string {
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

  /** Copied to a temporary file beside the target, then renamed, like put. */
  async putFile(key: string, source: string, _contentType: string): Promise<void> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true });
    const temp = `${path}.${randomBytes(8).toString('hex')}.tmp`;
    try {
      await copyFile(source, temp);
      await rename(temp, path);
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
  }

  async getFile(key: string, destination: string): Promise<void> {
    await copyFile(this.pathOf(key), destination);
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
    yield* this.filesIn(UPLOADS_DIR, UPLOAD_FILE);
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

  /** The files of directory `relative` whose names match `pattern` (none if it does not exist). */
  private async *filesIn(relative: string, pattern: RegExp): AsyncIterable<{ key: string; modifiedAt: Date }> {
    const dir = join(this.root, relative);
    let entries;
    try {
      entries = await opendir(dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw err;
    }
    for await (const entry of entries) {
      if (!entry.isFile() || !pattern.test(entry.name)) continue;
      try {
        const { mtime } = await stat(join(dir, entry.name));
        yield { key: `${relative}/${entry.name}`, modifiedAt: mtime };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
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
