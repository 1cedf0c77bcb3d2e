import { Type, type Static } from '@sinclair/typebox';
import { PROFILE_IMAGE_FIELD, PROFILE_LIMITS, type ProfileImageKind } from '../profileRules.ts';
import { GROUP_PRIVACIES, GROUP_ROLES } from '../groupRules.ts';
import { IsoDate, SafeMultilineText, SafeText, Uuid } from './common.ts';
import { AuthorView } from './wall.ts';
import { DeleteAccountInput, Profile } from './me.ts';
import { defineRoutes, NoContent } from '../route.ts';

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);

export const ProfileParams = Type.Object({ userId: Uuid }, { additionalProperties: false });
export type ProfileParams = Static<typeof ProfileParams>;

/** GET /api/profiles/:userId: what anybody may see of a profile (visitors included). */
export const PublicProfile = Type.Object({
  id: Uuid,
  displayName: Nullable(Type.String()),
  username: Nullable(Type.String()),
  bio: Nullable(Type.String()),
  avatarUrl: Nullable(Type.String()),
  bannerUrl: Nullable(Type.String()),
  /** The account was deleted (anonymised): 'Usuario eliminado', nothing else. */
  isDeleted: Type.Boolean(),
  createdAt: IsoDate,
  /** 'Seguidores' and 'Siguiendo' (issue 28). */
  followersCount: Type.Integer({ minimum: 0 }),
  followingCount: Type.Integer({ minimum: 0 }),
  /** The signed-in viewer follows this profile ('Siguiendo'); false for visitors and on one's own. */
  viewerFollows: Type.Boolean(),
  /** The signed-in viewer muted / blocked this profile (issue 29); false for visitors and on one's own. A profile that blocked the viewer is not found. */
  viewerMuted: Type.Boolean(),
  viewerBlocked: Type.Boolean(),
});
export type PublicProfile = Static<typeof PublicProfile>;

/** PUT and DELETE /api/profiles/:userId/follow: the state after the change. */
export const FollowState = Type.Object({ following: Type.Boolean(), followersCount: Type.Integer({ minimum: 0 }) });
export type FollowState = Static<typeof FollowState>;

/** One entry of a followers or following list: the person, when the follow began, and whether the viewer follows them. */
export const FollowEntry = Type.Object({ user: AuthorView, since: IsoDate, viewerFollows: Type.Boolean() });
export type FollowEntry = Static<typeof FollowEntry>;

/** GET /api/profiles/:userId/followers and /following: newest first, 30 a page. */
export const FollowPage = Type.Object({ items: Type.Array(FollowEntry), nextCursor: Type.Union([Type.String(), Type.Null()]) });
export type FollowPage = Static<typeof FollowPage>;

/** GET /api/profiles/:userId/stats: the counters (for others: the posts and comments they may see). */
export const ProfileStats = Type.Object({
  votes: Type.Integer({ minimum: 0 }),
  posts: Type.Integer({ minimum: 0 }),
  comments: Type.Integer({ minimum: 0 }),
});
export type ProfileStats = Static<typeof ProfileStats>;

/** A poll's status as the voting history shows it: past its end date counts as closed; anything else is a draft. */
export const HistoryPollStatus = Type.Union([Type.Literal('active'), Type.Literal('closed'), Type.Literal('draft')]);

/** One vote row of the own voting history (a points vote spread over options is one row per option). */
export const VoteHistoryItem = Type.Object({
  /** The vote row's id (a bigint, as a string). */
  id: Type.String({ maxLength: 20 }),
  pollId: Uuid,
  pollTitle: Type.String(),
  pollStatus: HistoryPollStatus,
  /** The option's text, or the contestant's name when it has one; null when the option was removed ('Opción eliminada'). */
  optionText: Nullable(Type.String()),
  contestantName: Nullable(Type.String()),
  contestantPhotoUrl: Nullable(Type.String()),
  optionRemoved: Type.Boolean(),
  points: Type.Integer(),
  createdAt: IsoDate,
});
export type VoteHistoryItem = Static<typeof VoteHistoryItem>;

/** GET /api/profiles/:userId/votes: the owner's latest 50 votes, newest first ('Voting history is private' for anybody else). */
export const VoteHistory = Type.Object({ items: Type.Array(VoteHistoryItem) });
export type VoteHistory = Static<typeof VoteHistory>;

/** `cursor` from the previous page's nextCursor (keyset paging). */
export const ProfileListQuery = Type.Object(
  { cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 200, pattern: '^[A-Za-z0-9_-]+$' })) },
  { additionalProperties: false },
);
export type ProfileListQuery = Static<typeof ProfileListQuery>;

