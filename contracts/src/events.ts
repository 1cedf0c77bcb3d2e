// Domain events heard by every server instance: the one event system of the cluster. A server
// instance publishes after commit (delivered to its own subscribers at once, to the others through
// Redis pub/sub, channel `${prefix}:events:bus`); the worker and the live totals' Lua script
// publish on the same channel with `encodeBusMessage`. Each payload is checked against its schema
// where it enters a process; a malformed one is dropped and logged.
import { Type, type Static } from '@sinclair/typebox';
import { PollStatus } from './api/pollStatus.ts';
import { VideoUploadEvent, WallLiveEvent } from './api/wall.ts';
import { NotificationsChanged } from './api/notifications.ts';
import { Uuid } from './api/common.ts';
import { GroupAccessEvent, GroupLiveEvent } from './api/groups.ts';
import { AbuseScanProgress, PollVotesEvent, channelName } from './live.ts';

/** A poll's status, featured flag or options changed (an admin edit): caches drop it, viewers are told. */
export const PollChanged = Type.Object({
  pollId: Type.String({ minLength: 1, maxLength: 64 }),
  status: PollStatus,
  isFeatured: Type.Boolean(),
});

/**
 * A mute or block began or ended (issue 29) between the people named (the one who acted first):
 * every instance forgets what it knew of whether they mute or block anybody (server/src/safety),
 * and after a new block drops their subscriptions to each other's posts.
 */
export const SafetyChanged = Type.Object({
  userIds: Type.Array(Uuid, { minItems: 1, maxItems: 2 }),
  /** A block began: the live subscriptions between the two are asked again. */
  blocked: Type.Boolean(),
});

/** The cluster-wide events and their payload schemas. Local-only events are declared by the server's domains. */
export const CLUSTER_EVENTS = {
  'poll.changed': PollChanged,
  /**
   * A wall change for the viewers of a topic (`feed`, `post:{id}`), published after commit: a message
   * as it is sent, or a reaction change each instance paces into count snapshots (server/src/wall/live.ts).
   */
  'wall.live': WallLiveEvent,
  /**
   * A user's notifications changed: every instance where that user watches `user:{id}` reads the
   * badge count and tells those sockets (server/src/notifications/live.ts).
   */
  'notifications.changed': NotificationsChanged,
  /** A group's message for the viewers of its topic (`group:{id}`, or `user:{id}` of its staff): a new post, the pending requests. */
  'group.live': GroupLiveEvent,
  /** Who may read a group changed: every instance drops the subscriptions that lost access, then tells the fans (server/src/groups/live.ts). */
  'group.access': GroupAccessEvent,
  /** A clip was transcoded (a server publishes its post, once) or failed (its author is told): the worker's. */
  'wall.video': VideoUploadEvent,
  /** A committed vote batch (Lua script of the live totals): every instance sends the poll's viewers a snapshot. */
  'poll.votes': PollVotesEvent,
  /** 00:00 SHOW_TIMEZONE (the worker): connected clients refresh their available points. */
  'points.reset': Type.Object({ day: Type.String({ maxLength: 10 }) }),
  /** The worker's abuse scan moved on: the admins watching the back-office see its progress. */
  'abuse.scan-progress': AbuseScanProgress,
  /**
   * A report arrived or a moderation action closed some (issue 29): every instance whose staff
   * watch the `moderation` topic reads the open count again (server/src/moderation/plugin.ts).
   */
  'moderation.changed': Type.Object({}),
  /** A mute or block began or ended (server/src/safety): each instance forgets its flags of the two, and a block's live subscriptions go. */
  'safety.changed': SafetyChanged,
} as const;

export type ClusterEventName = keyof typeof CLUSTER_EVENTS;
export type ClusterEvents = { [N in ClusterEventName]: Static<(typeof CLUSTER_EVENTS)[N]> };

export const BUS_CHANNEL = 'bus';

/** The bus channel of a deployment (REDIS_PREFIX). */
export const busChannel = (prefix: string) => channelName(prefix, BUS_CHANNEL);

/** Publishers that are not a server instance: every server delivers their events. */
export const BUS_ORIGINS = { worker: 'worker', liveTotals: 'live-totals' } as const;

/** What travels on the bus channel. `origin` is the publishing instance, which has already delivered it locally. */
export const BusEnvelope = Type.Object({
  name: Type.String({ maxLength: 100 }),
  origin: Type.String({ maxLength: 100 }),
  payload: Type.Unknown(),
});
export type BusEnvelope = Static<typeof BusEnvelope>;

/** A bus message as a process other than a server instance publishes it (the worker). */
export function encodeBusMessage<N extends ClusterEventName>(name: N, payload: ClusterEvents[N], origin: string): string {
  const envelope: BusEnvelope = { name, origin, payload };
  return JSON.stringify(envelope);
}
