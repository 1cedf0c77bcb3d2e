// The HTTP endpoints the web app calls: method, path and success status. Dependency-free (the web
// bundle reads it); their schemas are in endpoints.ts under the same names, and a server test
// (server/src/endpoints.test.ts) holds both to the server's own route table.

export const ENDPOINT_ROUTES = {
  authSession: { method: 'GET', path: '/api/auth/session', status: 200 },
  logout: { method: 'POST', path: '/auth/logout', status: 204 },
  devUsers: { method: 'GET', path: '/api/auth/dev/users', status: 200 },
  devLogin: { method: 'POST', path: '/api/auth/dev/login', status: 200 },
  listFactors: { method: 'GET', path: '/api/auth/factors', status: 200 },
  enrolFactor: { method: 'POST', path: '/api/auth/factors', status: 200 },
  factorChallenge: { method: 'POST', path: '/api/auth/factors/:id/challenge', status: 200 },
  verifyFactor: { method: 'POST', path: '/api/auth/factors/:id/verify', status: 200 },
  deleteFactor: { method: 'DELETE', path: '/api/auth/factors/:id', status: 204 },
  homePoll: { method: 'GET', path: '/api/polls/home', status: 200 },
  pollResults: { method: 'GET', path: '/api/polls/:pollId/results', status: 200 },
  castVote: { method: 'POST', path: '/api/polls/:pollId/votes', status: 201 },
  myVotes: { method: 'GET', path: '/api/polls/:pollId/my-votes', status: 200 },
  availablePoints: { method: 'GET', path: '/api/polls/:pollId/available-points', status: 200 },
  share: { method: 'POST', path: '/api/polls/:pollId/shares', status: 201 },
  site: { method: 'GET', path: '/api/site', status: 200 },
  pageView: { method: 'POST', path: '/api/page-views', status: 204 },
  feed: { method: 'GET', path: '/api/posts', status: 200 },
  getPost: { method: 'GET', path: '/api/posts/:postId', status: 200 },
  createPost: { method: 'POST', path: '/api/posts', status: 201 },
  editPost: { method: 'PATCH', path: '/api/posts/:postId', status: 200 },
  deletePost: { method: 'DELETE', path: '/api/posts/:postId', status: 204 },
  reactToPost: { method: 'POST', path: '/api/posts/:postId/reactions', status: 200 },
  listComments: { method: 'GET', path: '/api/posts/:postId/comments', status: 200 },
  createComment: { method: 'POST', path: '/api/posts/:postId/comments', status: 201 },
  editComment: { method: 'PATCH', path: '/api/comments/:commentId', status: 200 },
  deleteComment: { method: 'DELETE', path: '/api/comments/:commentId', status: 200 },
  reactToComment: { method: 'POST', path: '/api/comments/:commentId/reactions', status: 200 },
  me: { method: 'GET', path: '/api/me', status: 200 },
  updateProfile: { method: 'PATCH', path: '/api/me', status: 200 },
  deleteAccount: { method: 'DELETE', path: '/api/me', status: 204 },
  uploadAvatar: { method: 'POST', path: '/api/me/avatar', status: 201 },
  uploadBanner: { method: 'POST', path: '/api/me/banner', status: 201 },
  profile: { method: 'GET', path: '/api/profiles/:userId', status: 200 },
  profileStats: { method: 'GET', path: '/api/profiles/:userId/stats', status: 200 },
  profileVotes: { method: 'GET', path: '/api/profiles/:userId/votes', status: 200 },
  profileComments: { method: 'GET', path: '/api/profiles/:userId/comments', status: 200 },
  profileGroups: { method: 'GET', path: '/api/profiles/:userId/groups', status: 200 },
  notifications: { method: 'GET', path: '/api/notifications', status: 200 },
  unreadNotifications: { method: 'GET', path: '/api/notifications/unread', status: 200 },
  markNotificationsRead: { method: 'POST', path: '/api/notifications/read', status: 200 },
  adminDashboard: { method: 'GET', path: '/api/admin/dashboard', status: 200 },
  adminRealities: { method: 'GET', path: '/api/admin/realities', status: 200 },
  createReality: { method: 'POST', path: '/api/admin/realities', status: 201 },
  updateReality: { method: 'PATCH', path: '/api/admin/realities/:realityId', status: 200 },
  deleteReality: { method: 'DELETE', path: '/api/admin/realities/:realityId', status: 204 },
  adminSeasons: { method: 'GET', path: '/api/admin/seasons', status: 200 },
  createSeason: { method: 'POST', path: '/api/admin/seasons', status: 201 },
  updateSeason: { method: 'PATCH', path: '/api/admin/seasons/:seasonId', status: 200 },
  deleteSeason: { method: 'DELETE', path: '/api/admin/seasons/:seasonId', status: 204 },
  adminContestants: { method: 'GET', path: '/api/admin/contestants', status: 200 },
  createContestant: { method: 'POST', path: '/api/admin/contestants', status: 201 },
  updateContestant: { method: 'PATCH', path: '/api/admin/contestants/:contestantId', status: 200 },
  deleteContestant: { method: 'DELETE', path: '/api/admin/contestants/:contestantId', status: 204 },
  uploadContestantPhoto: { method: 'POST', path: '/api/admin/contestant-photos', status: 201 },
  adminPolls: { method: 'GET', path: '/api/admin/polls', status: 200 },
  createPoll: { method: 'POST', path: '/api/admin/polls', status: 201 },
  updatePoll: { method: 'PUT', path: '/api/admin/polls/:pollId', status: 200 },
  setPollStatus: { method: 'POST', path: '/api/admin/polls/:pollId/status', status: 200 },
  featurePoll: { method: 'POST', path: '/api/admin/polls/:pollId/feature', status: 200 },
  deletePoll: { method: 'DELETE', path: '/api/admin/polls/:pollId', status: 204 },
} as const satisfies Record<string, { method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'; path: string; status: number }>;

export type EndpointName = keyof typeof ENDPOINT_ROUTES;

/** `{ pollId: string }` for '/api/polls/:pollId/votes'. */
export type PathParams<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? { [K in Name]: string } & PathParams<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? { [K in Name]: string }
    : Record<never, never>;
