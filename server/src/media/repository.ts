import { inArray, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '@tribuna/drizzle/client';
import { media } from '@tribuna/drizzle/schema/index';
import type { StoredImage } from './service.ts';

// The only SQL of the media pipeline on the server (the worker's GC has its own, worker/src/media).

/** A stored image's or (the worker's transcode) clip's row: a clip is 'video/mp4' with its length. */
export type NewMedia = Pick<StoredImage, 'key' | 'thumbKey' | 'width' | 'height' | 'bytes' | 'placeholder'> &
  ({ contentType: StoredImage['contentType']; durationMs?: undefined } | { contentType: 'video/mp4'; durationMs: number });

/**
 * The `media` row of a stored image (or clip), inserted in the transaction of the post, comment or profile
 * using it; returns its id. Keys are content hashes, so the same image uploaded again (by anyone)
 * reuses its row: the no-op update makes RETURNING give the existing id.
 */
export async function insertMedia(db: DbOrTx, image: NewMedia, uploadedBy: string | null): Promise<string> {
  const [row] = await db
    .insert(media)
    .values({
      key: image.key,
      thumbKey: image.thumbKey,
      contentType: image.contentType,
      width: image.width,
      height: image.height,
      bytes: image.bytes,
      placeholder: image.placeholder,
      durationMs: image.durationMs ?? null,
      uploadedBy,
    })
    .onConflictDoUpdate({ target: media.key, set: { key: sql`excluded.key` } })
    .returning({ id: media.id });
  return row!.id;
}

/** Which of `keys` a media row names, as its image or its thumbnail. */
export async function referencedKeys(db: DbOrTx, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db
    .select({ key: media.key, thumbKey: media.thumbKey })
    .from(media)
    .where(or(inArray(media.key, keys), inArray(media.thumbKey, keys)));
  const wanted = new Set(keys);
  const kept = new Set(rows.flatMap((r) => [r.key, r.thumbKey]).filter((k) => wanted.has(k)));
  for (const key of await keysNamedByProfilesOrGroups(db, keys)) kept.add(key);
  return kept;
}

/** Where stored files are served (LocalDiskStorage.urlFor); profiles keep this path of their own uploads. */
export const MEDIA_URL_PREFIX = '/media/';

/**
 * Which of `keys` a profile names as its avatar or banner, or a group as its avatar or cover
 * (`/media/<key>`): kept even without a media row. One scan of profiles and one of groups whatever
 * the number of keys.
 */
export async function keysNamedByProfilesOrGroups(db: DbOrTx, keys: string[]): Promise<string[]> {
  if (keys.length === 0) return [];
  const urls = `{${keys.map((key) => `"${MEDIA_URL_PREFIX}${key.replace(/["\\]/g, '')}"`).join(',')}}`;
  const rows = await db.execute<{ key: string }>(sql`
    SELECT DISTINCT substr(v.url, ${MEDIA_URL_PREFIX.length + 1}) AS key FROM (
      SELECT u.url FROM profiles p CROSS JOIN LATERAL (VALUES (p.avatar_url), (p.banner_url)) u(url)
      UNION ALL
      SELECT u.url FROM groups g CROSS JOIN LATERAL (VALUES (g.avatar_url), (g.cover_url)) u(url)
    ) v
    WHERE v.url = ANY(${urls}::text[])`);
  return rows.map((row) => row.key);
}
