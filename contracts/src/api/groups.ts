// Fan clubs (issue 28): the directory, a group's page, membership, join requests, roles, bans and
// pinned posts. The group's wall itself is GET /api/posts?groupId= (wall.ts).
import { Type, type Static } from '@sinclair/typebox';
import { GROUP_LIMITS, GROUP_PRIVACIES, GROUP_RELATIONS, GROUP_ROLES } from '../groupRules.ts';
import { IsoDate, SafeMultilineText, SafeText, Uuid } from './common.ts';
import { AuthorView } from './wall.ts';
import { defineRoutes, NoContent } from '../route.ts';

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);
const Cursor = Type.String({ minLength: 1, maxLength: 200, pattern: '^[A-Za-z0-9_-]+$' });

export const GroupPrivacySchema = Type.Union(GROUP_PRIVACIES.map((p) => Type.Literal(p)));
export const GroupRoleSchema = Type.Union(GROUP_ROLES.map((r) => Type.Literal(r)));
export const GroupRelationSchema = Type.Union(GROUP_RELATIONS.map((r) => Type.Literal(r)));

export const GroupParams = Type.Object({ groupId: Uuid }, { additionalProperties: false });
export type GroupParams = Static<typeof GroupParams>;
export const GroupMemberParams = Type.Object({ groupId: Uuid, userId: Uuid }, { additionalProperties: false });
export type GroupMemberParams = Static<typeof GroupMemberParams>;

/** A group as the directory and the profile show it: anybody may see a private group's card. */
export const GroupCard = Type.Object({
  id: Uuid,
  name: Type.String(),
  description: Nullable(Type.String()),
  avatarUrl: Nullable(Type.String()),
  coverUrl: Nullable(Type.String()),
  privacy: GroupPrivacySchema,
  memberCount: Type.Integer({ minimum: 0 }),
  /** The viewer's relation ('none' for visitors). */
  relation: GroupRelationSchema,
});
export type GroupCard = Static<typeof GroupCard>;

/** GET /api/groups/:groupId: the card, and what the viewer may do there. */
export const GroupDetail = Type.Object({
  ...GroupCard.properties,
  createdAt: IsoDate,
  /** The viewer may read the group's wall and members (public, a member, or a site admin). */
  canRead: Type.Boolean(),
  /** The viewer may post there (members). */
  canPost: Type.Boolean(),
  /** The viewer may answer requests, pin posts, remove posts, comments and members (group admins and moderators, site admins). */
  canModerate: Type.Boolean(),
  /** The viewer may edit the group, change roles, ban, and delete it (group admins, site admins). */
  canAdminister: Type.Boolean(),
  /** Pending join requests: for those who may moderate, null for anybody else. */
  pendingRequests: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
});
export type GroupDetail = Static<typeof GroupDetail>;

/** GET /api/groups: `q` searches names (partial, case and accents ignored); most members first. */
export const GroupDirectoryQuery = Type.Object(
  { q: Type.Optional(SafeText({ maxLength: GROUP_LIMITS.search })), cursor: Type.Optional(Cursor) },
  { additionalProperties: false },
);
export type GroupDirectoryQuery = Static<typeof GroupDirectoryQuery>;

export const GroupDirectory = Type.Object({
  /** 'Tus grupos' (the signed-in viewer's groups matching `q`, on the first page only; empty otherwise). */
  mine: Type.Array(GroupCard),
  /** The other groups matching `q`, most members first, 20 a page. */
  groups: Type.Array(GroupCard),
  nextCursor: Type.Union([Type.String(), Type.Null()]),
});
export type GroupDirectory = Static<typeof GroupDirectory>;

/**
 * POST /api/groups and PATCH /api/groups/:groupId. Texts are trimmed and checked with the messages
 * of GROUP_MESSAGES (the schema only bounds the size). Avatar and cover: URLs of this site's
 * uploads (POST /api/me/avatar and /api/me/banner take the image), or null to clear.
 */
