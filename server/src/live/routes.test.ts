import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerMessage } from '@tribuna/contracts/live';
import { testConfig } from '../../../test/support/env.ts';
import { buildApp, type App } from '../app.ts';

/** The `ws` client (installed with @fastify/websocket; it ships no type declarations). */
interface WsClient {
  on(event: 'message', listener: (data: Buffer) => void): void;
  on(event: 'open' | 'close', listener: () => void): void;
  on(event: 'error', listener: (err: Error) => void): void;
  on(event: 'unexpected-response', listener: (req: unknown, res: { statusCode: number }) => void): void;
  send(data: string): void;
  close(): void;
}
const { WebSocket } = createRequire(import.meta.url)('ws') as { WebSocket: new (url: string) => WsClient };

/** Connects and collects every message; `next()` resolves with the next one. */
function connect(url: string) {
  const socket = new WebSocket(url);
  const queue: ServerMessage[] = [];
  const waiters: ((m: ServerMessage) => void)[] = [];
  socket.on('message', (data) => {
    const message = JSON.parse(data.toString('utf8')) as ServerMessage;
    const waiter = waiters.shift();
    if (waiter) waiter(message);
    else queue.push(message);
  });
  const opened = new Promise<void>((resolve, reject) => {
    socket.on('open', resolve);
    socket.on('error', reject);
  });
  const next = () =>
    new Promise<ServerMessage>((resolve) => {
      const queued = queue.shift();
      if (queued) resolve(queued);
      else waiters.push(resolve);
    });
  return { socket, opened, next };
}

describe('websocket /ws', () => {
  let app: App;
  let baseUrl: string;

  beforeAll(async () => {
    app = await buildApp(testConfig());
    await app.listen({ host: '127.0.0.1', port: 0 });
    baseUrl = `ws://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await app.close();
  });

  it('greets a new connection with hello and the server time, and answers ping with pong', async () => {
    const client = connect(`${baseUrl}/ws`);
    await client.opened;
    const hello = await client.next();
    expect(hello.type).toBe('hello');
    expect(Math.abs(Date.parse(hello.serverTime) - Date.now())).toBeLessThan(60_000);

    client.socket.send('not json');
    client.socket.send(JSON.stringify({ type: 'ping' }));
    const pong = await client.next();
    expect(pong.type).toBe('pong');
    client.socket.close();
  });

  it('is closed by the server when the app shuts down', async () => {
    const other = await buildApp(testConfig());
    await other.listen({ host: '127.0.0.1', port: 0 });
    const client = connect(`ws://127.0.0.1:${(other.server.address() as AddressInfo).port}/ws`);
    await client.opened;
    const closed = new Promise<void>((resolve) => client.socket.on('close', resolve));
    await other.close();
    await closed;
  });
});
