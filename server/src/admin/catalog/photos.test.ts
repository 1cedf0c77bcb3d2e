// POST /api/admin/contestant-photos: a contestant photo through the media pipeline, cropped square.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { ADMIN_MESSAGES } from '@tribuna/contracts/adminRules';
import { WALL_MESSAGES } from '@tribuna/contracts/wallRules';
import type { Database } from '@tribuna/drizzle/client';
import { buildSeason } from '../../../../test/support/factories.ts';
import type { App } from '../../app.ts';
import { useTestApp } from '../../../../test/support/server/harness.ts';
import { multipart, type MultipartPart } from '../../../../test/support/server/multipart.ts';
import { CATALOG_MESSAGES } from './rules.ts';
import { auditRows, signInAdmin, type AdminCaller } from '../../../../test/support/server/catalog.ts';

let app: App;
let database: Database;
useTestApp({}, (ready) => ({ app, database } = ready));

const upload = (admin: AdminCaller, parts: MultipartPart[]) => {
  const body = multipart(parts);
  return app.inject({ method: 'POST', url: '/api/admin/contestant-photos', headers: { ...admin.headers, ...body.headers }, payload: body.payload });
};

const jpeg = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#c0392b' } })
    .jpeg()
    .toBuffer();

describe('contestant photos', () => {
  it('turns a JPEG into a square WebP under /media/ with a thumbnail and a placeholder, usable as a contestant photo', async () => {
    const admin = await signInAdmin(app, database);
    const res = await upload(admin, [{ name: 'image', filename: 'ana.jpg', type: 'image/jpeg', data: await jpeg(1200, 900) }]);
    expect(res.statusCode, res.body).toBe(201);
    const photo = res.json<{ url: string; thumbnailUrl: string; width: number; height: number; placeholder: string | null }>();
    expect(photo).toMatchObject({ width: 800, height: 800, placeholder: expect.any(String) });
    expect(photo.url).toMatch(/^\/media\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}\.webp$/);
    expect(photo.thumbnailUrl).toMatch(/^\/media\/.+\.webp$/);

    const served = await app.inject({ method: 'GET', url: photo.url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
    const meta = await sharp(served.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 800, 800]);
    const thumb = await sharp(await readFile(join(app.config.mediaDir, photo.thumbnailUrl.slice('/media/'.length)))).metadata();
    expect([thumb.width, thumb.height]).toEqual([480, 480]);

    // A media row names it (so the worker's media.gc keeps it), written with its audit row.
    const key = photo.url.slice('/media/'.length);
    const [media] = await database.sql<{ id: string; uploaded_by: string }[]>`SELECT id, uploaded_by FROM media WHERE key = ${key}`;
    expect(media!.uploaded_by).toBe(admin.id);
    expect(await auditRows(database)).toEqual([
      expect.objectContaining({ admin_id: admin.id, action: 'contestant_photo.upload', entity_type: 'media', entity_id: media!.id }),
    ]);

    const { season } = await buildSeason(database.db);
    const created = await admin.call('POST', '/api/admin/contestants', { seasonId: season.id, fullName: 'Ana', photoUrl: photo.url });
    expect(created.statusCode).toBe(201);
    expect(created.json().photoUrl).toBe(photo.url);
  });

  it('keeps a small photo at its size, square', async () => {
    const admin = await signInAdmin(app, database);
    const res = await upload(admin, [{ name: 'image', filename: 'small.jpg', type: 'image/jpeg', data: await jpeg(300, 200) }]);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ width: 200, height: 200 });
  });

  it('refuses a file that is not an image with 400 Solo se permiten imágenes, storing nothing', async () => {
    const admin = await signInAdmin(app, database);
    const res = await upload(admin, [{ name: 'image', filename: 'foto.jpg', type: 'image/jpeg', data: Buffer.from('<script>alert(1)</script>') }]);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(expect.objectContaining({ message: WALL_MESSAGES.imagesOnly }));
    expect(await database.sql`SELECT 1 FROM media`).toHaveLength(0);
    expect(await auditRows(database)).toEqual([]);
  });

  it('refuses a photo over 5 MB with 413', async () => {
    const admin = await signInAdmin(app, database);
    const big = Buffer.concat([await jpeg(10, 10), Buffer.alloc(5 * 1024 * 1024)]);
    const res = await upload(admin, [{ name: 'image', filename: 'big.jpg', type: 'image/jpeg', data: big }]);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual(expect.objectContaining({ message: CATALOG_MESSAGES.photoTooLarge }));
    expect(await auditRows(database)).toEqual([]);
  });

  it('refuses a form without a photo, with two photos, or with another field', async () => {
    const admin = await signInAdmin(app, database);
    const image = await jpeg(20, 20);
    const none = await upload(admin, []);
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toBe(CATALOG_MESSAGES.photoRequired);
    const two = await upload(admin, [
      { name: 'image', filename: 'a.jpg', type: 'image/jpeg', data: image },
      { name: 'image', filename: 'b.jpg', type: 'image/jpeg', data: image },
    ]);
    expect(two.statusCode).toBe(400);
    expect(two.json().message).toBe(CATALOG_MESSAGES.photoOneImage);
    const other = await upload(admin, [{ name: 'images', filename: 'a.jpg', type: 'image/jpeg', data: image }]);
    expect(other.statusCode).toBe(400);
    expect(await auditRows(database)).toEqual([]);
  });

  it('gives 403 to a fan and stores nothing', async () => {
    const fan = await signInAdmin(app, database, 'user');
    const res = await upload(fan, [{ name: 'image', filename: 'ana.jpg', type: 'image/jpeg', data: await jpeg(100, 100) }]);
    expect(res.statusCode).toBe(403);
    expect(await database.sql`SELECT 1 FROM media`).toHaveLength(0);
  });

  it('a photo URL that is not https or /media/ is refused for contestants', async () => {
    const admin = await signInAdmin(app, database);
    const { season } = await buildSeason(database.db);
    const res = await admin.call('POST', '/api/admin/contestants', { seasonId: season.id, fullName: 'Ana', photoUrl: 'ftp://example.com/a.jpg' });
    expect(res.json().message).toBe(ADMIN_MESSAGES.photoUrlInvalid);
  });
});
