import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { LiveClientMessage } from '@tribuna/contracts/live';
import { LIVE_CLOSE_CODES } from '@tribuna/contracts/live';
import type { ClientMessage, ServerMessage } from '@tribuna/contracts/live';
import { CROSS_SITE_MESSAGE, isOwnOrigin } from '../http/csrf.ts';
import { errorResponses, forbidden } from '../http/errors.ts';
import type { HubSocket } from '../live/hub.ts';

/** The part of a ws socket this route uses, besides what the live hub uses. */
interface Socket extends HubSocket {
  on(event: 'message', listener: (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => void): unknown;
  on(event: 'ping' | 'pong' | 'close' | 'error', listener: () => void): unknown;
}

const OPEN = 1;

export function sendMessage(socket: Pick<Socket, 'readyState' | 'send'>, message: ServerMessage): void {
  if (socket.readyState === OPEN) socket.send(JSON.stringify(message));
}

/** Parses a client frame; anything that is not a known message is ignored (null). */
export function parseClientMessage(data: unknown, isBinary: boolean): ClientMessage | LiveClientMessage | null {
  if (isBinary) return null;
  try {
    const text = Buffer.isBuffer(data) ? data.toString('utf8') : Array.isArray(data) ? Buffer.concat(data).toString('utf8') : String(data);
    const parsed = JSON.parse(text) as { type?: unknown; pollId?: unknown };
    if (!parsed || typeof parsed !== 'object') return null;
    if (parsed.type === 'ping') return { type: 'ping' };
    // The poll id is validated by the hub, which answers an invalid one with an error message.
    if (parsed.type === 'subscribe' || parsed.type === 'unsubscribe') return { type: parsed.type, pollId: parsed.pollId as string };
  } catch {
    // not JSON: ignored
  }
  return null;
}

/**
 * The live channel: greets, answers pings, and subscribes the socket to polls' live results (the
 * hub of the live plugin does the fan-out). The upgrade request went through the same hooks as any
 * other (the session cookie is resolved into request.user); a browser page of another site may not
 * open a socket with our cookie. Visitors may watch results too. Connections are capped per client
 * address and per instance (closed at once with tryAgainLater beyond), and every frame a socket
 * sends spends its budget (LiveHub.admit).
 */
const realtimeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const refuseForeignOrigin = async (request: FastifyRequest) => {
    const origin = request.headers.origin;
    if (origin !== undefined && !isOwnOrigin(origin, request, app.config.publicUrl)) throw forbidden(CROSS_SITE_MESSAGE);
  };

  const options = {
    websocket: true,
    schema: { hide: true, response: errorResponses(403, 429) },
    config: { rateLimit: 'live.connect' },
    onRequest: refuseForeignOrigin,
  } as const;
  app.get('/ws', options, (socket: Socket, request) => {
    const { hub, connections } = app.live;
    const address = request.ip;
    const refusal = connections.acquire(address);
    if (refusal) {
      socket.close(LIVE_CLOSE_CODES.tryAgainLater, refusal === 'address' ? 'too many connections from this address' : 'server full');
      return;
    }
    // Emitted once on every path (client close, error, terminate, keep-alive timeout).
    socket.on('close', () => connections.release(address));
    const viewer = hub.attach(socket, request.user?.id ?? null);
    sendMessage(socket, { type: 'hello', serverTime: new Date().toISOString(), userId: viewer.userId });
    socket.on('message', (data, isBinary) => {
      if (viewer.closed) return;
      hub.touch(viewer);
      const message = parseClientMessage(data, isBinary);
      if (!hub.admit(viewer, message?.type === 'subscribe' ? message.pollId : undefined)) return;
      switch (message?.type) {
        case 'ping':
          hub.reply(viewer, { type: 'pong', serverTime: new Date().toISOString() });
          return;
        case 'subscribe':
          void hub.subscribe(viewer, message.pollId);
          return;
        case 'unsubscribe':
          hub.unsubscribe(viewer, message.pollId);
          return;
      }
    });
  });
};

export default realtimeRoutes;
