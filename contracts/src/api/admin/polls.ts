// Back-office polls and the dashboard (spec admin-backoffice.md §2, §4, §5, §7).
import { Type, type Static } from '@sinclair/typebox';
import { ADMIN_LIMITS } from '../../adminRules.ts';
import { IsoDate, SafeText, Uuid } from '../common.ts';
import { PollStatus } from '../pollStatus.ts';
import { defineRoutes, NoContent } from '../../route.ts';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

export const OPTION_TYPES = ['contestants', 'custom'] as const;
export const VOTE_MODES = ['single', 'points'] as const;
export const OptionTypeSchema = Type.Union(OPTION_TYPES.map((t) => Type.Literal(t)));
export const VoteModeSchema = Type.Union(VOTE_MODES.map((m) => Type.Literal(m)));

export const AdminPollOption = Type.Object({
  id: Uuid,
  contestantId: Nullable(Uuid),
  text: Nullable(Type.String()),
  /** What the ballot shows: the contestant's name or the text. */
  label: Type.String(),
  photoUrl: Nullable(Type.String()),
  order: Type.Integer(),
  /** Votes (rows) on this option: what removing it would take off the results. */
  voteCount: Type.Integer({ minimum: 0 }),
});
export type AdminPollOption = Static<typeof AdminPollOption>;

export const AdminPollView = Type.Object({
  id: Uuid,
  title: Type.String(),
  description: Nullable(Type.String()),
  seasonId: Uuid,
  seasonNumber: Type.Integer(),
  realityName: Type.String(),
  /** The stored status (draft, active, closed); `effectiveStatus` also closes an active poll past its end date. */
  status: PollStatus,
  effectiveStatus: PollStatus,
  isFeatured: Type.Boolean(),
  /** The countdown's closing date and time; null without a countdown. */
  endDate: Nullable(IsoDate),
  voteMode: VoteModeSchema,
  optionType: OptionTypeSchema,
  /** Points to distribute (points mode); 1 in single-choice mode. */
  maxPointsPerUser: Type.Integer(),
  dailyReset: Type.Boolean(),
  /** Votes on the options still on the ballot. */
  voteCount: Type.Integer({ minimum: 0 }),
  options: Type.Array(AdminPollOption),
  createdAt: IsoDate,
  updatedAt: IsoDate,
});
export type AdminPollView = Static<typeof AdminPollView>;

export const AdminPollList = Type.Object({ polls: Type.Array(AdminPollView) });
export type AdminPollList = Static<typeof AdminPollList>;

export const AdminPollQuery = Type.Object({ seasonId: Type.Optional(Uuid) }, { additionalProperties: false });
export const AdminPollParams = Type.Object({ pollId: Uuid }, { additionalProperties: false });

/** An option of the form: a contestant or a text; `id` keeps an existing option (and its votes) on edit. */
export const PollOptionInput = Type.Union([
  Type.Object({ id: Type.Optional(Uuid), contestantId: Uuid }, { additionalProperties: false }),
  Type.Object({ id: Type.Optional(Uuid), text: SafeText({ maxLength: ADMIN_LIMITS.optionText * 2 }) }, { additionalProperties: false }),
]);
export type PollOptionInput = Static<typeof PollOptionInput>;

const pollFields = {
  title: SafeText({ maxLength: ADMIN_LIMITS.pollTitle * 2 }),
  description: Type.Optional(Nullable(SafeText({ maxLength: ADMIN_LIMITS.pollDescription }))),
  /** Countdown: the closing date and time; null (or absent) without a countdown. */
  endDate: Type.Optional(Nullable(Type.String({ format: 'date-time' }))),
  /** Points mode: total points to distribute (≥ 2, default 10). */
  maxPointsPerUser: Type.Optional(Type.Integer({ minimum: -1_000_000, maximum: 1_000_000 })),
  dailyReset: Type.Optional(Type.Boolean()),
  options: Type.Array(PollOptionInput, { maxItems: ADMIN_LIMITS.maxOptions }),
};

/** POST /api/admin/polls: created as a draft or active; season, vote mode and option type are fixed from then on. */
export const CreatePollInput = Type.Object(
  {
    ...pollFields,
    seasonId: Uuid,
    voteMode: VoteModeSchema,
    optionType: OptionTypeSchema,
    status: Type.Union([Type.Literal('draft'), Type.Literal('active')]),
  },
  { additionalProperties: false },
);
export type CreatePollInput = Static<typeof CreatePollInput>;

/**
 * PUT /api/admin/polls/:pollId: the editable fields. Options keep their ids (and votes); an option
 * left out that has votes is removed from the ballot and results with its votes kept, one without
 * votes is deleted.
 */
export const UpdatePollInput = Type.Object(pollFields, { additionalProperties: false });
export type UpdatePollInput = Static<typeof UpdatePollInput>;

