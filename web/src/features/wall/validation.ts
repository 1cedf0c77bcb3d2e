import { VIDEO_LIMITS, VIDEO_TYPES, WALL_LIMITS, WALL_MESSAGES } from '@tribuna/contracts/wallRules';

/** Whether a picked file claims to be an image (the server sniffs the bytes again). */
export const isImageFile = (file: File) => file.type.startsWith('image/');

/** Length as the server counts it (code points: an emoji is one character). */
export const textLength = (text: string) => Array.from(text).length;

/** The composer's checks (spec §5 Wall), first failing message or null. */
export function validatePost(content: string, files: readonly File[]): string | null {
  const text = content.trim();
  if (!text && files.length === 0) return WALL_MESSAGES.empty;
  if (textLength(text) > WALL_LIMITS.postText) return WALL_MESSAGES.postTooLong;
  return validatePostFiles(files);
}

/** The checks of the images alone (run when they are picked, and again before sending). */
export function validatePostFiles(files: readonly File[]): string | null {
  if (files.length > WALL_LIMITS.postImages) return WALL_MESSAGES.tooManyFiles;
  if (files.some((file) => !isImageFile(file))) return WALL_MESSAGES.imagesOnly;
  if (files.some((file) => file.size >= WALL_LIMITS.postImageBytes)) return WALL_MESSAGES.postImageTooLarge;
  return null;
}

/** A comment or a reply: non-empty (an image alone is not a comment, as the server says too), at most 500 characters. */
export function validateComment(content: string): string | null {
  const text = content.trim();
  if (!text) return WALL_MESSAGES.commentEmpty;
  if (textLength(text) > WALL_LIMITS.commentText) return WALL_MESSAGES.commentTooLong;
  return null;
}

export function validateCommentImage(file: File): string | null {
  if (!isImageFile(file)) return WALL_MESSAGES.imagesOnly;
  if (file.size > WALL_LIMITS.commentImageBytes) return WALL_MESSAGES.commentImageTooLarge;
  return null;
}

/** An edited post or comment: non-empty after trimming, within its limit. */
export function validateEdit(content: string, max: number, tooLong: string): string | null {
  const text = content.trim();
  if (!text) return WALL_MESSAGES.editEmpty;
  if (textLength(text) > max) return tooLong;
  return null;
}

/** A post carries images or one video, never both: what the composer says when the other kind is picked. */
export const MEDIA_EXCLUSIVE = {
  videoAfterImages: 'Una publicación puede llevar imágenes o un video, no ambos. Quita las imágenes para agregar un video.',
  imagesAfterVideo: 'Una publicación puede llevar imágenes o un video, no ambos. Quita el video para agregar imágenes.',
} as const;

const VIDEO_EXTENSIONS = /\.(mp4|mov|webm)$/i;

/**
 * Whether a picked file claims to be an MP4, MOV or WebM clip (the server sniffs the bytes again).
 * A file the browser gave no type keeps its name's word.
 */
export const isVideoFile = (file: File) => (file.type ? (VIDEO_TYPES as readonly string[]).includes(file.type) : VIDEO_EXTENSIONS.test(file.name));

/** The checks of a picked clip that need no decoding (the server's messages): its type, then its size. */
export function validateVideoFile(file: File): string | null {
  if (!isVideoFile(file)) return WALL_MESSAGES.mediaOnly;
  if (file.size > VIDEO_LIMITS.maxBytes) return WALL_MESSAGES.videoTooLarge;
  return null;
}

/** A clip's length as the browser read it (null: unreadable here, the server decides). */
export function validateVideoDuration(durationS: number | null): string | null {
  return durationS !== null && durationS > VIDEO_LIMITS.maxDurationS ? WALL_MESSAGES.videoTooLong : null;
}

/** A video post: the text may be empty (the clip is the post), at most 2000 characters. */
export function validateVideoPost(content: string, video: File): string | null {
  if (textLength(content.trim()) > WALL_LIMITS.postText) return WALL_MESSAGES.postTooLong;
  return validateVideoFile(video);
}
