import fp from 'fastify-plugin';
import websocket from '@fastify/websocket';

/** Websocket support for /ws. Client messages are tiny; anything larger is refused by ws itself. */
export default fp(
  async (app) => {
    await app.register(websocket, { options: { maxPayload: 16 * 1024 } });
  },
  { name: 'websocket' },
);
