import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { ClientMessage, ServerMessage } from '@tribuna/contracts/realtime';
import { CROSS_SITE_MESSAGE, isOwnOrigin } from '../http/csrf.ts';
import { forbidden } from '../http/errors.ts';
import type { AuthUser } from '../plugins/auth.ts';

/** The part of a ws socket this skeleton uses (ws ships no type declarations here). */
interface Socket {
  readonly readyState: number;
  send(data: string): void;
  on(event: 'message', listener: (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => void): void;
}

const OPEN = 1;

export function sendMessage(socket: Socket, message: ServerMessage): void {
  if (socket.readyState === OPEN) socket.send(JSON.stringify(message));
}

/** Parses a client frame; anything that is not a known message is ignored. */
export function parseClientMessage(data: unknown, isBinary: boolean): ClientMessage | null {
  if (isBinary) return null;
  try {
    const text = Buffer.isBuffer(data) ? data.toString('utf8') : Array.isArray(data) ? Buffer.concat(data).toString('utf8') : String(data);
    const parsed = JSON.parse(text) as { type?: unknown };
    if (parsed && parsed.type === 'ping') return { type: 'ping' };
  } catch {
    // not JSON: ignored
  }
  return null;
}

/** One open socket and who opened it (null: a visitor). The user is fixed for the socket's life. */
export interface Connection {
  socket: Socket;
  user: AuthUser | null;
}

/**
 * Skeleton of the live channel: greets and answers pings. Subscriptions arrive with live voting.
 * The upgrade request went through the same hooks as any other (the session cookie is resolved
 * into request.user); a browser page of another site may not open a socket with our cookie.
 */
const realtimeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const refuseForeignOrigin = async (request: FastifyRequest) => {
    const origin = request.headers.origin;
    if (origin !== undefined && !isOwnOrigin(origin, request, app.config.publicUrl)) throw forbidden(CROSS_SITE_MESSAGE);
  };

  app.get('/ws', { websocket: true, schema: { hide: true }, onRequest: refuseForeignOrigin }, (socket: Socket, request) => {
    const connection: Connection = { socket, user: request.user };
    sendMessage(socket, { type: 'hello', serverTime: new Date().toISOString(), userId: connection.user?.id ?? null });
    socket.on('message', (data, isBinary) => {
      const message = parseClientMessage(data, isBinary);
      if (message?.type === 'ping') sendMessage(socket, { type: 'pong', serverTime: new Date().toISOString() });
    });
  });
};

export default realtimeRoutes;
