// Live updates: messages on /ws (server ⇄ browser) and the events that carry them between
// processes on the event bus (contracts/src/events.ts). TypeBox schemas, checked where a message enters a process
// (the server's parseClientMessage and pub/sub handler); the web only reads their types.
import { Type, type Static } from '@sinclair/typebox';
import { PollStatus } from './api/pollStatus.ts';

const Id = Type.String({ minLength: 1, maxLength: 64 });

export const LiveOptionTotals = Type.Object({ optionId: Id, totalVotes: Type.Number(), totalPoints: Type.Number() });
export type LiveOptionTotals = Static<typeof LiveOptionTotals>;

/**
 * Coalesced absolute totals of one poll. `seq` increases with every committed vote batch; a client
 * drops a snapshot whose seq is not above the last one it applied. `seq` is increasing, not
 * contiguous: it jumps (to a microsecond clock value) when the totals are rebuilt from PostgreSQL.
 * `committedAt` is the commit time (ms since epoch) of the newest vote the snapshot includes.
 * `options` lists every option of the poll in option order (an option added later may be missing
 * until it gets a vote: its totals are zero).
 */
const PollTopic = Type.String({ pattern: '^poll:', maxLength: 100 });

export const ResultsSnapshot = Type.Object({
  type: Type.Literal('results'),
  /** `poll:{pollId}`, as every message about a topic. */
  topic: PollTopic,
  pollId: Id,
  seq: Type.Number(),
  totalVotes: Type.Number(),
  totalPoints: Type.Number(),
  totalVoters: Type.Number(),
  options: Type.Array(LiveOptionTotals),
  committedAt: Type.Number(),
});
export type ResultsSnapshot = Static<typeof ResultsSnapshot>;

/**
 * One vote row of a committed batch as the server instances pass it on (the `poll.votes` event, never
 * sent to a browser as is): the points feed the totals; `hidden` marks a fan who chose not to be
 * named in voters lists (their name is left empty).
 */
export const VoterChange = Type.Object({
  optionId: Id,
  userId: Id,
  displayName: Type.String(),
  avatarUrl: Type.Union([Type.String(), Type.Null()]),
  /** Points this change adds for the user on the option. */
  points: Type.Number(),
  hidden: Type.Optional(Type.Literal(true)),
});
export type VoterChange = Static<typeof VoterChange>;

const RemovedVoter = Type.Object({ optionId: Id, userId: Id, hidden: Type.Optional(Type.Literal(true)) });

/** A named voter in a live voters message: who, on which option; never their points. */
export const ListedVoter = Type.Object({
  optionId: Id,
  userId: Id,
  displayName: Type.String(),
  avatarUrl: Type.Union([Type.String(), Type.Null()]),
});
export type ListedVoter = Static<typeof ListedVoter>;

/**
 * New named voters (and single-choice votes moved away from an option) since the previous message.
 * Sent to signed-in viewers only, and naming only fans who keep "Mostrar mi nombre en las listas de
 * votantes" on; visitors follow the totals through the snapshots.
 */
export const VotersMessage = Type.Object({
  type: Type.Literal('voters'),
  topic: PollTopic,
  pollId: Id,
  seq: Type.Number(),
  added: Type.Array(ListedVoter),
  removed: Type.Array(Type.Object({ optionId: Id, userId: Id })),
});
export type VotersMessage = Static<typeof VotersMessage>;

/**
 * A poll's voters message (the `changesMessage` of the `poll:{id}` topic) from the pending changes
 * of the `votes` events: hidden fans left out, points dropped. Null when nothing is left to say.
 */
export function votersMessage(pollId: string, added: unknown[], removed: unknown[], seq: number): VotersMessage | null {
  const listed: ListedVoter[] = [];
  for (const change of added as VoterChange[]) {
    if (!change.hidden) listed.push({ optionId: change.optionId, userId: change.userId, displayName: change.displayName, avatarUrl: change.avatarUrl });
  }
  const gone: VotersMessage['removed'] = [];
  for (const change of removed as Static<typeof RemovedVoter>[]) if (!change.hidden) gone.push({ optionId: change.optionId, userId: change.userId });
  if (listed.length === 0 && gone.length === 0) return null;
  return { type: 'voters', topic: `poll:${pollId}`, pollId, seq, added: listed, removed: gone };
}

export const PollStatusMessage = Type.Object({
  type: Type.Literal('poll-status'),
  topic: PollTopic,
  pollId: Id,
  status: PollStatus,
  isFeatured: Type.Boolean(),
});
export type PollStatusMessage = Static<typeof PollStatusMessage>;

