import { mkdir, mkdtemp, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { schema } from '@tribuna/drizzle';
import { testConfig } from '../../../test/support/env.ts';
import { contentKey, LocalDiskStorage, uploadKey } from '../../../server/src/media/storage.ts';
import { buildUser } from '../../../test/support/factories.ts';
import { handlers } from '../handlers.ts';
import { createRegistry, InvalidJobPayloadError } from '../registry.ts';
import { useJobTestContext } from '../../../test/support/worker.ts';
import { collectMediaGarbage, mediaJobs } from './jobs.ts';

// Payloads are checked by the registry, once, before any handler runs (contracts/src/jobs.ts).
const registry = createRegistry(handlers);

const HOUR = 3_600_000;
const { database, ctx } = useJobTestContext();
let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'tribuna-media-gc-'));
});
beforeEach(async () => {
  await rm(root, { recursive: true, force: true });
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Writes a file at `key` under the media root, last modified `ageHours` ago. */
async function file(key: string, ageHours: number): Promise<string> {
  const path = join(root, ...key.split('/'));
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, key);
  const at = new Date(Date.now() - ageHours * HOUR);
  await utimes(path, at, at);
  return key;
}

async function remaining(): Promise<string[]> {
  const keys: string[] = [];
  for await (const f of new LocalDiskStorage(root).list()) keys.push(f.key);
  return keys.sort();
}

describe('media.gc', () => {
  it('deletes old files no media row names, and keeps referenced, recent and hand-placed ones', async () => {
    const key = (name: string) => contentKey(Buffer.from(name), 'webp');
    const image = await file(key('image'), 5);
    const thumb = await file(key('thumb'), 5);
    await file(key('orphan'), 2);
    const inFlight = await file(key('in-flight'), 0.5);
    // A temporary file an interrupted put left behind.
    await file(`${key('crashed')}.0123456789abcdef.tmp`, 3);
    await file('demo/poster.webp', 100);
    await database.db.insert(schema.media).values({ key: image, thumbKey: thumb, contentType: 'image/webp', width: 1, height: 1, bytes: 5 });

    const config = testConfig({ MEDIA_DIR: root });
    expect(await mediaJobs['media.gc']({ olderThanMinutes: 60 }, { ...ctx, config })).toEqual({ scanned: 5, deleted: 2 });
    expect(await remaining()).toEqual([image, thumb, inFlight].sort());
    // Hand-placed files beside the fan-out directories (seed images, contestant photos) are never looked at.
    expect((await stat(join(root, 'demo', 'poster.webp'))).isFile()).toBe(true);
  });

  it('keeps old files a profile names as its avatar or banner, even without a media row', async () => {
    const key = (name: string) => contentKey(Buffer.from(name), 'webp');
    const avatar = await file(key('avatar'), 5);
    const banner = await file(key('banner'), 5);
    const orphan = await file(key('no-longer-an-avatar'), 5);
    await database.db.insert(schema.profiles).values([
      { displayName: 'Con avatar', avatarUrl: `/media/${avatar}` },
      { displayName: 'Con banner', bannerUrl: `/media/${banner}`, avatarUrl: 'https://lh3.googleusercontent.com/a/x' },
    ]);
    const result = await collectMediaGarbage(database.db, new LocalDiskStorage(root), new Date(Date.now() - HOUR));
    expect(result).toEqual({ scanned: 3, deleted: 1 });
    expect(await remaining()).toEqual([avatar, banner].sort());
    expect(await remaining()).not.toContain(orphan);
  });

  it('keeps old files a group names as its avatar or cover, even without a media row, and lets them go with the group', async () => {
    const key = (name: string) => contentKey(Buffer.from(name), 'webp');
    const avatar = await file(key('group-avatar'), 5);
    const cover = await file(key('group-cover'), 5);
    const [group] = await database.db
      .insert(schema.groups)
      .values({ name: 'Team Ximena', avatarUrl: `/media/${avatar}`, coverUrl: `/media/${cover}` })
      .returning();
    const storage = new LocalDiskStorage(root);
    expect(await collectMediaGarbage(database.db, storage, new Date(Date.now() - HOUR))).toEqual({ scanned: 2, deleted: 0 });
    expect(await remaining()).toEqual([avatar, cover].sort());
    await database.sql`DELETE FROM groups WHERE id = ${group!.id}`;
    expect(await collectMediaGarbage(database.db, storage, new Date(Date.now() - HOUR))).toEqual({ scanned: 2, deleted: 2 });
    expect(await remaining()).toEqual([]);
  });

  it('deletes old orphan clips (MP4s, uploads) and keeps an upload a video_uploads row names', async () => {
    const mp4 = await file(contentKey(Buffer.from('orphan clip'), 'mp4'), 2);
    const poster = await file(contentKey(Buffer.from('orphan poster'), 'webp'), 2);
    const video = await file(contentKey(Buffer.from('published clip'), 'mp4'), 2);
    const videoPoster = await file(contentKey(Buffer.from('published poster'), 'webp'), 2);
    const orphanUpload = await file(uploadKey('0b6c2f4e-8f0a-4a53-9d43-1f7e2a9c1d01'), 2);
    const waiting = await file(uploadKey('6f1d2b9a-3c4e-4f5a-8b6c-7d8e9f0a1b2c'), 2);
    const inFlight = await file(uploadKey('a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d'), 0.5);
    const author = await buildUser(database.db);
    await database.db.insert(schema.videoUploads).values({ userId: author.id, visibility: 'public', uploadKey: waiting, bytes: 10 });
    await database.db
      .insert(schema.media)
      .values({ key: video, thumbKey: videoPoster, contentType: 'video/mp4', width: 2, height: 2, bytes: 5, durationMs: 3000 });

    const result = await collectMediaGarbage(database.db, new LocalDiskStorage(root), new Date(Date.now() - HOUR));
    expect(result).toEqual({ scanned: 7, deleted: 3 });
    expect(await remaining()).toEqual([video, videoPoster, waiting, inFlight].sort());
    for (const gone of [mp4, poster, orphanUpload]) expect(await remaining()).not.toContain(gone);
  });

  it('asks about keys in batches', async () => {
    const keys = await Promise.all(Array.from({ length: 7 }, (_, i) => file(contentKey(Buffer.from(`batch-${i}`), 'webp'), 2)));
    await database.db.insert(schema.media).values({ key: keys[0]!, thumbKey: keys[6]!, contentType: 'image/webp', width: 1, height: 1, bytes: 5 });
    const result = await collectMediaGarbage(database.db, new LocalDiskStorage(root), new Date(Date.now() - HOUR), 3);
    expect(result.deleted).toBe(5);
    expect(await remaining()).toEqual([keys[0], keys[6]].sort());
  });

  it('refuses a grace period shorter than an hour', async () => {
    await expect(registry.dispatch('media.gc', { olderThanMinutes: 5 }, ctx)).rejects.toThrow(InvalidJobPayloadError);
  });
});
