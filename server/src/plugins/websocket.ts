import fp from 'fastify-plugin';
import websocket from '@fastify/websocket';

/**
 * Websocket support for /ws. Client messages are tiny; anything larger is refused by ws itself.
 * No per-message deflate: the live hub sends one pre-serialized buffer to thousands of sockets, and
 * compressing it per socket would cost CPU and memory per viewer.
 */
export default fp(
  async (app) => {
    await app.register(websocket, { options: { maxPayload: 16 * 1024, perMessageDeflate: false } });
  },
  { name: 'websocket' },
);