/** The daily reset ran: clients refresh their available points. */
export const PointsResetMessage = Type.Object({ type: Type.Literal('points-reset'), day: Type.String({ maxLength: 10 }) });
export type PointsResetMessage = Static<typeof PointsResetMessage>;

export {
  LIVE_CLOSE_CODES,
  LIVE_ERROR_CODES,
  LIVE_TOPIC_FAMILIES,
  parseTopic,
  pollTopic,
  postTopic,
  groupTopic,
  userTopic,
  type LiveErrorCode,
  type LiveTopic,
  type LiveTopicFamily,
} from './liveTopics.ts';
import type { LiveErrorCode } from './liveTopics.ts';
import type { VideoUploadMessage, WallLiveMessage } from './api/wall.ts';
import type { AdminDashboardMessage } from './api/admin/polls.ts';
import type { NotificationsLiveMessage } from './api/notifications.ts';
import type { GroupLiveMessage } from './api/groups.ts';
import type { AbuseScanMessage } from './api/admin/abuse.ts';
import type { ModerationCountMessage } from './api/moderation.ts';

/** A subscribe (or other client message) the server refused, naming its topic when it had one. The socket stays open. */
export interface LiveErrorMessage {
  type: 'error';
  code: LiveErrorCode;
  topic?: string;
}

/**
 * Connection-level messages. `hello.userId`: who the socket was opened as (the session cookie of the
 * upgrade request), null for a visitor; a client that signs in or out reconnects to change it.
 */
export type ServerMessage = { type: 'hello'; serverTime: string; userId?: string | null } | { type: 'pong'; serverTime: string };

/** Every message about a topic names it (`topic`), so the client routes it to the feature that subscribed. */
export type LiveServerMessage =
  | ResultsSnapshot
  | VotersMessage
  | PollStatusMessage
  | PointsResetMessage
  | WallLiveMessage
  | VideoUploadMessage
  | AdminDashboardMessage
  | NotificationsLiveMessage
  | GroupLiveMessage
  | AbuseScanMessage
  | ModerationCountMessage
  | LiveErrorMessage;

/** The longest topic a client may name (`post:` and a uuid fit with room to spare). */
export const LIVE_MAX_TOPIC_LENGTH = 100;
const Topic = Type.String({ minLength: 1, maxLength: LIVE_MAX_TOPIC_LENGTH });

export const LiveClientMessage = Type.Union([
  Type.Object({ type: Type.Literal('subscribe'), topic: Topic }),
  Type.Object({ type: Type.Literal('unsubscribe'), topic: Topic }),
  Type.Object({ type: Type.Literal('ping') }),
]);
export type LiveClientMessage = Static<typeof LiveClientMessage>;

/** How many topics one socket may watch at once; a subscribe beyond it gets `too-many-subscriptions`. */
export const LIVE_MAX_SUBSCRIPTIONS_PER_SOCKET = 24;

/**
 * A committed vote batch of one poll as every server instance hears it (the cluster event
 * `poll.votes`, contracts/src/events.ts): published by the live totals' Lua script, atomically with
 * the seq it carries. Never sent to a browser as is.
 */
export const PollVotesEvent = Type.Object({
  pollId: Id,
  seq: Type.Number(),
  committedAt: Type.Number(),
  added: Type.Array(VoterChange),
  removed: Type.Array(RemovedVoter),
});
export type PollVotesEvent = Static<typeof PollVotesEvent>;

/** The worker's abuse scan moved on (published by the worker; the admin topic shows its progress). */
export const AbuseScanProgress = Type.Object({
  scanId: Id,
  status: Type.Union([Type.Literal('queued'), Type.Literal('running'), Type.Literal('done'), Type.Literal('failed')]),
  progress: Type.Integer({ minimum: 0, maximum: 100 }),
});
export type AbuseScanProgress = Static<typeof AbuseScanProgress>;

/** Redis pub/sub channel names are always prefixed with REDIS_PREFIX. */
export function channelName(prefix: string, channel: string): string {
  return `${prefix}:events:${channel}`;
}

/** Redis keys of the live totals (all under REDIS_PREFIX); rebuildable from PostgreSQL. */
export const liveKeys = {
  totals: (prefix: string, pollId: string) => `${prefix}:poll:${pollId}:totals`,
  voters: (prefix: string, pollId: string) => `${prefix}:poll:${pollId}:voters`,
};

/**
 * The votes of one poll in a committed batch: the rows inserted and the single-choice rows
 * replaced. The polls' live totals turn it into Redis totals, a `poll.votes` event and, on every
 * server instance, snapshots for the viewers.
 */
export interface CommittedVotes {
  pollId: string;
  committedAt: number;
  added: VoterChange[];
  removed: { optionId: string; userId: string; points: number; hidden?: true }[];
}
