// The wall's limits, reaction types and messages. Dependency-free: the web bundle checks the same
// rules in the browser that the server enforces again (spec §5 Wall, §8, §9).

export const WALL_LIMITS = {
  postText: 2000,
  postImages: 10,
  /** Each post image must be under 10 MB. */
  postImageBytes: 10 * 1024 * 1024,
  commentText: 500,
  commentImageBytes: 5 * 1024 * 1024,
  /** Alternative text of one image (beyond the spec: read by screen readers). */
  altText: 300,
  feedPageSize: 10,
  /** The 'Siguiendo' wall counts its posts up to this many (FeedPage.totalCapped beyond): a bounded count per page. */
  followingTotalCap: 1000,
  /** How long a reader's 'Siguiendo' total is kept (ms): new posts of the people followed do not drop it. */
  followingTotalTtlMs: 30_000,
  /** Top-level comments loaded per post. */
  commentsLoaded: 100,
  /** Comments shown before 'Ver más comentarios'. */
  commentsShown: 3,
  /** Infinite scroll loads the next page this far before the end. */
  infiniteScrollMarginPx: 200,
} as const;

/** Video clips (issue 30; the spec's generic media upload: 'File size exceeds 50MB limit'). */
/** The clip types the composer takes (sniffed from the bytes on the server), and its file input's accept list. */
export const VIDEO_TYPES = ['video/mp4', 'video/quicktime', 'video/webm'] as const;
export const VIDEO_ACCEPT = 'video/mp4,video/quicktime,video/webm,.mp4,.mov,.webm';

export const VIDEO_LIMITS = {
  maxBytes: 50 * 1024 * 1024,
  /** Three minutes. */
  maxDurationS: 180,
  /** Transcoded to at most 720 lines. */
  maxHeight: 720,
  /** A transcode that runs longer is killed (and its job retried). */
  transcodeTimeoutMs: 10 * 60_000,
} as const;

export const REACTION_TYPES = ['like', 'love', 'haha', 'wow', 'sad', 'angry'] as const;
export type ReactionType = (typeof REACTION_TYPES)[number];

export const REACTIONS: Record<ReactionType, { emoji: string; label: string }> = {
  like: { emoji: '❤️', label: 'Me gusta' },
  love: { emoji: '😍', label: 'Me encanta' },
  haha: { emoji: '😂', label: 'Me divierte' },
  wow: { emoji: '😮', label: 'Me asombra' },
  sad: { emoji: '😢', label: 'Me entristece' },
  angry: { emoji: '😠', label: 'Me enoja' },
};

export const FEED_SORTS = ['activity', 'recent'] as const;
export type FeedSort = (typeof FEED_SORTS)[number];

export const POST_VISIBILITIES = ['public', 'followers', 'group'] as const;
export type PostVisibility = (typeof POST_VISIBILITIES)[number];

/** Image types a post, a comment or an avatar may carry (sniffed from the bytes, never from the client's claim). */
export const IMAGE_MIME_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif'] as const;

/** Multipart field names of POST /api/posts and POST /api/posts/:postId/comments. */
export const WALL_FIELDS = {
  content: 'content',
  groupId: 'groupId',
  visibility: 'visibility',
  parentCommentId: 'parentCommentId',
  /** Post images, in display order. */
  images: 'images',
  /** A comment's image. */
  image: 'image',
  /** A post's video clip (POST /api/posts/video; one, instead of images). */
  video: 'video',
  /** Alternative texts, one per image in the same order (may be empty). */
  alt: 'alt',
} as const;

export const WALL_MESSAGES = {
  // Composer (spec §5 Wall; shown to people, Spanish)
  empty: 'Debes escribir algo o agregar una imagen',
  postTooLong: 'El contenido no puede exceder 2000 caracteres',
  tooManyFiles: 'Máximo 10 archivos por publicación',
  imagesOnly: 'Solo se permiten imágenes',
  postImageTooLarge: 'Cada imagen debe ser menor a 10MB',
  createPostFailed: 'Error al crear la publicación',
  // Video clips (spec §9 generic media upload, English as the spec writes them; then ours, Spanish)
  mediaOnly: 'Only images and videos are allowed',
  videoTooLarge: 'File size exceeds 50MB limit',
  videoOne: 'Solo se permite un video por publicación',
  videoMissing: 'Agrega un video',
  videoTooLong: 'El video no puede durar más de 3 minutos',
  videoUnreadable: 'El video está dañado o no se puede leer',
  videoUnavailable: 'No podemos procesar videos en este momento. Intenta más tarde.',
  videoProcessing: 'Procesando video…',
  videoFailed: 'No pudimos procesar el video',
  // Beyond the spec, same tone
  typeMismatch: 'El archivo no es del tipo que dice ser',
  imageUnreadable: 'La imagen está dañada o no se puede leer',
  imageTooManyPixels: 'La imagen es demasiado grande (máximo 40 megapíxeles)',
  mediaBusy: 'Estamos procesando muchas imágenes. Intenta de nuevo en unos segundos.',
  altTooLong: 'El texto alternativo no puede exceder 300 caracteres',
  tooManyAlts: 'Hay más textos alternativos que imágenes',
  // Edit
  editEmpty: 'El contenido no puede estar vacío',
  editPostFailed: 'Error al editar la publicación',
  editCommentFailed: 'Error al editar el comentario',
  // Comments
  commentEmpty: 'El comentario no puede estar vacío',
  commentTooLong: 'El comentario no puede exceder 500 caracteres',
  commentImageTooLarge: 'La imagen no puede exceder 5MB',
  commentOneImage: 'Solo se permite una imagen por comentario',
  replyDepth: 'Solo se puede responder a comentarios principales',
  parentNotFound: 'El comentario al que respondes no existe',
  // Feed
  loadFailed: 'Error al cargar publicaciones',
  groupNotFound: 'Grupo no encontrado',
  groupForbidden: 'No perteneces a este grupo',
  groupRequired: 'La visibilidad de grupo requiere un grupo',
  followersNotInGroup: 'Las publicaciones para seguidores no van en un grupo',
  badCursor: 'Cursor de paginación inválido',
  // API (spec §5, English)
  notAuthenticated: 'User not authenticated',
  notAuthorizedEditPost: 'Not authorized to edit this post',
  notAuthorizedDeletePost: 'Not authorized to delete this post',
  notAuthorizedEditComment: 'Not authorized to edit this comment',
  notAuthorizedDeleteComment: 'Not authorized to delete this comment',
  postNotFound: 'Post not found',
  commentNotFound: 'Comment not found',
} as const;
