// Safety (issue 29): fans report posts, comments and profiles; site admins and moderators work the
// moderation queue (/admin/moderacion on the web); fans mute and block each other.
import { Type, type Static } from '@sinclair/typebox';
import { MODERATION_ACTIONS, MODERATION_LIMITS, REPORT_REASONS, REPORT_STATUSES, REPORT_TARGETS, SILENCE_DURATIONS } from '../moderationRules.ts';
import { IsoDate, SafeMultilineText, Uuid } from './common.ts';
import { AuthorView, CommentView, PostView } from './wall.ts';
import { defineRoutes } from '../route.ts';

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);
const Cursor = Type.String({ minLength: 1, maxLength: 200, pattern: '^[A-Za-z0-9_-]+$' });

export const ReportTargetSchema = Type.Union(REPORT_TARGETS.map((t) => Type.Literal(t)));
export const ReportReasonSchema = Type.Union(REPORT_REASONS.map((r) => Type.Literal(r)));
export const ReportStatusSchema = Type.Union(REPORT_STATUSES.map((s) => Type.Literal(s)));
export const ModerationActionSchema = Type.Union(MODERATION_ACTIONS.map((a) => Type.Literal(a)));
export const SilenceDurationSchema = Type.Union(SILENCE_DURATIONS.map((d) => Type.Literal(d)));

// --- Reports (fans) -------------------------------------------------------------------------------

/**
 * POST /api/reports: a post, a comment or a profile the reporter may see; not their own. One open
 * report per person and item (409 'Ya reportaste esto…'). The author is never told who reported.
 */
export const ReportInput = Type.Object(
  {
    targetType: ReportTargetSchema,
    targetId: Uuid,
    reason: ReportReasonSchema,
    comment: Type.Optional(SafeMultilineText({ maxLength: MODERATION_LIMITS.reportComment * 2 })),
  },
  { additionalProperties: false },
);
export type ReportInput = Static<typeof ReportInput>;

/** The answer to a report: 'Gracias, revisaremos tu reporte'. */
export const ReportReceipt = Type.Object({ id: Uuid, message: Type.String() });
export type ReportReceipt = Static<typeof ReportReceipt>;

// --- The queue (site admins and moderators) -------------------------------------------------------

/** GET /api/moderation/queue: items with reports, grouped by item, newest report first. */
export const ModerationQueueQuery = Type.Object(
  {
    /** 'open' (default): items with open reports; 'dismissed' / 'actioned': items whose reports were closed so. */
    status: Type.Optional(ReportStatusSchema),
    reason: Type.Optional(ReportReasonSchema),
    cursor: Type.Optional(Cursor),
  },
  { additionalProperties: false },
);
export type ModerationQueueQuery = Static<typeof ModerationQueueQuery>;

/** A reported profile as the queue shows it. */
export const ReportedProfile = Type.Object({ ...AuthorView.properties, bio: Nullable(Type.String()), isDeleted: Type.Boolean() });
export type ReportedProfile = Static<typeof ReportedProfile>;

/** One earlier action on the author's items or account. */
export const ModerationHistoryEntry = Type.Object({
  action: ModerationActionSchema,
  targetType: ReportTargetSchema,
  at: IsoDate,
  reason: Nullable(Type.String()),
});
export type ModerationHistoryEntry = Static<typeof ModerationHistoryEntry>;

/** The reported item's author, with what the queue needs to judge them. */
export const ModeratedAuthor = Type.Object({
  ...AuthorView.properties,
  createdAt: IsoDate,
  isSuspended: Type.Boolean(),
  /** Silenced until then (in the future), else null. */
  silencedUntil: Type.Union([IsoDate, Type.Null()]),
  /** Reports ever made about the author's items and profile (this item's included). */
  reportsReceived: Type.Integer({ minimum: 0 }),
  /** The latest actions taken on the author's items or account, newest first (at most 10). */
  history: Type.Array(ModerationHistoryEntry),
});
export type ModeratedAuthor = Static<typeof ModeratedAuthor>;

