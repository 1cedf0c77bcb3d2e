// The schemas of the endpoints in endpointRoutes.ts, by the same names: what the web client is
// typed by (type-only import, nothing of TypeBox reaches the bundle) and what the server's routes
// declare (server/src/endpoints.test.ts checks they are the same objects).
import { Type, type TSchema } from '@sinclair/typebox';
import { AuthSession, Challenge, DevLoginInput, DevUserList, FactorEnrolment, FactorList, UnenrolFactorInput, VerifyFactorInput } from './api/auth.ts';
import { PageViewInput } from './api/pageViews.ts';
import { HomePollResponse, PollResults } from './api/polls.ts';
import { ShareInput, ShareResponse } from './api/shares.ts';
import { SiteConfig } from './api/site.ts';
import { AvailablePoints, CastVoteInput, MyVotesResponse } from './api/votes.ts';
import {
  CommentList,
  CreatedComment,
  DeletedComment,
  EditCommentInput,
  EditPostInput,
  FeedPage,
  PostView,
  ReactInput,
  ReactionState,
  ReplyView,
} from './api/wall.ts';
import {
  ContestantList,
  ContestantView,
  CreateContestantInput,
  CreateRealityInput,
  CreateSeasonInput,
  RealityList,
  RealityView,
  SeasonList,
  SeasonView,
  UpdateContestantInput,
  UpdateRealityInput,
  UpdateSeasonInput,
  UploadedPhoto,
} from './api/admin/catalog.ts';
import { AdminPollList, AdminPollView, CreatePollInput, Dashboard, PollStatusInput, UpdatePollInput } from './api/admin/polls.ts';
import { DeleteAccountInput, Profile } from './api/me.ts';
import { ProfileCommentPage, ProfileGroupList, ProfileStats, PublicProfile, UpdateProfileInput, UploadedProfileImage, VoteHistory } from './api/profiles.ts';
import { MarkReadInput, NotificationPage, UnreadCount } from './api/notifications.ts';
import { AdjustPointsInput, AdjustPointsResult, AdminUserList, AdminUserRow, AdminUserStats, UpdateAdminUserInput } from './api/admin/users.ts';
import { RecomputeAccepted, Report } from './api/admin/reports.ts';
import { AbuseScanView, AbuseVoteList, LatestAbuseScan, RestoreVotesInput, VoidResult, VoidVotesInput } from './api/admin/abuse.ts';
import { AuditFilters, AuditPage } from './api/admin/audit.ts';
import { QueueHealthList, RetriedJob } from './api/admin/queues.ts';
import type { EndpointName } from './endpointRoutes.ts';

const NoContent = Type.Null();

export const ENDPOINTS = {
  authSession: { response: AuthSession },
  logout: { response: NoContent },
  devUsers: { response: DevUserList },
  devLogin: { body: DevLoginInput, response: AuthSession },
  listFactors: { response: FactorList },
  enrolFactor: { response: FactorEnrolment },
  factorChallenge: { response: Challenge },
  verifyFactor: { body: VerifyFactorInput, response: AuthSession },
  deleteFactor: { body: UnenrolFactorInput, response: NoContent },
  homePoll: { response: HomePollResponse },
  pollResults: { response: PollResults },
  castVote: { body: CastVoteInput, response: MyVotesResponse },
  myVotes: { response: MyVotesResponse },
  availablePoints: { response: AvailablePoints },
  share: { body: ShareInput, response: ShareResponse },
  site: { response: SiteConfig },
  pageView: { body: PageViewInput, response: NoContent },
  feed: { response: FeedPage },
  getPost: { response: PostView },
  /** multipart/form-data (WALL_FIELDS): sent by the composer with upload progress, not callApi. */
  createPost: { response: PostView },
  editPost: { body: EditPostInput, response: PostView },
  deletePost: { response: NoContent },
  reactToPost: { body: ReactInput, response: ReactionState },
  listComments: { response: CommentList },
  /** multipart/form-data (WALL_FIELDS). */
  createComment: { response: CreatedComment },
  editComment: { body: EditCommentInput, response: ReplyView },
  deleteComment: { response: DeletedComment },
  reactToComment: { body: ReactInput, response: ReactionState },
  me: { response: Profile },
  updateProfile: { body: UpdateProfileInput, response: Profile },
  deleteAccount: { body: DeleteAccountInput, response: NoContent },
  uploadAvatar: { response: UploadedProfileImage },
  uploadBanner: { response: UploadedProfileImage },
  profile: { response: PublicProfile },
  profileStats: { response: ProfileStats },
  profileVotes: { response: VoteHistory },
  profileComments: { response: ProfileCommentPage },
  profileGroups: { response: ProfileGroupList },
  notifications: { response: NotificationPage },
  unreadNotifications: { response: UnreadCount },
  markNotificationsRead: { body: MarkReadInput, response: UnreadCount },
  adminDashboard: { response: Dashboard },
  adminRealities: { response: RealityList },
  createReality: { body: CreateRealityInput, response: RealityView },
  updateReality: { body: UpdateRealityInput, response: RealityView },
  deleteReality: { response: NoContent },
  restoreReality: { response: RealityView },
  adminSeasons: { response: SeasonList },
  createSeason: { body: CreateSeasonInput, response: SeasonView },
  updateSeason: { body: UpdateSeasonInput, response: SeasonView },
  deleteSeason: { response: NoContent },
  restoreSeason: { response: SeasonView },
  adminContestants: { response: ContestantList },
  createContestant: { body: CreateContestantInput, response: ContestantView },
  updateContestant: { body: UpdateContestantInput, response: ContestantView },
  deleteContestant: { response: NoContent },
  restoreContestant: { response: ContestantView },
  /** multipart/form-data (field `image`). */
  uploadContestantPhoto: { response: UploadedPhoto },
  adminPolls: { response: AdminPollList },
  createPoll: { body: CreatePollInput, response: AdminPollView },
  updatePoll: { body: UpdatePollInput, response: AdminPollView },
  setPollStatus: { body: PollStatusInput, response: AdminPollView },
  featurePoll: { response: AdminPollView },
  deletePoll: { response: NoContent },
  adminUsers: { response: AdminUserList },
  updateAdminUser: { body: UpdateAdminUserInput, response: AdminUserRow },
  adjustUserPoints: { body: AdjustPointsInput, response: AdjustPointsResult },
  adminUserStats: { response: AdminUserStats },
  suspendUser: { response: AdminUserRow },
  unsuspendUser: { response: AdminUserRow },
  adminReport: { response: Report },
  recomputeReports: { response: RecomputeAccepted },
  latestAbuseScan: { response: LatestAbuseScan },
  startAbuseScan: { response: AbuseScanView },
  abuseVotes: { response: AbuseVoteList },
  voidVotes: { body: VoidVotesInput, response: VoidResult },
  restoreVotes: { body: RestoreVotesInput, response: VoidResult },
  adminAudit: { response: AuditPage },
  adminAuditFilters: { response: AuditFilters },
  adminQueues: { response: QueueHealthList },
  retryJob: { response: RetriedJob },
} satisfies Record<EndpointName, { body?: TSchema; response: TSchema }>;

export type Endpoints = typeof ENDPOINTS;