/** A comment on the profile's comments tab, with a quote of its post and the post's author. */
export const ProfileComment = Type.Object({
  id: Uuid,
  content: Type.String(),
  parentCommentId: Type.Union([Uuid, Type.Null()]),
  editedAt: Type.Union([IsoDate, Type.Null()]),
  createdAt: IsoDate,
  post: Type.Object({
    id: Uuid,
    /** The post's text, cut to 280 characters. */
    excerpt: Type.String(),
    author: AuthorView,
  }),
});
export type ProfileComment = Static<typeof ProfileComment>;

/** GET /api/profiles/:userId/comments: pages of 20, newest first; others see comments on posts they may see. */
export const ProfileCommentPage = Type.Object({
  items: Type.Array(ProfileComment),
  nextCursor: Type.Union([Type.String(), Type.Null()]),
});
export type ProfileCommentPage = Static<typeof ProfileCommentPage>;

export const ProfileGroup = Type.Object({
  id: Uuid,
  name: Type.String(),
  description: Nullable(Type.String()),
  avatarUrl: Nullable(Type.String()),
  coverUrl: Nullable(Type.String()),
  privacy: Type.Union(GROUP_PRIVACIES.map((p) => Type.Literal(p))),
  role: Type.Union(GROUP_ROLES.map((r) => Type.Literal(r))),
  joinedAt: IsoDate,
});
export type ProfileGroup = Static<typeof ProfileGroup>;

/** GET /api/profiles/:userId/groups: memberships, newest first; others see public groups only. */
export const ProfileGroupList = Type.Object({ items: Type.Array(ProfileGroup) });
export type ProfileGroupList = Static<typeof ProfileGroupList>;

/**
 * PATCH /api/me: the edit dialog. Only the fields sent change. Texts are trimmed; an empty username,
 * bio, avatar or banner clears it. Limits are checked after trimming, with the spec's messages, so
 * the schema only bounds the size.
 */
