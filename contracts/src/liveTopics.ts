// The live protocol's topics, error and close codes. Dependency-free: the web bundle imports these
// values without pulling in TypeBox (the schemas of the messages are in live.ts).

/**
 * What a socket can watch. A topic's handler (registered on the server by its domain) decides who
 * may subscribe: a visitor may watch polls and the public feed; `user:{id}` only that user;
 * `admin` only an administrator.
 *  - `poll:{pollId}`: results snapshots, voters and status changes of one poll;
 *  - `feed`: the public wall (new posts, counters);
 *  - `post:{postId}`: one post's comments and reactions;
 *  - `group:{groupId}`: new posts on a group's wall (its readers: a public group, members, admins);
 *  - `user:{userId}`: that user's notifications;
 *  - `admin`: the back-office dashboard.
 */
export type LiveTopic = `poll:${string}` | 'feed' | `post:${string}` | `group:${string}` | `user:${string}` | 'admin';

/** Topic families: `family` alone or `family:key`. The server refuses to start without a handler for each. */
export const LIVE_TOPIC_FAMILIES = ['poll', 'feed', 'post', 'group', 'user', 'admin', 'moderation'] as const;
export type LiveTopicFamily = (typeof LIVE_TOPIC_FAMILIES)[number];

export const pollTopic = (pollId: string): `poll:${string}` => `poll:${pollId}`;
export const postTopic = (postId: string): `post:${string}` => `post:${postId}`;
export const groupTopic = (groupId: string): `group:${string}` => `group:${groupId}`;
export const userTopic = (userId: string): `user:${string}` => `user:${userId}`;

/** A topic string split into its family and key (null key: a family-wide topic such as `feed`); null if malformed. */
export function parseTopic(topic: string): { family: LiveTopicFamily; key: string | null } | null {
  const at = topic.indexOf(':');
  const family = at === -1 ? topic : topic.slice(0, at);
  if (!(LIVE_TOPIC_FAMILIES as readonly string[]).includes(family)) return null;
  const key = at === -1 ? null : topic.slice(at + 1);
  if (key === '') return null;
  return { family: family as LiveTopicFamily, key };
}

/**
 * Why a client message was refused; the socket stays open. `not-found`: no such topic (or a poll
 * nobody may watch yet); `forbidden`: the topic exists but not for this socket's user.
 * `rate-limited`: the socket spent its message budget (every frame counts); it comes once, and a
 * socket that keeps sending is closed with LIVE_CLOSE_CODES.policyViolation.
 */
export const LIVE_ERROR_CODES = ['invalid-message', 'not-found', 'forbidden', 'too-many-subscriptions', 'rate-limited', 'unavailable'] as const;
export type LiveErrorCode = (typeof LIVE_ERROR_CODES)[number];

/**
 * Close codes the server uses on /ws (RFC 6455 §7.4.1). A browser sees the close code but never the
 * HTTP status of a refused upgrade, so a full server accepts the upgrade and closes at once with
 * tryAgainLater. After policyViolation or tryAgainLater the client waits far longer than after a drop.
 */
export const LIVE_CLOSE_CODES = {
  /** Kept sending after its message budget ran out. */
  policyViolation: 1008,
  /** Sent a frame larger than the server accepts. */
  messageTooBig: 1009,
  /**
   * The server is shutting down (a deploy, a scale-in): reconnect with the usual short, jittered
   * backoff; the load balancer sends the new socket to another instance.
   */
  serviceRestart: 1012,
  /** Too many connections from this address, or on this server: try again later. */
  tryAgainLater: 1013,
  /**
   * The session the socket was opened with ended (signed out, account deleted) or the user's role
   * or suspension changed: reconnect at once, as whatever the cookie says now.
   */
  sessionChanged: 4001,
} as const;
