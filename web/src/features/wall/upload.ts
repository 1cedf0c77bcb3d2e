import type { CreatedComment, PostView, VideoUploadView } from '@tribuna/contracts/api/wall';
import { WALL_FIELDS, type PostVisibility } from '@tribuna/contracts/wallRules';
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

/** Who a new post is for: a group's members ('group', with its id), or outside groups everyone or the author's followers. */
export interface PostAudience {
  groupId?: string;
  visibility: PostVisibility;
}

function appendAudience(form: FormData, audience: PostAudience) {
  if (audience.groupId) form.append(WALL_FIELDS.groupId, audience.groupId);
  form.append(WALL_FIELDS.visibility, audience.visibility);
}

/** The multipart body of a new post: content, audience, then each image and its alt text in display order. */
export function postFormData(content: string, images: readonly ImageUpload[], audience: PostAudience): FormData {
  const form = new FormData();
  form.append(WALL_FIELDS.content, content);
  appendAudience(form, audience);
  for (const image of images) form.append(WALL_FIELDS.images, image.file, image.file.name);
  for (const image of images) form.append(WALL_FIELDS.alt, image.alt.trim());
  return form;
}

/** The multipart body of a new video post: content and audience, the clip's alt text, then the clip last. */
export function videoPostFormData(content: string, video: VideoUpload, audience: PostAudience): FormData {
  const form = new FormData();
  form.append(WALL_FIELDS.content, content);
  appendAudience(form, audience);
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