export const UpdateProfileInput = Type.Object(
  {
    displayName: Type.Optional(SafeText({ maxLength: PROFILE_LIMITS.displayName * 4 })),
    username: Type.Optional(Type.Union([SafeText({ maxLength: PROFILE_LIMITS.usernameMax * 4 }), Type.Null()])),
    bio: Type.Optional(Type.Union([SafeMultilineText({ maxLength: PROFILE_LIMITS.bio * 4 }), Type.Null()])),
    avatarUrl: Type.Optional(Type.Union([Type.String({ maxLength: PROFILE_LIMITS.url * 2 }), Type.Null()])),
    bannerUrl: Type.Optional(Type.Union([Type.String({ maxLength: PROFILE_LIMITS.url * 2 }), Type.Null()])),
    /** "Mostrar mi nombre en las listas de votantes". */
    showInVoterLists: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type UpdateProfileInput = Static<typeof UpdateProfileInput>;

/** POST /api/me/avatar and /api/me/banner (multipart, field `image`): stored and cropped; saved by PATCH /api/me. */
export const UploadedProfileImage = Type.Object({
  url: Type.String(),
  thumbnailUrl: Type.String(),
  width: Type.Integer({ minimum: 1 }),
  height: Type.Integer({ minimum: 1 }),
});
export type UploadedProfileImage = Static<typeof UploadedProfileImage>;

/** POST /api/me/avatar and /api/me/banner: the same upload but for the kind of image. */
const uploadImageRoute = <const P extends string>(kind: ProfileImageKind, path: P) =>
  ({
    method: 'POST',
    path,
    status: 201,
    tags: ['profiles'],
    summary: `Upload a new ${kind} (JPG, PNG or WebP up to 5 MB): re-encoded to WebP and cropped to ${kind === 'avatar' ? '400×400' : '1500×500'}; PATCH /api/me saves its URL`,
    description: `multipart/form-data, read while streaming with its limits enforced as the parts arrive; the image type is sniffed from the bytes. File: ${PROFILE_IMAGE_FIELD} (one).`,
    consumes: ['multipart/form-data'],
    response: UploadedProfileImage,
    errors: [400, 401, 403, 406, 413, 415, 429, 503],
    rateLimit: 'account.upload',
    audience: 'writer',
  }) as const;

/** The own profile and account (/api/me), and anybody's public profile with its counters and tabs. */
export const PROFILE_ROUTES = defineRoutes({
  me: {
    method: 'GET',
    path: '/api/me',
    status: 200,
    tags: ['profiles'],
    summary: 'The signed-in profile (role included)',
    response: Profile,
    errors: [401, 429],
    rateLimit: 'account.read',
    audience: 'user',
  },
  updateProfile: {
    method: 'PATCH',
    path: '/api/me',
    status: 200,
    tags: ['profiles'],
    summary: 'Edit the own profile: only the fields sent change (name, username, bio, avatar and banner URLs, shown in voters lists)',
    description:
      "Texts are trimmed; an empty username, bio, avatar or banner clears it. Usernames are 3-20 of a-z 0-9 _, lower-cased, unique ignoring case (409). Avatar and banner: this site's /media/ uploads or https Google user-content URLs.",
    body: UpdateProfileInput,
    response: Profile,
    errors: [400, 401, 403, 409, 429],
    rateLimit: 'account.update',
    audience: 'writer',
  },
  deleteAccount: {
    method: 'DELETE',
    path: '/api/me',
    status: 204,
    tags: ['profiles'],
    summary: 'Delete (anonymise) the own account and sign out everywhere; the body must confirm with ELIMINAR',
    body: DeleteAccountInput,
    response: NoContent,
    errors: [400, 401, 403, 429],
    rateLimit: 'account.delete',
    audience: 'user',
  },
  uploadAvatar: uploadImageRoute('avatar', '/api/me/avatar'),
  uploadBanner: uploadImageRoute('banner', '/api/me/banner'),
  profile: {
    method: 'GET',
    path: '/api/profiles/:userId',
    status: 200,
    tags: ['profiles'],
    summary: "A user's public profile (visitors too); an anonymised account shows as 'Usuario eliminado'",
    params: ProfileParams,
    response: PublicProfile,
    errors: [400, 404, 429],
    rateLimit: 'profiles.read',
  },
  profileStats: {
    method: 'GET',
    path: '/api/profiles/:userId/stats',
    status: 200,
    tags: ['profiles'],
    summary: "A profile's counters: votes, and the posts and comments the caller may see",
    params: ProfileParams,
    response: ProfileStats,
    errors: [400, 404, 429],
    rateLimit: 'profiles.read',
  },
  profileVotes: {
    method: 'GET',
    path: '/api/profiles/:userId/votes',
    status: 200,
    tags: ['profiles'],
    summary: 'The own voting history: the latest 50 votes, newest first (private: 403 for anybody else)',
    params: ProfileParams,
    response: VoteHistory,
    errors: [400, 401, 403, 429],
    rateLimit: 'profiles.read',
    audience: 'user',
  },
  profileComments: {
    method: 'GET',
    path: '/api/profiles/:userId/comments',
    status: 200,
    tags: ['profiles'],
    summary: "A profile's comments, 20 a page, newest first, each with a quote of its post (others: on public posts only)",
    params: ProfileParams,
    querystring: ProfileListQuery,
    response: ProfileCommentPage,
    errors: [400, 404, 429],
    rateLimit: 'profiles.read',
  },
  profileGroups: {
    method: 'GET',
    path: '/api/profiles/:userId/groups',
    status: 200,
    tags: ['profiles'],
    summary: "A profile's groups, newest membership first (others: public groups only)",
    params: ProfileParams,
    response: ProfileGroupList,
    errors: [400, 404, 429],
    rateLimit: 'profiles.read',
  },
  followUser: {
    method: 'PUT',
    path: '/api/profiles/:userId/follow',
    status: 200,
    tags: ['profiles'],
    summary: "Follow a profile ('Seguir'; idempotent; not one's own); they are told 'X empezó a seguirte'",
    params: ProfileParams,
    response: FollowState,
    errors: [400, 401, 403, 404, 429],
    rateLimit: 'follows.write',
    audience: 'writer',
  },
  unfollowUser: {
    method: 'DELETE',
    path: '/api/profiles/:userId/follow',
    status: 200,
    tags: ['profiles'],
    summary: 'Stop following a profile (idempotent)',
    params: ProfileParams,
    response: FollowState,
    errors: [400, 401, 403, 404, 429],
    rateLimit: 'follows.write',
    audience: 'user',
  },
  profileFollowers: {
    method: 'GET',
    path: '/api/profiles/:userId/followers',
    status: 200,
    tags: ['profiles'],
    summary: "A profile's followers, newest first, 30 a page",
    params: ProfileParams,
    querystring: ProfileListQuery,
    response: FollowPage,
    errors: [400, 404, 429],
    rateLimit: 'profiles.read',
  },
  profileFollowing: {
    method: 'GET',
    path: '/api/profiles/:userId/following',
    status: 200,
    tags: ['profiles'],
    summary: 'Whom a profile follows, newest first, 30 a page',
    params: ProfileParams,
    querystring: ProfileListQuery,
    response: FollowPage,
    errors: [400, 404, 429],
    rateLimit: 'profiles.read',
  },
});
