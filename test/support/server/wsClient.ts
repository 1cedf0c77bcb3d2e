import type { Socket } from 'node:net';
import WebSocket from 'ws';
import type { LiveServerMessage } from '@tribuna/contracts/live';
import type { ServerMessage } from '@tribuna/contracts/live';

export type AnyServerMessage = ServerMessage | LiveServerMessage;

export interface WsTestClient {
  socket: WebSocket;
  /** Every message received so far, in order. */
  messages: AnyServerMessage[];
  send(message: unknown): void;
  /** Resolves with the first message (already received or to come) after index `from` that matches. */
  waitFor<T extends AnyServerMessage = AnyServerMessage>(match: (m: AnyServerMessage) => boolean, options?: { timeoutMs?: number; from?: number }): Promise<T>;
  /** Messages of one type received so far. */
  ofType<K extends AnyServerMessage['type']>(type: K): Extract<AnyServerMessage, { type: K }>[];
  /** The TCP socket under the websocket (pause() it to play a viewer that stops reading). */
  tcp(): Socket;
  /** Resolves with the close code and reason once the socket closed (whoever closed it). */
  closed: Promise<WsClose>;
  close(): Promise<void>;
}

export interface WsClose {
  code: number;
  reason: string;
}

/** Opens a websocket to `url`, resolving once it is open and the server's hello arrived. */
export async function openWs(url: string, headers: Record<string, string> = {}): Promise<WsTestClient> {
  const outcome = await connectWs(url, headers);
  if ('code' in outcome) throw new Error(`closed by the server before hello: ${outcome.code} ${outcome.reason}`);
  return outcome;
}

/**
 * Opens a websocket to `url`: the client once the server's hello arrived, or the close code and
 * reason if the server closed the socket first (a full server accepts the upgrade and closes at once).
 */
export async function connectWs(url: string, headers: Record<string, string> = {}): Promise<WsTestClient | WsClose> {
  const socket = new WebSocket(url, { headers, perMessageDeflate: false });
  const messages: AnyServerMessage[] = [];
  const listeners = new Set<() => void>();
  socket.on('message', (data: Buffer) => {
    messages.push(JSON.parse(data.toString('utf8')) as AnyServerMessage);
    for (const listener of listeners) listener();
  });
  const closed = new Promise<WsClose>((resolve) => socket.once('close', (code, reason) => resolve({ code, reason: reason.toString('utf8') })));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
    socket.once('unexpected-response', (_req, res) => reject(new Error(`unexpected response ${res.statusCode}`)));
  });

  const client: WsTestClient = {
    socket,
    messages,
    send: (message) => socket.send(typeof message === 'string' ? message : JSON.stringify(message)),
    waitFor: <T extends AnyServerMessage>(match: (m: AnyServerMessage) => boolean, { timeoutMs = 5000, from = 0 } = {}) =>
      new Promise<T>((resolve, reject) => {
        let index = from;
        const check = () => {
          for (; index < messages.length; index++) {
            const message = messages[index]!;
            if (match(message)) {
              done();
              resolve(message as T);
              return;
            }
          }
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`no matching message within ${timeoutMs} ms; got ${JSON.stringify(messages.slice(from)).slice(0, 2000)}`));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        check();
      }),
    ofType: <K extends AnyServerMessage['type']>(type: K) => messages.filter((m): m is Extract<AnyServerMessage, { type: K }> => m.type === type),
    tcp: () => (socket as unknown as { _socket: Socket })._socket,
    closed,
    close: () =>
      new Promise<void>((resolve) => {
        if (socket.readyState === WebSocket.CLOSED) return resolve();
        socket.once('close', () => resolve());
        socket.close();
      }),
  };
  // Promise.race handles the hello's timeout if the close wins.
  const first = await Promise.race([client.waitFor((m) => m.type === 'hello').then(() => null), closed]);
  return first ?? client;
}
