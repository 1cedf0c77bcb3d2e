import { connect } from 'node:net';
import type { App } from '../../../../server/src/app-types.ts';
import type { FuzzRequest } from './requestArbitrary.ts';

/** The server's answer to one request, or why there was none. */
export interface Answer {
  status: number | null;
  body: string;
  /** Set when no status came back: the client gave up waiting, or the connection closed first. */
  failure?: string;
}

/** Sends through app.inject (no sockets: fast), giving up after `timeoutMs`. */
export async function sendInjected(app: App, request: FuzzRequest, timeoutMs: number): Promise<Answer> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<Answer>((resolve) => {
    timer = setTimeout(() => resolve({ status: null, body: '', failure: `no answer within ${timeoutMs} ms` }), timeoutMs);
  });
  const answered = app
    .inject({
      method: request.method as 'GET',
      url: request.url,
      headers: request.headers,
      ...(request.body === undefined ? {} : { payload: request.body }),
    })
    .then(
      (res): Answer => ({ status: res.statusCode, body: res.body }),
      (err: Error): Answer => ({ status: null, body: '', failure: `inject failed: ${err.message}` }),
    );
  try {
    return await Promise.race([answered, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Sends over a real TCP connection, byte for byte (Node's HTTP client would refuse or normalise
 * much of what the fuzzer generates), with `Connection: close` so the answer ends with the socket.
 */
export function sendRaw(port: number, request: FuzzRequest, timeoutMs: number, extraHeaders: Record<string, string> = {}): Promise<Answer> {
  const body = request.body === undefined ? undefined : Buffer.from(request.body, 'utf8');
  const headers: Record<string, string> = { host: `127.0.0.1:${port}`, ...request.headers, ...extraHeaders, connection: extraHeaders.connection ?? 'close' };
  if (body) headers['content-length'] = String(body.length);
  const head = [`${request.method} ${request.url} HTTP/1.1`, ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`), '', ''].join('\r\n');

  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let settled = false;
    const socket = connect(port, '127.0.0.1');
    const finish = (answer: Answer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    const parse = (): Answer | null => {
      const text = Buffer.concat(chunks).toString('latin1');
      const match = /^HTTP\/1\.[01] (\d{3})/.exec(text);
      if (!match) return null;
      const split = text.indexOf('\r\n\r\n');
      return { status: Number(match[1]), body: split === -1 ? '' : text.slice(split + 4) };
    };
    const timer = setTimeout(() => finish({ ...(parse() ?? { status: null, body: '' }), failure: `no complete answer within ${timeoutMs} ms` }), timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      // A websocket upgrade keeps the socket open: its status line is the whole answer.
      const answer = parse();
      if (answer?.status === 101) finish(answer);
    });
    socket.on('error', () => {});
    socket.on('close', () => finish(parse() ?? { status: null, body: '', failure: 'connection closed without an answer' }));
    socket.write(Buffer.concat([Buffer.from(head, 'latin1'), body ?? Buffer.alloc(0)]));
  });
}
