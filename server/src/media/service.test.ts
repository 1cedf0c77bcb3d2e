import { mkdtemp, readdir, rm, stat, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { schema } from '@tribuna/drizzle';
import type { Database } from '@tribuna/drizzle/client';
import { WALL_MESSAGES } from '@tribuna/contracts/wallRules';
import { testDatabase, truncateAll } from '../../../test/support/db.ts';
import { buildUser } from '../../../test/support/factories.ts';
import { ConcurrencyLimiter } from './limiter.ts';
import { insertMedia, referencedKeys } from './repository.ts';
import { createMediaService, type MediaService } from './service.ts';
import { assertValidKey, contentKey, LocalDiskStorage } from './storage.ts';

const png = (background: string) =>
  sharp({ create: { width: 32, height: 24, channels: 3, background } })
    .png()
    .toBuffer();

let root: string;
let database: Database;
let storage: LocalDiskStorage;
let media: MediaService;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'tribuna-media-'));
  database = testDatabase();
  storage = new LocalDiskStorage(root);
  media = createMediaService({ storage, db: database.db, limiter: new ConcurrencyLimiter(2, 16) });
});
beforeEach(async () => {
  await truncateAll(database);
  await rm(root, { recursive: true, force: true });
});
afterAll(async () => {
  await database.close();
  await rm(root, { recursive: true, force: true });
});

async function listed(): Promise<string[]> {
  const keys: string[] = [];
  for await (const file of storage.list()) keys.push(file.key);
  return keys.sort();
}

describe('LocalDiskStorage', () => {
  it.each(['../etc/passwd', 'ab/../../x.webp', '/abs.webp', 'Ab/cd/x.webp', 'ab//x.webp', 'ab/cd/x y.webp', 'ab\\cd.webp', '', 'ab/./x.webp'])(
    'refuses the key %j',
    (key) => {
      expect(() => assertValidKey(key)).toThrow(/invalid media key/);
    },
  );

  it('writes atomically under fan-out directories, lists only what it writes, and deletes idempotently', async () => {
    const key = contentKey(Buffer.from('bytes'), 'webp');
    expect(key).toMatch(/^[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}\.webp$/);
    await storage.put(key, Buffer.from('bytes'), 'image/webp');
    expect(await storage.exists(key)).toBe(true);
    expect(await readdir(join(root, ...key.split('/').slice(0, 2)))).toEqual([key.split('/')[2]]);
    expect(storage.urlFor(key)).toBe(`/media/${key}`);
    // Hand-placed files (seed, contestant photos) are never listed, so never collected.
    await mkdir(join(root, 'demo'), { recursive: true });
    await writeFile(join(root, 'demo', 'poster.webp'), 'x');
    expect(await listed()).toEqual([key]);
    await storage.delete(key);
    await storage.delete(key);
    expect(await storage.exists(key)).toBe(false);
  });
});

describe('media service', () => {
  it('stores an image and its thumbnail once: the same upload twice gives the same keys, one file each, one row', async () => {
    const user = await buildUser(database.db);
    const bytes = await png('teal');
    const first = await media.ingest({ data: bytes, declaredType: 'image/png' });
    const second = await media.ingest({ data: bytes, declaredType: 'image/png' });
    expect(second).toEqual(first);
    expect(first).toMatchObject({ contentType: 'image/webp', width: 32, height: 24, url: `/media/${first.key}`, thumbnailUrl: `/media/${first.thumbKey}` });
    expect(first.bytes).toBe((await stat(join(root, first.key))).size);
    expect(first.placeholder).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(await listed()).toEqual([first.key, first.thumbKey].sort());

    const id = await insertMedia(database.db, first, user.id);
    expect(await insertMedia(database.db, second, null)).toBe(id);
    const rows = await database.db.select().from(schema.media);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id, key: first.key, thumbKey: first.thumbKey, uploadedBy: user.id, bytes: first.bytes, placeholder: first.placeholder });
  });

  it('refuses what is not an image before storing anything', async () => {
    await expect(media.ingest({ data: Buffer.from('MZ not an image'), declaredType: 'image/jpeg' })).rejects.toMatchObject({
      statusCode: 400,
      message: WALL_MESSAGES.imagesOnly,
    });
    expect(await listed()).toEqual([]);
  });

  it('discards the files no row names and keeps those a row names', async () => {
    const kept = await media.ingest({ data: await png('navy'), declaredType: 'image/png' });
    const dropped = await media.ingest({ data: await png('olive'), declaredType: 'image/png' });
    await insertMedia(database.db, kept, null);
    expect(await referencedKeys(database.db, [kept.key, kept.thumbKey, dropped.key, dropped.thumbKey])).toEqual(new Set([kept.key, kept.thumbKey]));

    await media.discard([kept, dropped]);
    expect(await listed()).toEqual([kept.key, kept.thumbKey].sort());
    await media.discard([]);
  });
});