export const CreateGroupInput = Type.Object(
  {
    name: SafeText({ maxLength: GROUP_LIMITS.nameMax * 4 }),
    description: Type.Optional(Type.Union([SafeMultilineText({ maxLength: GROUP_LIMITS.description * 4 }), Type.Null()])),
    privacy: GroupPrivacySchema,
    avatarUrl: Type.Optional(Type.Union([Type.String({ maxLength: 1000 }), Type.Null()])),
    coverUrl: Type.Optional(Type.Union([Type.String({ maxLength: 1000 }), Type.Null()])),
  },
  { additionalProperties: false },
);
export type CreateGroupInput = Static<typeof CreateGroupInput>;

export const UpdateGroupInput = Type.Partial(CreateGroupInput, { additionalProperties: false });
export type UpdateGroupInput = Static<typeof UpdateGroupInput>;

/** POST /api/groups/:groupId/leave: the last admin names a member to take over (`successorId`). */
export const LeaveGroupInput = Type.Object({ successorId: Type.Optional(Uuid) }, { additionalProperties: false });
export type LeaveGroupInput = Static<typeof LeaveGroupInput>;

export const GroupMember = Type.Object({
  user: AuthorView,
  role: GroupRoleSchema,
  joinedAt: IsoDate,
});
export type GroupMember = Static<typeof GroupMember>;

export const GroupListQuery = Type.Object({ cursor: Type.Optional(Cursor) }, { additionalProperties: false });
export type GroupListQuery = Static<typeof GroupListQuery>;

/** GET /api/groups/:groupId/members: admins, then moderators, then members, oldest first; 30 a page. */
export const GroupMemberPage = Type.Object({ items: Type.Array(GroupMember), nextCursor: Type.Union([Type.String(), Type.Null()]) });
export type GroupMemberPage = Static<typeof GroupMemberPage>;

/** PATCH /api/groups/:groupId/members/:userId (group admins). */
export const UpdateMemberRoleInput = Type.Object({ role: GroupRoleSchema }, { additionalProperties: false });
export type UpdateMemberRoleInput = Static<typeof UpdateMemberRoleInput>;

/** DELETE /api/groups/:groupId/members/:userId: `ban=true` (group admins) also keeps them out. */
export const RemoveMemberQuery = Type.Object({ ban: Type.Optional(Type.Boolean()) }, { additionalProperties: false });
export type RemoveMemberQuery = Static<typeof RemoveMemberQuery>;

export const GroupPerson = Type.Object({ user: AuthorView, createdAt: IsoDate });
export type GroupPerson = Static<typeof GroupPerson>;

/** GET /api/groups/:groupId/requests (oldest first) and /bans (newest first): 30 a page. */
export const GroupPersonPage = Type.Object({ items: Type.Array(GroupPerson), nextCursor: Type.Union([Type.String(), Type.Null()]) });
export type GroupPersonPage = Static<typeof GroupPersonPage>;

/** POST /api/groups/:groupId/requests/:userId: approve (the fan becomes a member) or reject. */
export const AnswerJoinRequestInput = Type.Object({ approve: Type.Boolean() }, { additionalProperties: false });
export type AnswerJoinRequestInput = Static<typeof AnswerJoinRequestInput>;

/** The pending requests after an answer (the 'Solicitudes' count). */
export const PendingRequests = Type.Object({ pendingRequests: Type.Integer({ minimum: 0 }) });
export type PendingRequests = Static<typeof PendingRequests>;

/** PUT /api/posts/:postId/pin: pin or unpin a group's post ('Fijado'; group admins and moderators). */
export const PinPostInput = Type.Object({ pinned: Type.Boolean() }, { additionalProperties: false });
export type PinPostInput = Static<typeof PinPostInput>;
export const PinState = Type.Object({ postId: Uuid, isPinned: Type.Boolean() });
export type PinState = Static<typeof PinState>;

// --- Live -------------------------------------------------------------------------------------

const GroupTopicName = Type.String({ pattern: '^group:[0-9a-f-]{36}$' });
const UserTopicName = Type.String({ pattern: '^user:[0-9a-f-]{36}$' });

/** A post was published on a group's wall (topic `group:{id}`): its readers see 'N publicaciones nuevas'. */
export const GroupPostMessage = Type.Object({ type: Type.Literal('group-post'), topic: GroupTopicName, groupId: Uuid, postId: Uuid, authorId: Uuid });
export type GroupPostMessage = Static<typeof GroupPostMessage>;