export const ModerationItem = Type.Object({
  targetType: ReportTargetSchema,
  targetId: Uuid,
  /** Reports of the item in the listed status. */
  reportCount: Type.Integer({ minimum: 1 }),
  /** Reports per reason (only reasons with at least one). */
  reasons: Type.Record(Type.String(), Type.Integer({ minimum: 1 })),
  /** The latest reporters' comments (at most 5), never who wrote them. */
  comments: Type.Array(Type.String()),
  firstReportedAt: IsoDate,
  lastReportedAt: IsoDate,
  /**
   * The item's state: 'visible'; 'hidden' (by a moderator, or automatically pending review:
   * `autoHidden`); 'deleted'; for a profile, 'visible' or 'deleted'.
   */
  state: Type.Union([Type.Literal('visible'), Type.Literal('hidden'), Type.Literal('deleted')]),
  autoHidden: Type.Boolean(),
  /** The item as its readers see it (images included); null once deleted. */
  post: Type.Union([PostView, Type.Null()]),
  comment: Type.Union([CommentView, Type.Null()]),
  profile: Type.Union([ReportedProfile, Type.Null()]),
  author: ModeratedAuthor,
  /** What the viewer may do with it now. */
  actions: Type.Array(ModerationActionSchema),
});
export type ModerationItem = Static<typeof ModerationItem>;

export const ModerationQueue = Type.Object({ items: Type.Array(ModerationItem), nextCursor: Type.Union([Type.String(), Type.Null()]) });
export type ModerationQueue = Static<typeof ModerationQueue>;

/** GET /api/moderation/count: the navigation badge (items with open reports); live on the topic 'moderation'. */
export const ModerationCount = Type.Object({ open: Type.Integer({ minimum: 0 }) });
export type ModerationCount = Static<typeof ModerationCount>;

/**
 * POST /api/moderation/actions: one action on an item (see MODERATION_ACTIONS). `silenceFor` is
 * required with 'silence'. 'suspend' is for site admins only; staff cannot be silenced or suspended
 * here. Every action is in the audit log with who, why, and the before/after; the item's open
 * reports close with it and their reporters are told the outcome.
 */
export const ModerationActionInput = Type.Object(
  {
    targetType: ReportTargetSchema,
    targetId: Uuid,
    action: ModerationActionSchema,
    reason: Type.Optional(SafeMultilineText({ maxLength: MODERATION_LIMITS.actionReason * 2 })),
    silenceFor: Type.Optional(SilenceDurationSchema),
  },
  { additionalProperties: false },
);
export type ModerationActionInput = Static<typeof ModerationActionInput>;

export const ModerationActionResult = Type.Object({
  /** The item after the action (as the queue lists it), or null when it no longer has any report. */
  item: Type.Union([ModerationItem, Type.Null()]),
  /** Open reports closed by this action. */
  closedReports: Type.Integer({ minimum: 0 }),
  message: Type.String(),
});
export type ModerationActionResult = Static<typeof ModerationActionResult>;

/** The topic 'moderation' (site admins and moderators): the open count, a snapshot on each change. */
export const ModerationCountMessage = Type.Object({
  type: Type.Literal('moderation-count'),
  topic: Type.Literal('moderation'),
  open: Type.Integer({ minimum: 0 }),
});
export type ModerationCountMessage = Static<typeof ModerationCountMessage>;

// --- Mute and block (fans) ------------------------------------------------------------------------

export const SafetyParams = Type.Object({ userId: Uuid }, { additionalProperties: false });
export type SafetyParams = Static<typeof SafetyParams>;

/** The viewer's relation to a profile after PUT/DELETE …/mute or …/block. */
export const SafetyState = Type.Object({ muted: Type.Boolean(), blocked: Type.Boolean() });
export type SafetyState = Static<typeof SafetyState>;

export const SafetyListQuery = Type.Object({ cursor: Type.Optional(Cursor) }, { additionalProperties: false });
export type SafetyListQuery = Static<typeof SafetyListQuery>;

export const SafetyEntry = Type.Object({ user: AuthorView, since: IsoDate });
export type SafetyEntry = Static<typeof SafetyEntry>;

