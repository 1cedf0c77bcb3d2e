import { inArray, or } from 'drizzle-orm';
import type { DbOrTx } from '@tribuna/drizzle/client';
import { schema } from '@tribuna/drizzle';
import { keysNamedByProfiles } from '../../../server/src/media/repository.ts';

const { media } = schema;

/** Which of `keys` a media row names, as its image or its thumbnail (both columns are indexed), or a profile as its avatar or banner. */
export async function referencedMediaKeys(db: DbOrTx, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db
    .select({ key: media.key, thumbKey: media.thumbKey })
    .from(media)
    .where(or(inArray(media.key, keys), inArray(media.thumbKey, keys)));
  const wanted = new Set(keys);
  const kept = new Set(rows.flatMap((r) => [r.key, r.thumbKey]).filter((k) => wanted.has(k)));
  // A profile's avatar or banner (`/media/<key>`) is kept even if no media row names it.
  for (const key of await keysNamedByProfiles(db, keys)) kept.add(key);
  return kept;
}