/** POST /api/admin/polls/:pollId/status: Cerrar (active → closed), Reabrir (closed → active), activate a draft. */
export const PollStatusInput = Type.Object({ status: Type.Union([Type.Literal('active'), Type.Literal('closed')]) }, { additionalProperties: false });
export type PollStatusInput = Static<typeof PollStatusInput>;

// --- Dashboard ---------------------------------------------------------------------------------------

export const DashboardStats = Type.Object({
  activePolls: Type.Integer({ minimum: 0 }),
  totalVotes: Type.Integer({ minimum: 0 }),
  totalUsers: Type.Integer({ minimum: 0 }),
  pageViews24h: Type.Integer({ minimum: 0 }),
});
export type DashboardStats = Static<typeof DashboardStats>;

export const RecentPoll = Type.Object({
  id: Uuid,
  title: Type.String(),
  status: Type.String(),
  voteCount: Type.Integer({ minimum: 0 }),
  createdAt: IsoDate,
});
export type RecentPoll = Static<typeof RecentPoll>;

export const ACTIVITY_TYPES = ['vote', 'user', 'poll'] as const;
export const ActivityItem = Type.Object({
  id: Type.String(),
  type: Type.Union(ACTIVITY_TYPES.map((t) => Type.Literal(t))),
  description: Type.String(),
  createdAt: IsoDate,
});
export type ActivityItem = Static<typeof ActivityItem>;

/** GET /api/admin/dashboard */
export const Dashboard = Type.Object({
  stats: DashboardStats,
  recentPolls: Type.Array(RecentPoll),
  recentActivity: Type.Array(ActivityItem),
});
export type Dashboard = Static<typeof Dashboard>;

/** Live, on the `admin` topic: the dashboard's counters and newest activity changed. */
export const AdminDashboardMessage = Type.Object({
  type: Type.Literal('admin-dashboard'),
  topic: Type.Literal('admin'),
  stats: DashboardStats,
  recentActivity: Type.Array(ActivityItem),
  /** Increases whenever the content changes (the hub's snapshot order); a client may ignore it. */
  seq: Type.Optional(Type.Integer({ minimum: 0 })),
});
export type AdminDashboardMessage = Static<typeof AdminDashboardMessage>;

/** The back-office polls, and the dashboard (its live twin on the `admin` topic is AdminDashboardMessage). */
export const ADMIN_POLL_ROUTES = defineRoutes({
  adminPolls: {
    method: 'GET',
    path: '/api/admin/polls',
    status: 200,
    tags: ['admin'],
    summary: 'Polls, newest first (optionally of one season), with their options and vote counts',
    querystring: AdminPollQuery,
    response: AdminPollList,
    errors: [400, 401, 403, 429],
    rateLimit: 'admin.read',
  },
  createPoll: {
    method: 'POST',
    path: '/api/admin/polls',
    status: 201,
    tags: ['admin'],
    summary: 'Create a poll (draft or active) with its options and points config',
    body: CreatePollInput,
    response: AdminPollView,
    errors: [400, 401, 403, 429],
    rateLimit: 'admin.write',
  },
  updatePoll: {
    method: 'PUT',
    path: '/api/admin/polls/:pollId',
    status: 200,
    tags: ['admin'],
    summary: 'Edit a poll: options keep their ids and votes; one left out with votes leaves the ballot, its votes kept',
    params: AdminPollParams,
    body: UpdatePollInput,
    response: AdminPollView,
    errors: [400, 401, 403, 404, 429],
    rateLimit: 'admin.write',
  },
  setPollStatus: {
    method: 'POST',
    path: '/api/admin/polls/:pollId/status',
    status: 200,
    tags: ['admin'],
    summary: 'Cerrar (active → closed), Reabrir (closed → active) or activate a draft',
    params: AdminPollParams,
    body: PollStatusInput,
    response: AdminPollView,
    errors: [400, 401, 403, 404, 409, 429],
    rateLimit: 'admin.write',
  },
  featurePoll: {
    method: 'POST',
    path: '/api/admin/polls/:pollId/feature',
    status: 200,
    tags: ['admin'],
    summary: 'Fijar en Landing: make this the single featured poll (shown on home whatever its status); a draft is refused (409)',
    params: AdminPollParams,
    response: AdminPollView,
    errors: [400, 401, 403, 404, 409, 429],
    rateLimit: 'admin.write',
  },
  deletePoll: {
    method: 'DELETE',
    path: '/api/admin/polls/:pollId',
    status: 204,
    tags: ['admin'],
    summary: 'Delete a poll with its votes, options, points config and live totals',
    params: AdminPollParams,
    response: NoContent,
    errors: [400, 401, 403, 404, 429],
    rateLimit: 'admin.write',
  },
  adminDashboard: {
    method: 'GET',
    path: '/api/admin/dashboard',
    status: 200,
    tags: ['admin'],
    summary: 'Dashboard: active polls, votes, users and page views of the last 24 h, newest polls and activity',
    response: Dashboard,
    errors: [401, 403, 429],
    rateLimit: 'admin.read',
  },
});
