import type { Profile } from '@tribuna/contracts/api/me';
import type { UpdateProfileInput, UploadedProfileImage } from '@tribuna/contracts/api/profiles';
import {
  imageUrlProblem,
  PROFILE_IMAGE_SHAPES,
  PROFILE_IMAGE_TYPES,
  PROFILE_LIMITS,
  PROFILE_MESSAGES,
  USERNAME_PATTERN,
  type ProfileImageKind,
} from '@tribuna/contracts/profileRules';
import type { Db } from '@tribuna/drizzle/client';
import { constraintOf, sqlState } from '@tribuna/drizzle/sqlState';
import { badRequest, conflict, unauthorized } from '../../http/errors.ts';
import { insertMedia } from '../../media/service.ts';
import type { MediaService } from '../../media/service.ts';
import type { UploadedFile } from '../../media/uploads.ts';
import { UPLOAD_MESSAGES } from '../../media/uploads.ts';
import { sniffType } from '../../media/images.ts';
import { NOT_AUTHENTICATED } from '../plugin.ts';
import { presentProfile } from './presenter.ts';
import * as profiles from './repository.ts';

// The edit profile dialog (spec §2, §5): PATCH /api/me and the avatar and banner uploads.

export interface EditContext {
  db: Db;
  media: Pick<MediaService, 'ingest' | 'discard'>;
  /** This site's origin (PUBLIC_URL): its own /media/ URLs are accepted as avatars and banners. */
  publicUrl: string;
  log: { warn(obj: object, msg: string): void };
}

/** A signed-in user allowed to write (requireWriter passed). */
export interface Editor {
  id: string;
}

/** More than one file in an avatar or banner upload. */
export const ONE_IMAGE_MESSAGE = 'Only one image can be uploaded at a time';

const chars = (value: string) => Array.from(value).length;

/**
 * An avatar or banner URL as stored: null to clear; this site's own upload as its path
 * (`/media/…`, whatever origin it was sent with), anything else accepted as sent (trimmed). A
 * group's avatar and cover follow the same rules (groups/service.ts).
 */
export function storedImageUrl(kind: ProfileImageKind, value: string | null, publicUrl: string): string | null {
  const raw = (value ?? '').trim();
  if (!raw) return null;
  const problem = imageUrlProblem(kind, raw, publicUrl);
  if (problem) throw badRequest(problem);
  const url = new URL(raw, publicUrl);
  return url.origin === new URL(publicUrl).origin && url.pathname.startsWith('/media/') ? url.pathname : raw;
}

/** The columns an edit changes: only the fields sent, each checked with the spec's message. */
export function profileChanges(input: UpdateProfileInput, publicUrl: string): profiles.ProfileEdit {
  const changes: profiles.ProfileEdit = {};
  if (input.displayName !== undefined) {
    const name = input.displayName.trim();
    if (!name) throw badRequest(PROFILE_MESSAGES.nameEmpty);
    if (chars(name) > PROFILE_LIMITS.displayName) throw badRequest(PROFILE_MESSAGES.nameTooLong);
    changes.displayName = name;
  }
  if (input.username !== undefined) {
    const username = (input.username ?? '').trim().toLowerCase();
    if (username && !USERNAME_PATTERN.test(username)) throw badRequest(PROFILE_MESSAGES.usernameInvalid);
    changes.username = username || null;
  }
  if (input.bio !== undefined) {
    const bio = (input.bio ?? '').trim();
    if (chars(bio) > PROFILE_LIMITS.bio) throw badRequest(PROFILE_MESSAGES.bioTooLong);
    changes.bio = bio || null;
  }
  if (input.avatarUrl !== undefined) changes.avatarUrl = storedImageUrl('avatar', input.avatarUrl, publicUrl);
  if (input.bannerUrl !== undefined) changes.bannerUrl = storedImageUrl('banner', input.bannerUrl, publicUrl);
  if (input.showInVoterLists !== undefined) changes.showInVoterLists = input.showInVoterLists;
  return changes;
}

/**
 * PATCH /api/me. Username uniqueness (ignoring case) is the unique index's to decide: of two
 * requests for the same name at once, one commits and the other gets 409 'Username already taken'.
 */
export async function updateOwnProfile(ctx: EditContext, editor: Editor, input: UpdateProfileInput, now = new Date()): Promise<Profile> {
  const changes = profileChanges(input, ctx.publicUrl);
  let row: profiles.ProfileRow | null;
  try {
    row = await profiles.updateProfileFields(ctx.db, editor.id, changes, now);
  } catch (err) {
    if (sqlState(err) === '23505' && constraintOf(err) === profiles.USERNAME_UNIQUE_INDEX) throw conflict(PROFILE_MESSAGES.usernameTaken);
    throw err;
  }
  if (!row) throw unauthorized(NOT_AUTHENTICATED);
  return presentProfile(row);
}

const isProfileImageType = (mime: string | undefined): boolean => (PROFILE_IMAGE_TYPES as readonly string[]).includes(mime ?? '');

/**
 * POST /api/me/avatar and /api/me/banner: one JPG, PNG or WebP (told by its bytes), re-encoded to
 * WebP and cropped to the shape (avatar 400×400, banner 1500×500; a smaller image keeps the shape
 * at its own size). Its media row keeps the worker's media.gc off the files until PATCH /api/me
 * names it (and a profile naming it keeps it from then on).
 */
export async function uploadProfileImage(ctx: EditContext, editor: Editor, kind: ProfileImageKind, files: UploadedFile[]): Promise<UploadedProfileImage> {
  const file = files[0];
  if (!file) throw badRequest(UPLOAD_MESSAGES.malformed);
  if (!isProfileImageType((await sniffType(file.path))?.mime)) throw badRequest(PROFILE_MESSAGES.imageTypeApi);
  const image = await ctx.media.ingest({ path: file.path, declaredType: file.declaredType }, { cover: PROFILE_IMAGE_SHAPES[kind] });
  try {
    await ctx.db.transaction(async (tx) => {
      await insertMedia(tx, image, editor.id);
    });
  } catch (err) {
    await ctx.media.discard([image]).catch((discardErr: unknown) => ctx.log.warn({ err: discardErr }, `discarding a failed ${kind} upload failed`));
    throw err;
  }
  return { url: image.url, thumbnailUrl: image.thumbnailUrl, width: image.width, height: image.height };
}