/** GET /api/me/muted and /api/me/blocked: newest first, 30 a page (the profile's settings). */
export const SafetyPage = Type.Object({ items: Type.Array(SafetyEntry), nextCursor: Type.Union([Type.String(), Type.Null()]) });
export type SafetyPage = Static<typeof SafetyPage>;

const moderationRoute = { tags: ['moderation'] } as const;
const safetyRoute = { tags: ['safety'] } as const;

export const MODERATION_ROUTES = defineRoutes({
  createReport: {
    ...moderationRoute,
    method: 'POST',
    path: '/api/reports',
    status: 201,
    summary: 'Report a post, a comment or a profile (one open report per person and item)',
    body: ReportInput,
    response: ReportReceipt,
    errors: [400, 401, 403, 404, 409, 429],
    rateLimit: 'moderation.report',
    audience: 'user',
  },
  moderationQueue: {
    ...moderationRoute,
    method: 'GET',
    path: '/api/moderation/queue',
    status: 200,
    summary: 'The moderation queue (site admins and moderators): reported items grouped, with their authors and history',
    querystring: ModerationQueueQuery,
    response: ModerationQueue,
    errors: [400, 401, 403, 429],
    rateLimit: 'moderation.read',
  },
  moderationCount: {
    ...moderationRoute,
    method: 'GET',
    path: '/api/moderation/count',
    status: 200,
    summary: 'Items with open reports (the back-office badge; site admins and moderators)',
    response: ModerationCount,
    errors: [401, 403, 429],
    rateLimit: 'moderation.read',
  },
  moderate: {
    ...moderationRoute,
    method: 'POST',
    path: '/api/moderation/actions',
    status: 200,
    summary: 'Act on a reported item: dismiss, hide, restore, delete, silence or unsilence its author, suspend (admins)',
    body: ModerationActionInput,
    response: ModerationActionResult,
    errors: [400, 401, 403, 404, 409, 429],
    rateLimit: 'moderation.act',
  },
  muteUser: {
    ...safetyRoute,
    method: 'PUT',
    path: '/api/profiles/:userId/mute',
    status: 200,
    summary: "Mute a person ('Silenciar'): their posts and comments disappear for the viewer (idempotent)",
    params: SafetyParams,
    response: SafetyState,
    errors: [400, 401, 403, 404, 429],
    rateLimit: 'safety.write',
    audience: 'user',
  },
  unmuteUser: {
    ...safetyRoute,
    method: 'DELETE',
    path: '/api/profiles/:userId/mute',
    status: 200,
    summary: 'Unmute a person (idempotent)',
    params: SafetyParams,
    response: SafetyState,
    errors: [400, 401, 403, 404, 429],
    rateLimit: 'safety.write',
    audience: 'user',
  },
  blockUser: {
    ...safetyRoute,
    method: 'PUT',
    path: '/api/profiles/:userId/block',
    status: 200,
    summary: "Block a person ('Bloquear'): neither sees, comments on, reacts to, mentions or follows the other; follows both ways end (idempotent)",
    params: SafetyParams,
    response: SafetyState,
    errors: [400, 401, 403, 404, 429],
    rateLimit: 'safety.write',
    audience: 'user',
  },
  unblockUser: {
    ...safetyRoute,
    method: 'DELETE',
    path: '/api/profiles/:userId/block',
    status: 200,
    summary: 'Unblock a person (idempotent; follows do not come back)',
    params: SafetyParams,
    response: SafetyState,
    errors: [400, 401, 403, 404, 429],
    rateLimit: 'safety.write',
    audience: 'user',
  },
  mutedUsers: {
    ...safetyRoute,
    method: 'GET',
    path: '/api/me/muted',
    status: 200,
    summary: 'The people the viewer muted, newest first, 30 a page',
    querystring: SafetyListQuery,
    response: SafetyPage,
    errors: [400, 401, 429],
    rateLimit: 'profiles.read',
    audience: 'user',
  },
  blockedUsers: {
    ...safetyRoute,
    method: 'GET',
    path: '/api/me/blocked',
    status: 200,
    summary: 'The people the viewer blocked, newest first, 30 a page',
    querystring: SafetyListQuery,
    response: SafetyPage,
    errors: [400, 401, 429],
    rateLimit: 'profiles.read',
    audience: 'user',
  },
});