/** The pending requests of a group changed: sent on `user:{id}` of each of its admins and moderators. */
export const GroupRequestsMessage = Type.Object({
  type: Type.Literal('group-requests'),
  topic: UserTopicName,
  groupId: Uuid,
  pendingRequests: Type.Integer({ minimum: 0 }),
});
export type GroupRequestsMessage = Static<typeof GroupRequestsMessage>;

/**
 * The viewer's relation to a group changed (approved, removed, banned, role changed, group
 * deleted): sent on `user:{id}`. A socket that lost access has already been unsubscribed from the
 * group's topics (`group:{id}` and its private posts' `post:{id}`).
 */
export const GroupRelationMessage = Type.Object({ type: Type.Literal('group-relation'), topic: UserTopicName, groupId: Uuid, relation: GroupRelationSchema });
export type GroupRelationMessage = Static<typeof GroupRelationMessage>;

export type GroupLiveMessage = GroupPostMessage | GroupRequestsMessage | GroupRelationMessage;

/** The cluster event `group.live`: a message as it is sent to the viewers of its topic. */
export const GroupLiveEvent = Type.Union([GroupPostMessage, GroupRequestsMessage]);
export type GroupLiveEvent = Static<typeof GroupLiveEvent>;

/**
 * The cluster event `group.access`: who may read a group changed (a fan left, was removed or
 * banned; the group turned private or was deleted). Every instance asks the access policy again
 * for the sockets of `userIds` (every socket when null) watching `group:{id}` or a `post:{id}` of
 * the group, drops the subscriptions refused, then sends `relations` (in that order).
 */
export const GroupAccessEvent = Type.Object({
  groupId: Uuid,
  userIds: Type.Union([Type.Array(Uuid, { maxItems: 1000 }), Type.Null()]),
  relations: Type.Array(GroupRelationMessage, { maxItems: 1000 }),
});
export type GroupAccessEvent = Static<typeof GroupAccessEvent>;

const groupRoute = { tags: ['groups'] } as const;

