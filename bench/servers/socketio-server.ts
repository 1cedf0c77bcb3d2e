// Comparison server: Socket.IO 4 with its Redis adapter, as a team would build the same fan-out
// with it. Viewers join a room per poll; the server subscribes to the benchmark's snapshot channel
// and does io.to(room).emit('results', snapshot) for each one.
import { createServer } from 'node:http';
import { createAdapter } from '@socket.io/redis-adapter';
import { Redis } from 'ioredis';
import { Server } from 'socket.io';
import { readParams, serve } from '../lib/child.ts';

interface Params {
  port: number;
  redisUrl: string;
  redisPrefix: string;
  channel: string;
}

const params = readParams<Params>();
const httpServer = createServer();
const io = new Server(httpServer, {
  transports: ['websocket'],
  perMessageDeflate: false,
  httpCompression: false,
  serveClient: false,
  maxHttpBufferSize: 16 * 1024,
});
const pub = new Redis(params.redisUrl);
const sub = pub.duplicate();
io.adapter(createAdapter(pub, sub, { key: `${params.redisPrefix}:socket.io` }));

const room = (pollId: string) => `poll:${pollId}`;
io.on('connection', (socket) => {
  socket.on('subscribe', (pollId: unknown) => {
    if (typeof pollId !== 'string') return;
    void socket.join(room(pollId));
    socket.emit('subscribed', pollId);
  });
});

const events = new Redis(params.redisUrl);
events.on('message', (_channel: string, message: string) => {
  const snapshot = JSON.parse(message) as { pollId: string };
  io.to(room(snapshot.pollId)).emit('results', snapshot);
});
await events.subscribe(params.channel);
await new Promise<void>((resolve) => httpServer.listen(params.port, '127.0.0.1', resolve));

const shutdown = () => {
  io.close();
  events.disconnect();
  pub.disconnect();
  sub.disconnect();
  process.exit(0);
};
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);

serve({});
