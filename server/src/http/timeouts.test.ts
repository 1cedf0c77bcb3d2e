import { connect, type Socket } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { schema } from '@tribuna/drizzle';
import type { Database } from '@tribuna/drizzle/client';
import type { App } from '../app.ts';
import { useListeningTestApp } from '../../../test/support/server/harness.ts';
import { openWs } from '../../../test/support/server/wsClient.ts';

const TIMEOUTS = { requestMs: 500, idleMs: 1500 };

/** A raw TCP client: what it received, and a promise settled when the server closes the socket. */
function rawClient(port: number) {
  const socket: Socket = connect(port, '127.0.0.1');
  let received = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (received += chunk));
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.on('error', () => {});
  const connected = new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  return { socket, connected, closed, received: () => received };
}

describe('HTTP timeouts', () => {
  let app: App;
  let database: Database;
  let port = 0;
  useListeningTestApp({}, (ready) => ({ app, database, port } = ready), { build: () => ({ httpTimeouts: TIMEOUTS }) });

  const pageView = JSON.stringify({ path: '/', referrer: null, sessionId: 'slow_loris_session', deviceType: 'mobile' });
  const headers = (length: number) =>
    [
      'POST /api/page-views HTTP/1.1',
      'Host: 127.0.0.1',
      'Content-Type: application/json',
      'X-Requested-With: tribuna',
      `Content-Length: ${length}`,
      '',
      '',
    ].join('\r\n');

  /**
   * Sends the page view's bytes from `from` on, one every 50 ms, never the last one, until the
   * server closes the connection: how many it had sent by then.
   */
  async function trickleUntilClosed(client: ReturnType<typeof rawClient>, from: number): Promise<number> {
    let sent = from;
    const trickle = setInterval(() => {
      if (sent < pageView.length - 1 && !client.socket.destroyed) client.socket.write(pageView[sent++]!);
    }, 50);
    try {
      await client.closed;
    } finally {
      clearInterval(trickle);
    }
    return sent;
  }

  it('answers 408 and closes the socket of a request whose body never finishes (slow loris)', async () => {
    const client = rawClient(port);
    await client.connected;
    client.socket.write(headers(pageView.length) + pageView.slice(0, 10));
    await client.closed;
    expect(client.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(await database.db.select().from(schema.pageViews)).toHaveLength(0);
  });

  it('answers 408 to a body trickled a byte at a time, however busy the socket looks', async () => {
    const client = rawClient(port);
    await client.connected;
    client.socket.write(headers(pageView.length));
    const sent = await trickleUntilClosed(client, 0);
    expect(client.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(sent).toBeLessThan(pageView.length - 1);
    expect(await database.db.select().from(schema.pageViews)).toHaveLength(0);
  });

  it('serves a body sent in pieces within the deadline', async () => {
    const client = rawClient(port);
    await client.connected;
    client.socket.write(headers(pageView.length) + pageView.slice(0, 10));
    await new Promise((resolve) => setTimeout(resolve, TIMEOUTS.requestMs / 4));
    client.socket.write(pageView.slice(10));
    await vi.waitFor(() => expect(client.received()).toMatch(/^HTTP\/1\.1 204 /));
    client.socket.destroy();
    expect(await database.db.select().from(schema.pageViews)).toHaveLength(1);
  });

  it('closes the connection of a request answered before its body, whose body keeps trickling', async () => {
    const client = rawClient(port);
    await client.connected;
    // No X-Requested-With: refused (403) before the body is read; Node would read the rest for
    // as long as its own request timeout, now above the longest upload deadline.
    client.socket.write(headers(pageView.length).replace('X-Requested-With: tribuna\r\n', '') + pageView.slice(0, 10));
    const sent = await trickleUntilClosed(client, 10);
    expect(client.received()).toMatch(/^HTTP\/1\.1 403 /);
    expect(sent).toBeLessThan(pageView.length - 1);
    expect(await database.db.select().from(schema.pageViews)).toHaveLength(0);
  });

  it('closes a connection that never sends a request', async () => {
    const client = rawClient(port);
    await client.connected;
    await client.closed;
    expect(client.received()).not.toMatch(/^HTTP\/1\.1 2/);
  });

  it('leaves an open websocket alone past both timeouts', async () => {
    const ws = await openWs(`ws://127.0.0.1:${port}/ws`);
    try {
      // Silent for longer than the request and idle timeouts together.
      await new Promise((resolve) => setTimeout(resolve, TIMEOUTS.requestMs + TIMEOUTS.idleMs + 500));
      expect(ws.socket.readyState).toBe(ws.socket.OPEN);
      const from = ws.messages.length;
      ws.send({ type: 'ping' });
      await ws.waitFor((m) => m.type === 'pong', { from });
    } finally {
      await ws.close();
    }
    // A plain request on a fresh connection is still served normally.
    const res = await fetch(`http://127.0.0.1:${port}/api/health`);
    expect(res.status).toBeLessThan(500);
    expect(app.server.listening).toBe(true);
  });
});
