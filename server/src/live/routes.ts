import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { LIVE_CLOSE_CODES, LiveClientMessage, type ServerMessage } from '@tribuna/contracts/live';
import { CROSS_SITE_MESSAGE, isOwnOrigin } from '../http/csrf.ts';
import { errorResponses, forbidden } from '../http/errors.ts';
import type { HubSocket } from './hub.ts';

/** The part of a ws socket this route uses, besides what the live hub uses. */
interface Socket extends HubSocket {
  on(event: 'message', listener: (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => void): unknown;
  on(event: 'ping' | 'pong' | 'close' | 'error', listener: () => void): unknown;
}

const OPEN = 1;

export function sendMessage(socket: Pick<Socket, 'readyState' | 'send'>, message: ServerMessage): void {
  if (socket.readyState === OPEN) socket.send(JSON.stringify(message));
}

const clientMessage = TypeCompiler.Compile(LiveClientMessage);

/**
 * Parses a client frame against the contract (LiveClientMessage); anything else is null and
 * ignored (it still spent the socket's budget). The topic itself is checked by the hub, which
 * answers a malformed one with `invalid-message`.
 */
export function parseClientMessage(data: unknown, isBinary: boolean): LiveClientMessage | null {
  if (isBinary) return null;
  let parsed: unknown;
  try {
    const text = Buffer.isBuffer(data) ? data.toString('utf8') : Array.isArray(data) ? Buffer.concat(data).toString('utf8') : String(data);
    parsed = JSON.parse(text);
  } catch {
    return null; // not JSON: ignored
  }
  return clientMessage.Check(parsed) ? parsed : null;
}

/**
 * The live channel: greets, answers pings, and subscribes the socket to topics (`poll:{id}`, `feed`,
 * …; the hub of the live plugin checks access with the topic's handler and does the fan-out). The upgrade request went through the same hooks as any
 * other (the session cookie is resolved into request.user); a browser page of another site may not
 * open a socket with our cookie. Visitors may watch results too. Connections are capped per client
 * address and per instance (closed at once with tryAgainLater beyond), and every frame a socket
 * sends spends its budget (LiveHub.admit).
 */
const liveRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const refuseForeignOrigin = async (request: FastifyRequest) => {
    const origin = request.headers.origin;
    if (origin !== undefined && !isOwnOrigin(origin, app.config.publicUrl)) throw forbidden(CROSS_SITE_MESSAGE);
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
    const viewer = hub.attach(
      socket,
      request.user
        ? { id: request.user.id, role: request.user.role, level: request.user.level, isSuspended: request.user.isSuspended, sessionId: request.authSession?.id }
        : null,
    );
    sendMessage(socket, { type: 'hello', serverTime: new Date().toISOString(), userId: viewer.userId });
    socket.on('message', (data, isBinary) => {
      if (viewer.closed) return;
      hub.touch(viewer);
      const message = parseClientMessage(data, isBinary);
      if (!hub.admit(viewer, message?.type === 'subscribe' ? message.topic : undefined)) return;
      switch (message?.type) {
        case 'ping':
          hub.reply(viewer, { type: 'pong', serverTime: new Date().toISOString() });
          return;
        case 'subscribe':
          void hub.subscribe(viewer, message.topic);
          return;
        case 'unsubscribe':
          hub.unsubscribe(viewer, message.topic);
          return;
      }
    });
  });
};

export default liveRoutes;
