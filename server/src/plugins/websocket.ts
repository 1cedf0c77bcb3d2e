import fp from 'fastify-plugin';
import websocket from '@fastify/websocket';
import { LIVE_CLOSE_CODES } from '@tribuna/contracts/liveTopics';

/** Client messages are tiny JSON objects; ws closes a socket sending a larger frame with 1009 (message too big). */
export const MAX_CLIENT_FRAME_BYTES = 4 * 1024;

/**
 * Websocket support for /ws. No per-message deflate: the live hub sends one pre-serialized buffer
 * to thousands of sockets, and compressing it per socket would cost CPU and memory per viewer.
 */
export default fp(
  async (app) => {
    // On shutdown, before @fastify/websocket's own preClose (hooks run in the order added) closes
    // every socket without a code: tell the clients it is a restart, so they reconnect at once
    // (to another instance) instead of reading a bare 1005.
    app.addHook('preClose', async () => {
      for (const client of app.websocketServer.clients) client.close(LIVE_CLOSE_CODES.serviceRestart, 'server restarting');
    });
    await app.register(websocket, {
      options: { maxPayload: MAX_CLIENT_FRAME_BYTES, perMessageDeflate: false },
      errorHandler: (error, socket, request) => {
        // A client's protocol error (an oversized frame, invalid UTF-8…): ws is already closing the
        // socket with the matching code, which the client should see, and any client can cause it.
        const { code } = error as NodeJS.ErrnoException;
        if (code?.startsWith('WS_ERR_')) {
          request.log.debug({ err: error }, 'websocket closed for a protocol error');
          return;
        }
        request.log.error({ err: error }, 'websocket handler failed');
        socket.terminate();
      },
    });
  },
  { name: 'websocket' },
);
