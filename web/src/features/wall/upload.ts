import type { CreatedComment, PostView, VideoUploadView } from '@tribuna/contracts/api/wall';
import { WALL_FIELDS } from '@tribuna/contracts/wallRules';
import { endpointPath } from '../../lib/api';
import { postForm, type UploadOptions } from '../../lib/upload';

export type { UploadOptions } from '../../lib/upload';

export interface ImageUpload {
  file: File;
  /** Alternative text ('' when none). */
  alt: string;
}

/** A post's clip and its alternative text ('' when none). */
export type VideoUpload = ImageUpload;

/** The multipart body of a new post: content, then each image and its alt text in display order. */
export function postFormData(content: string, images: readonly ImageUpload[], groupId?: string): FormData {
  const form = new FormData();
  form.append(WALL_FIELDS.content, content);
  if (groupId) form.append(WALL_FIELDS.groupId, groupId);
  for (const image of images) form.append(WALL_FIELDS.images, image.file, image.file.name);
  for (const image of images) form.append(WALL_FIELDS.alt, image.alt.trim());
  return form;
}

/** The multipart body of a new video post: content (and group), the clip's alt text, then the clip last. */
export function videoPostFormData(content: string, video: VideoUpload, groupId?: string): FormData {
  const form = new FormData();
  form.append(WALL_FIELDS.content, content);
  if (groupId) form.append(WALL_FIELDS.groupId, groupId);
  form.append(WALL_FIELDS.alt, video.alt.trim());
  form.append(WALL_FIELDS.video, video.file, video.file.name);
  return form;
}

/** The multipart body of a new comment or reply. */
export function commentFormData(content: string, parentCommentId: string | null, image: ImageUpload | null): FormData {
  const form = new FormData();
  form.append(WALL_FIELDS.content, content);
  if (parentCommentId) form.append(WALL_FIELDS.parentCommentId, parentCommentId);
  if (image) {
    form.append(WALL_FIELDS.image, image.file, image.file.name);
    form.append(WALL_FIELDS.alt, image.alt.trim());
  }
  return form;
}

/** POST /api/posts (201: the new post). */
export const uploadPost = (form: FormData, options?: UploadOptions) => postForm<PostView>(endpointPath('createPost'), form, options);

/** POST /api/posts/video (202: the clip being processed; the post is published once it is transcoded). */
export const uploadVideoPost = (form: FormData, options?: UploadOptions) => postForm<VideoUploadView>(endpointPath('createVideoPost'), form, options);

/** POST /api/posts/:postId/comments (201: the new comment and the post's count). */
export const uploadComment = (postId: string, form: FormData, options?: UploadOptions) =>
  postForm<CreatedComment>(endpointPath('createComment', { postId }), form, options);
