import { Type, type Static } from '@sinclair/typebox';
import { ADMIN_LIMITS } from '../../adminRules.ts';
import { ROLES } from '../../roles.ts';
import { IsoDate, SafeMultilineText, SafeText, Uuid } from '../common.ts';
import { defineRoutes, NoContent } from '../../route.ts';
import { ProfileGroupList } from '../profiles.ts';

export const RoleSchema = Type.Union(ROLES.map((r) => Type.Literal(r)));
export const USER_STATUS_FILTERS = ['all', 'active', 'suspended'] as const;

/** GET /api/admin/users: search (name, username or e-mail; partial, case ignored), filters, pages of 20. */
export const AdminUsersQuery = Type.Object(
  {
    q: Type.Optional(SafeText({ maxLength: 100 })),
    role: Type.Optional(RoleSchema),
    status: Type.Optional(Type.Union(USER_STATUS_FILTERS.map((s) => Type.Literal(s)))),
    page: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
  },
  { additionalProperties: false },
);
export type AdminUsersQuery = Static<typeof AdminUsersQuery>;

export const AdminUserRow = Type.Object({
  id: Uuid,
  displayName: Type.Union([Type.String(), Type.Null()]),
  username: Type.Union([Type.String(), Type.Null()]),
  /** The private account's e-mail ('Sin email' when null). */
  email: Type.Union([Type.String(), Type.Null()]),
  avatarUrl: Type.Union([Type.String(), Type.Null()]),
  bio: Type.Union([Type.String(), Type.Null()]),
  role: RoleSchema,
  isSuspended: Type.Boolean(),
  isDeleted: Type.Boolean(),
  totalPoints: Type.Integer(),
  voteCount: Type.Integer({ minimum: 0 }),
  postCount: Type.Integer({ minimum: 0 }),
  commentCount: Type.Integer({ minimum: 0 }),
  createdAt: IsoDate,
});
export type AdminUserRow = Static<typeof AdminUserRow>;

export const AdminUserList = Type.Object({
  items: Type.Array(AdminUserRow),
  /**
   * Users matching the search and filters (all pages). Exact without a search; with one, counting
   * stops at 1,000 (`totalCapped`: more users match than `total` says).
   */
  total: Type.Integer({ minimum: 0 }),
  totalCapped: Type.Boolean(),
  page: Type.Integer({ minimum: 1 }),
  pageSize: Type.Integer({ minimum: 1 }),
});
export type AdminUserList = Static<typeof AdminUserList>;

export const AdminUserParams = Type.Object({ userId: Uuid }, { additionalProperties: false });

/** PATCH /api/admin/users/:userId: the profile rules of the public edit (spec public §5), plus the role. */
export const UpdateAdminUserInput = Type.Object(
  {
    displayName: Type.Optional(SafeText({ maxLength: 200 })),
    username: Type.Optional(Type.Union([SafeText({ maxLength: 80 }), Type.Null()])),
    bio: Type.Optional(Type.Union([SafeMultilineText({ maxLength: 2000 }), Type.Null()])),
    avatarUrl: Type.Optional(Type.Union([Type.String({ maxLength: 4096 }), Type.Null()])),
    role: Type.Optional(RoleSchema),
  },
  { additionalProperties: false },
);
export type UpdateAdminUserInput = Static<typeof UpdateAdminUserInput>;

/** POST /api/admin/users/:userId/points: a non-zero integer (negative subtracts) and an optional description. */
export const AdjustPointsInput = Type.Object(
  {
    points: Type.Integer({ minimum: -ADMIN_LIMITS.maxPointsAdjustment, maximum: ADMIN_LIMITS.maxPointsAdjustment }),
    description: Type.Optional(SafeText({ maxLength: ADMIN_LIMITS.pointsDescription })),
  },
  { additionalProperties: false },
);
export type AdjustPointsInput = Static<typeof AdjustPointsInput>;

export const AdjustPointsResult = Type.Object({
  totalPoints: Type.Integer(),
  entry: Type.Object({ id: Type.String(), points: Type.Integer(), reason: Type.Literal('admin_adjustment'), description: Type.String(), createdAt: IsoDate }),
});
export type AdjustPointsResult = Static<typeof AdjustPointsResult>;

