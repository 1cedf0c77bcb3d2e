import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import type { HubSocket } from './channels.ts';
import { sendFramed, textFrame } from './frames.ts';

describe('pre-framed text messages', () => {
  let server: WebSocketServer | null = null;
  afterEach(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = null;
  });

  it('uses the 7-bit, 16-bit and 64-bit payload lengths of RFC 6455', () => {
    expect([...textFrame(Buffer.from('hola')).subarray(0, 2)]).toEqual([0x81, 4]);
    const medium = textFrame(Buffer.alloc(300, 'a'));
    expect([...medium.subarray(0, 4)]).toEqual([0x81, 126, 1, 44]);
    expect(medium.length).toBe(304);
    const large = textFrame(Buffer.alloc(70_000, 'a'));
    expect([large[0], large[1]]).toEqual([0x81, 127]);
    expect(large.readBigUInt64BE(2)).toBe(70_000n);
    expect(large.length).toBe(70_010);
  });

  it('reaches a real client as the same text messages, in order, through the socket underneath', async () => {
    server = new WebSocketServer({ port: 0, perMessageDeflate: false });
    await new Promise<void>((resolve) => server!.once('listening', () => resolve()));
    const { port } = server.address() as { port: number };
    const payloads = ['{"a":1}', 'x'.repeat(300), JSON.stringify({ big: 'ñ'.repeat(40_000) })].map((s) => Buffer.from(s));
    let usedSend = 0;
    server.on('connection', (socket) => {
      const original = socket.send.bind(socket);
      socket.send = ((...args: Parameters<typeof original>) => {
        usedSend++;
        return original(...args);
      }) as typeof socket.send;
      for (const payload of payloads) sendFramed(socket as unknown as HubSocket, payload, textFrame(payload));
    });
    const client = new WebSocket(`ws://127.0.0.1:${port}`, { perMessageDeflate: false });
    const received: { text: string; binary: boolean }[] = [];
    await new Promise<void>((resolve, reject) => {
      client.on('message', (data, isBinary) => {
        received.push({ text: data.toString(), binary: isBinary });
        if (received.length === payloads.length) resolve();
      });
      client.on('error', reject);
    });
    client.close();
    expect(received).toEqual(payloads.map((p) => ({ text: p.toString(), binary: false })));
    expect(usedSend).toBe(0);
  });

  it('falls back to send() on a socket without a TCP stream (a fake), and skips one that is not open', () => {
    const sent: (Buffer | string)[] = [];
    const fake = (readyState: number): HubSocket => ({
      readyState,
      bufferedAmount: 0,
      send: (data) => void sent.push(data),
      ping: () => {},
      close: () => {},
      terminate: () => {},
      on: () => undefined,
    });
    const payload = Buffer.from('{"type":"results"}');
    sendFramed(fake(1), payload, textFrame(payload));
    sendFramed(fake(3), payload, textFrame(payload));
    expect(sent).toEqual([payload]);
  });
});
