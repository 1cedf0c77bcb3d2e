import { createServer, Agent, request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { connectionDrainer } from './drain.ts';

describe('connectionDrainer', () => {
  it('closes a keep-alive connection after the answer to its request in flight, so server.close() completes', async () => {
    let answer!: () => void;
    const released = new Promise<void>((resolve) => (answer = resolve));
    let received!: () => void;
    const arrived = new Promise<void>((resolve) => (received = resolve));
    const server = createServer({ keepAliveTimeout: 120_000 }, (_req, res) => {
      received();
      void released.then(() => res.end('ok'));
    });
    const drainer = connectionDrainer(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const agent = new Agent({ keepAlive: true });
    try {
      const response = new Promise<IncomingMessage>((resolve, reject) => {
        request({ port: (server.address() as AddressInfo).port, host: '127.0.0.1', agent }, resolve)
          .on('error', reject)
          .end();
      });
      await arrived;

      drainer.start();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      answer();
      const res = await response;
      res.resume();
      expect(res.statusCode).toBe(200);
      expect(res.headers.connection).toBe('close');
      // Without the drain the connection would stay open for keepAliveTimeout (2 minutes).
      await closed;
      expect(server.listening).toBe(false);
    } finally {
      agent.destroy();
      server.closeAllConnections();
    }
  });

  it('answers requests that arrive on an open connection while draining with Connection: close', async () => {
    const server = createServer({ keepAliveTimeout: 120_000 }, (_req, res) => res.end('ok'));
    const drainer = connectionDrainer(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      drainer.start();
      const res = await new Promise<IncomingMessage>((resolve, reject) => {
        request({ port: (server.address() as AddressInfo).port, host: '127.0.0.1', agent: new Agent({ keepAlive: true }) }, resolve)
          .on('error', reject)
          .end();
      });
      res.resume();
      expect(res.headers.connection).toBe('close');
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
