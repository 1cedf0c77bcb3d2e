import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ClientMessage, ServerMessage } from '@tribuna/contracts/realtime';

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

/** Skeleton of the live channel: greets and answers pings. Subscriptions arrive with live voting. */
const realtimeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/ws', { websocket: true, schema: { hide: true } }, (socket: Socket) => {
    sendMessage(socket, { type: 'hello', serverTime: new Date().toISOString() });
    socket.on('message', (data, isBinary) => {
      const message = parseClientMessage(data, isBinary);
      if (message?.type === 'ping') sendMessage(socket, { type: 'pong', serverTime: new Date().toISOString() });
    });
  });
};

export default realtimeRoutes;