/** GET /api/admin/users/:userId/stats: the Estadísticas modal. */
export const AdminUserStats = Type.Object({
  votes: Type.Integer({ minimum: 0 }),
  posts: Type.Integer({ minimum: 0 }),
  comments: Type.Integer({ minimum: 0 }),
  totalPoints: Type.Integer(),
  pointsByReason: Type.Array(Type.Object({ reason: Type.String(), points: Type.Integer(), entries: Type.Integer({ minimum: 0 }) })),
});
export type AdminUserStats = Static<typeof AdminUserStats>;

/** GET /api/admin/users/:userId/groups: every group of the user (private ones too), newest membership first (issue 28). */
export const AdminUserGroups = ProfileGroupList;

export const AdminGroupParams = Type.Object({ groupId: Uuid }, { additionalProperties: false });
export type AdminGroupParams = Static<typeof AdminGroupParams>;

export const ADMIN_USER_ROUTES = defineRoutes({
  adminUsers: {
    method: 'GET',
    path: '/api/admin/users',
    status: 200,
    tags: ['admin'],
    summary: 'Users newest first, searched by name, username or e-mail (partial, case ignored), by role and status; pages of 20',
    querystring: AdminUsersQuery,
    response: AdminUserList,
    errors: [400, 401, 403, 429],
    rateLimit: 'admin.read',
  },
  updateAdminUser: {
    method: 'PATCH',
    path: '/api/admin/users/:userId',
    status: 200,
    tags: ['admin'],
    summary: "Edit a user's display name, username, bio, avatar URL or role",
    params: AdminUserParams,
    body: UpdateAdminUserInput,
    response: AdminUserRow,
    errors: [400, 401, 403, 404, 409, 429],
    rateLimit: 'admin.write',
  },
  adjustUserPoints: {
    method: 'POST',
    path: '/api/admin/users/:userId/points',
    status: 200,
    tags: ['admin'],
    summary: "Add to or subtract from a user's points, with a history row (reason admin_adjustment)",
    params: AdminUserParams,
    body: AdjustPointsInput,
    response: AdjustPointsResult,
    errors: [400, 401, 403, 404, 429],
    rateLimit: 'admin.write',
  },
  adminUserStats: {
    method: 'GET',
    path: '/api/admin/users/:userId/stats',
    status: 200,
    tags: ['admin'],
    summary: "A user's votes, posts, comments and points by reason",
    params: AdminUserParams,
    response: AdminUserStats,
    errors: [400, 401, 403, 404, 429],
    rateLimit: 'admin.read',
  },
  suspendUser: {
    method: 'POST',
    path: '/api/admin/users/:userId/suspend',
    status: 200,
    tags: ['admin'],
    summary: 'Suspend a user and revoke all of their sessions',
    params: AdminUserParams,
    response: AdminUserRow,
    errors: [400, 401, 403, 404, 429],
    rateLimit: 'admin.write',
  },
  unsuspendUser: {
    method: 'POST',
    path: '/api/admin/users/:userId/unsuspend',
    status: 200,
    tags: ['admin'],
    summary: 'Lift the suspension of a user',
    params: AdminUserParams,
    response: AdminUserRow,
    errors: [400, 401, 403, 404, 409, 429],
    rateLimit: 'admin.write',
  },
  adminUserGroups: {
    method: 'GET',
    path: '/api/admin/users/:userId/groups',
    status: 200,
    tags: ['admin'],
    summary: "A user's groups with their role, private ones included, newest membership first",
    params: AdminUserParams,
    response: AdminUserGroups,
    errors: [400, 401, 403, 404, 429],
    rateLimit: 'admin.read',
  },
  adminDeleteGroup: {
    method: 'DELETE',
    path: '/api/admin/groups/:groupId',
    status: 204,
    tags: ['admin'],
    summary: 'Delete any group and its posts (audit log)',
    params: AdminGroupParams,
    response: NoContent,
    errors: [400, 401, 403, 404, 429],
    rateLimit: 'admin.write',
  },
});
