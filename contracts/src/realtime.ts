// Websocket messages on /ws and domain events carried on Redis pub/sub.
// Filled in by the live-voting issue; kept here so server, worker and web share one definition.

/**
 * `hello.userId`: who the socket was opened as (the session cookie of the upgrade request), null for
 * a visitor; a client that signs in or out reconnects to change it.
 */
export type ServerMessage =
  | { type: 'hello'; serverTime: string; userId?: string | null }
  | { type: 'pong'; serverTime: string };
export type ClientMessage = { type: 'ping' };

/** Redis pub/sub channel names are always prefixed with REDIS_PREFIX. */
export function channelName(prefix: string, channel: string): string {
  return `${prefix}:events:${channel}`;
}
