import { Type, type Static } from '@sinclair/typebox';
import { IsoDate, Uuid } from './common.ts';
import { defineRoutes } from '../route.ts';

import { PollStatus } from './pollStatus.ts';

export { POLL_STATUSES, PollStatus } from './pollStatus.ts';

export const Contestant = Type.Object({
  id: Uuid,
  fullName: Type.String(),
  photoUrl: Type.Union([Type.String(), Type.Null()]),
});

/**
 * A fan named in an option's voters list: who, never how many points (a list per option already
 * says what they chose; the points they spread stay theirs). Only signed-in readers get names, and
 * only of fans who keep "Mostrar mi nombre en las listas de votantes" on.
 */
export const Voter = Type.Object({
  userId: Uuid,
  displayName: Type.String(),
  avatarUrl: Type.Union([Type.String(), Type.Null()]),
});
export type Voter = Static<typeof Voter>;

export const OptionResult = Type.Object({
  optionId: Uuid,
  totalVotes: Type.Integer(),
  totalPoints: Type.Integer(),
  /** Fans who voted for the option, named or not ('y N más' is totalVoters less the names listed). */
  totalVoters: Type.Integer({ minimum: 0 }),
  /**
   * The newest named voters (VOTERS_PER_OPTION at most). Empty for a signed-out reader (see
   * `votersListed`), and never naming a fan who chose not to be listed.
   */
  voters: Type.Array(Voter),
});
export type OptionResult = Static<typeof OptionResult>;

export const PollOption = Type.Object({
  id: Uuid,
  text: Type.Union([Type.String(), Type.Null()]),
  order: Type.Integer(),
  contestant: Type.Union([Contestant, Type.Null()]),
});
export type PollOption = Static<typeof PollOption>;

export const Poll = Type.Object({
  id: Uuid,
  title: Type.String(),
  description: Type.Union([Type.String(), Type.Null()]),
  /** Effective status: an active poll whose end date has passed is reported as closed. */
  status: PollStatus,
  isFeatured: Type.Boolean(),
  startDate: Type.Union([IsoDate, Type.Null()]),
  endDate: Type.Union([IsoDate, Type.Null()]),
  createdAt: IsoDate,
  showResults: Type.Boolean(),
  season: Type.Object({
    id: Uuid,
    number: Type.Integer(),
    year: Type.Integer(),
    reality: Type.Object({ id: Uuid, name: Type.String() }),
  }),
  pointsConfig: Type.Object({
    pointsPerVote: Type.Integer(),
    maxPointsPerUser: Type.Integer(),
    dailyReset: Type.Boolean(),
    bonusForSharing: Type.Integer(),
  }),
  options: Type.Array(PollOption),
});
export type Poll = Static<typeof Poll>;

export const PollResults = Type.Object({
  pollId: Uuid,
  totalVotes: Type.Integer(),
  totalPoints: Type.Integer(),
  totalVoters: Type.Integer(),
  options: Type.Array(OptionResult),
  /** Whether the reader may see who voted (signed in): false, every `voters` list is empty (counts only). */
  votersListed: Type.Boolean(),
  /** Votes an admin voided after review (out of every figure above): 'N votos anulados'. */
  voidedVotes: Type.Optional(Type.Integer({ minimum: 0 })),
  /**
   * The live `seq` these results include at least (read before the totals): a client resyncing over
   * HTTP drops live snapshots whose seq is not above it. Absent when the live totals are unavailable.
   */
  seq: Type.Optional(Type.Integer({ minimum: 0 })),
});
export type PollResults = Static<typeof PollResults>;

/** GET /api/polls/home: the featured poll, else the newest active one, else null. */
export const HomePollResponse = Type.Object({
  poll: Type.Union([Poll, Type.Null()]),
  results: Type.Union([PollResults, Type.Null()]),
});
export type HomePollResponse = Static<typeof HomePollResponse>;

/** GET /api/polls: active and closed polls, featured first, then newest first. */
export const PollListResponse = Type.Object({ polls: Type.Array(Poll) });
export type PollListResponse = Static<typeof PollListResponse>;

/** `:pollId` of every /api/polls/:pollId… route (polls, votes, shares). */
export const PollParams = Type.Object({ pollId: Uuid });
export type PollParams = Static<typeof PollParams>;

/**
 * GET /api/polls/home?encuesta=<pollId>: a shared link (`/?encuesta=<id>`) shows the shared poll
 * when it is public. Anything else (unknown id, draft, not an id at all) falls back to the usual
 * home poll rather than failing the page.
 */
export const HomePollQuery = Type.Object({
  // Repeated (`?encuesta=a&encuesta=b`) it arrives as a list: the first one counts.
  encuesta: Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())])),
});
export type HomePollQuery = Static<typeof HomePollQuery>;

/** `v`: the results version in a shared link's og:image (lets chat apps fetch a newer card); ignored by the server. */
export const PollCardQuery = Type.Object({ v: Type.Optional(Type.String({ maxLength: 40, pattern: '^[0-9A-Za-z.-]*$' })) });

/** A PNG image (binary body, content-type image/png). */
export const PollCardImage = Type.Unknown({ description: 'image/png, 1200×630' });

export const POLL_ROUTES = defineRoutes({
  homePoll: {
    method: 'GET',
    path: '/api/polls/home',
    status: 200,
    tags: ['polls'],
    summary: 'The poll shown on the home page (or the shared one, ?encuesta=<id>) with its results',
    querystring: HomePollQuery,
    response: HomePollResponse,
    errors: [429],
    rateLimit: 'polls.read',
  },
  listPolls: {
    method: 'GET',
    path: '/api/polls',
    status: 200,
    tags: ['polls'],
    summary: 'Active and closed polls, featured first, then newest first',
    response: PollListResponse,
    errors: [429],
    rateLimit: 'polls.read',
  },
  getPoll: {
    method: 'GET',
    path: '/api/polls/:pollId',
    status: 200,
    tags: ['polls'],
    summary: 'One public poll',
    params: PollParams,
    response: Poll,
    errors: [400, 404, 429],
    rateLimit: 'polls.read',
  },
  pollResults: {
    method: 'GET',
    path: '/api/polls/:pollId/results',
    status: 200,
    tags: ['polls'],
    summary: 'Totals per option and, for signed-in readers, the latest voters named in each option (no points)',
    params: PollParams,
    response: PollResults,
    errors: [400, 403, 404, 429],
    rateLimit: 'polls.results',
  },
  pollCard: {
    method: 'GET',
    path: '/api/polls/:pollId/card.png',
    status: 200,
    tags: ['polls'],
    summary: "The poll's share card: a 1200×630 PNG of its current results (og:image of a shared poll)",
    description: 'Redrawn at most every 30 s per poll when the results moved; served from memory otherwise.',
    params: PollParams,
    querystring: PollCardQuery,
    response: PollCardImage,
    errors: [400, 404, 429],
    rateLimit: 'og.preview',
  },
});
