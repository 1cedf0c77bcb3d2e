import { inArray, or } from 'drizzle-orm';
import type { DbOrTx } from '@tribuna/drizzle/client';
import { schema } from '@tribuna/drizzle';

const { media } = schema;

/** Which of `keys` a media row names, as its image or its thumbnail (both columns are indexed). */
export async function referencedMediaKeys(db: DbOrTx, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db
    .select({ key: media.key, thumbKey: media.thumbKey })
    .from(media)
    .where(or(inArray(media.key, keys), inArray(media.thumbKey, keys)));
  const wanted = new Set(keys);
  return new Set(rows.flatMap((r) => [r.key, r.thumbKey]).filter((k) => wanted.has(k)));
}
