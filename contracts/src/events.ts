// Domain events heard by every server instance: published after commit on one instance and carried
// to the others through Redis pub/sub (channel `${prefix}:events:bus`). Each payload is checked
// against its schema where it enters a process; a malformed one is dropped and logged.
import { Type, type Static } from '@sinclair/typebox';
import { PollStatus } from './api/pollStatus.ts';
import { WallLiveEvent } from './api/wall.ts';
import { NotificationsChanged } from './api/notifications.ts';

/** A poll's status, featured flag or options changed (an admin edit): caches drop it, viewers are told. */
export const PollChanged = Type.Object({
  pollId: Type.String({ minLength: 1, maxLength: 64 }),
  status: PollStatus,
  isFeatured: Type.Boolean(),
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
} as const;

export type ClusterEventName = keyof typeof CLUSTER_EVENTS;
export type ClusterEvents = { [N in ClusterEventName]: Static<(typeof CLUSTER_EVENTS)[N]> };

export const BUS_CHANNEL = 'bus';

/** What travels on the bus channel. `origin` is the publishing instance, which has already delivered it locally. */
export const BusEnvelope = Type.Object({
  name: Type.String({ maxLength: 100 }),
  origin: Type.String({ maxLength: 100 }),
  payload: Type.Unknown(),
});
export type BusEnvelope = Static<typeof BusEnvelope>;
