// Comparison server (the ceiling): a bare `ws` server subscribed to the benchmark's snapshot
// channel that sends the ONE buffer it received from Redis, unchanged, to every subscribed socket.
import { Redis } from 'ioredis';
import { WebSocketServer, type WebSocket } from 'ws';
import { readParams, serve } from '../lib/child.ts';

interface Params {
  port: number;
  redisUrl: string;
  channel: string;
}

const params = readParams<Params>();
const rooms = new Map<string, Set<WebSocket>>();
const wss = new WebSocketServer({ host: '127.0.0.1', port: params.port, perMessageDeflate: false, maxPayload: 16 * 1024 });
const SUBSCRIBED = Buffer.from('{"type":"subscribed"}');

wss.on('connection', (ws) => {
  const joined = new Set<string>();
  ws.on('message', (data) => {
    try {
      const message = JSON.parse(data.toString()) as { type?: string; pollId?: unknown };
      if (message.type !== 'subscribe' || typeof message.pollId !== 'string') return;
      let room = rooms.get(message.pollId);
      if (!room) rooms.set(message.pollId, (room = new Set()));
      room.add(ws);
      joined.add(message.pollId);
      ws.send(SUBSCRIBED, { binary: false });
    } catch {
      // ignored
    }
  });
  ws.on('close', () => {
    for (const pollId of joined) rooms.get(pollId)?.delete(ws);
  });
});

const events = new Redis(params.redisUrl);
events.on('messageBuffer', (_channel: Buffer, message: Buffer) => {
  // One parse per snapshot to find its poll; the bytes sent are the ones received.
  const { pollId } = JSON.parse(message.toString('utf8')) as { pollId: string };
  const room = rooms.get(pollId);
  if (!room) return;
  for (const ws of room) if (ws.readyState === 1) ws.send(message, { binary: false });
});
await events.subscribe(params.channel);
await new Promise<void>((resolve) => (wss.address() ? resolve() : wss.once('listening', resolve)));

const shutdown = () => {
  wss.close();
  events.disconnect();
  process.exit(0);
};
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);

serve({});