export const GROUP_ROUTES = defineRoutes({
  listGroups: {
    ...groupRoute,
    method: 'GET',
    path: '/api/groups',
    status: 200,
    summary: "The directory: the viewer's groups ('Tus grupos') and the rest, most members first, searched by name; 20 a page",
    querystring: GroupDirectoryQuery,
    response: GroupDirectory,
    errors: [400, 429],
    rateLimit: 'groups.read',
  },
  createGroup: {
    ...groupRoute,
    method: 'POST',
    path: '/api/groups',
    status: 201,
    summary: 'Create a group (3 a day per fan); the creator is its admin',
    body: CreateGroupInput,
    response: GroupDetail,
    errors: [400, 401, 403, 429],
    rateLimit: 'groups.create',
    audience: 'writer',
  },
  getGroup: {
    ...groupRoute,
    method: 'GET',
    path: '/api/groups/:groupId',
    status: 200,
    summary: "A group's page header and what the viewer may do there (a private group's card is public, its wall is not)",
    params: GroupParams,
    response: GroupDetail,
    errors: [400, 404, 429],
    rateLimit: 'groups.read',
  },
  updateGroup: {
    ...groupRoute,
    method: 'PATCH',
    path: '/api/groups/:groupId',
    status: 200,
    summary: 'Edit a group (its admins): only the fields sent change',
    params: GroupParams,
    body: UpdateGroupInput,
    response: GroupDetail,
    errors: [400, 401, 403, 404, 429],
    rateLimit: 'groups.write',
    audience: 'writer',
  },
  deleteGroup: {
    ...groupRoute,
    method: 'DELETE',
    path: '/api/groups/:groupId',
    status: 204,
    summary: 'Delete a group and its posts (its admins, or a site admin: audit log)',
    params: GroupParams,
    response: NoContent,
    errors: [400, 401, 403, 404, 429],
    rateLimit: 'groups.write',
    audience: 'writer',
  },
  joinGroup: {
    ...groupRoute,
    method: 'POST',
    path: '/api/groups/:groupId/join',
    status: 200,
    summary: "Join a public group ('Unirme') or ask to join a private one ('Solicitar unirme')",
    params: GroupParams,
    response: GroupDetail,
    errors: [400, 401, 403, 404, 409, 429],
    rateLimit: 'groups.write',
    audience: 'writer',
  },
  leaveGroup: {
    ...groupRoute,
    method: 'POST',
    path: '/api/groups/:groupId/leave',
    status: 200,
    summary: "Leave a group or withdraw a request ('Salir del grupo'); the last admin names a successor",
    params: GroupParams,
    body: LeaveGroupInput,
    response: GroupDetail,
    errors: [400, 401, 403, 404, 409, 429],
    rateLimit: 'groups.write',
    audience: 'user',
  },
  listGroupMembers: {
    ...groupRoute,
    method: 'GET',
    path: '/api/groups/:groupId/members',
    status: 200,
    summary: "A group's members with their roles (readers of the group only), 30 a page",
    params: GroupParams,
    querystring: GroupListQuery,
    response: GroupMemberPage,
    errors: [400, 403, 404, 429],
    rateLimit: 'groups.read',
  },
  updateGroupMember: {
    ...groupRoute,
    method: 'PATCH',
    path: '/api/groups/:groupId/members/:userId',
    status: 200,
    summary: "Promote or demote a member (the group's admins)",
    params: GroupMemberParams,
    body: UpdateMemberRoleInput,
    response: GroupMember,
    errors: [400, 401, 403, 404, 409, 429],
    rateLimit: 'groups.write',
    audience: 'writer',
  },
  removeGroupMember: {
    ...groupRoute,
    method: 'DELETE',
    path: '/api/groups/:groupId/members/:userId',
    status: 204,
    summary: 'Remove a member (admins; moderators remove plain members), and with ban=true keep them out (admins)',
    params: GroupMemberParams,
    querystring: RemoveMemberQuery,
    response: NoContent,
    errors: [400, 401, 403, 404, 409, 429],
    rateLimit: 'groups.write',
    audience: 'writer',
  },
  listGroupRequests: {
    ...groupRoute,
    method: 'GET',
    path: '/api/groups/:groupId/requests',
    status: 200,
    summary: "Pending join requests, oldest first ('Solicitudes'; admins and moderators)",
    params: GroupParams,
    querystring: GroupListQuery,
    response: GroupPersonPage,
    errors: [400, 401, 403, 404, 429],
    rateLimit: 'groups.read',
    audience: 'user',
  },
  answerGroupRequest: {
    ...groupRoute,
    method: 'POST',
    path: '/api/groups/:groupId/requests/:userId',
    status: 200,
    summary: 'Approve or reject a join request (admins and moderators)',
    params: GroupMemberParams,
    body: AnswerJoinRequestInput,
    response: PendingRequests,
    errors: [400, 401, 403, 404, 429],
    rateLimit: 'groups.write',
    audience: 'writer',
  },
  listGroupBans: {
    ...groupRoute,
    method: 'GET',
    path: '/api/groups/:groupId/bans',
    status: 200,
    summary: "Banned fans, newest first (the group's admins)",
    params: GroupParams,
    querystring: GroupListQuery,
    response: GroupPersonPage,
    errors: [400, 401, 403, 404, 429],
    rateLimit: 'groups.read',
    audience: 'user',
  },
  unbanGroupMember: {
    ...groupRoute,
    method: 'DELETE',
    path: '/api/groups/:groupId/bans/:userId',
    status: 204,
    summary: 'Lift a ban (the group’s admins); the fan may join or ask again',
    params: GroupMemberParams,
    response: NoContent,
    errors: [400, 401, 403, 404, 429],
    rateLimit: 'groups.write',
    audience: 'writer',
  },
  pinPost: {
    ...groupRoute,
    method: 'PUT',
    path: '/api/posts/:postId/pin',
    status: 200,
    summary: "Pin or unpin a group's post on its wall ('Fijado'; the group's admins and moderators, at most 3)",
    params: Type.Object({ postId: Uuid }, { additionalProperties: false }),
    body: PinPostInput,
    response: PinState,
    errors: [400, 401, 403, 404, 409, 429],
    rateLimit: 'groups.write',
    audience: 'writer',
  },
});
