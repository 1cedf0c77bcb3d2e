import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns.ts';
import { profiles } from './profiles.ts';

/**
 * Every stored image (and video clip: its MP4 and poster): the re-encoded file and its thumbnail, both content-addressed (`key` is the
 * storage key, derived from a hash of the bytes). Rows are written in the same transaction as the
 * post, comment or profile that uses them; a file no row names is an orphan the worker removes.
 */
export const media = pgTable(
  'media',
  {
    id: id(),
    key: text('key').notNull(),
    thumbKey: text('thumb_key').notNull(),
    contentType: text('content_type').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    bytes: integer('bytes').notNull(),
    /** ThumbHash of the image (a video's poster), base64: the placeholder shown until it loads. */
    placeholder: text('placeholder'),
    /** A video's length in milliseconds (`key` its MP4, `thumbKey` its poster); null for images. */
    durationMs: integer('duration_ms'),
    uploadedBy: uuid('uploaded_by').references(() => profiles.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('media_key_uq').on(t.key),
    index('media_thumb_key_idx').on(t.thumbKey),
    check('media_dimensions', sql`${t.width} > 0 AND ${t.height} > 0 AND ${t.bytes} > 0`),
    check('media_content_type', sql`${t.contentType} IN ('image/webp', 'image/avif', 'video/mp4')`),
    check('media_video_duration', sql`(${t.contentType} = 'video/mp4') = (${t.durationMs} IS NOT NULL)`),
  ],
);
