// A fixed pool of pre-opened keep-alive HTTP/1.1 connections for the open-loop drivers, the way
// wrk2 drives an open loop: every connection is open (and has answered once) before the schedule
// starts, a request due while every connection is busy waits in this process's FIFO queue (its
// latency is still counted from its due time), and each request is one pre-built buffer written
// to a socket with a minimal response parser. Node's http.Agent costs several times more CPU per
// request and opens its sockets during the run, which made the driver itself part of what it
// measured on a 2-core machine.
import net from 'node:net';

export type OnResponse = (status: number, body: Buffer, error?: Error) => void;

interface Pending {
  request: Buffer;
  onResponse: OnResponse;
}

const CRLF2 = Buffer.from('\r\n\r\n');

/** Serialises one request (HTTP/1.1, keep-alive). */
export function buildRequest(host: string, method: string, path: string, headers: Record<string, string>, body?: string): Buffer {
  let head = `${method} ${path} HTTP/1.1\r\nhost: ${host}\r\nconnection: keep-alive\r\n`;
  for (const [name, value] of Object.entries(headers)) head += `${name}: ${value}\r\n`;
  if (body !== undefined) head += `content-length: ${Buffer.byteLength(body)}\r\n`;
  return Buffer.from(`${head}\r\n${body ?? ''}`);
}

class Connection {
  private socket!: net.Socket;
  private buffer: Buffer = Buffer.alloc(0);
  private current: Pending | null = null;
  closed = false;

  constructor(
    private readonly pool: KeepAlivePool,
    private readonly host: string,
    private readonly port: number,
  ) {}

  connect(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.closed = false;
      this.buffer = Buffer.alloc(0);
      const socket = net.connect({ host: this.host, port: this.port, noDelay: true });
      this.socket = socket;
      socket.once('connect', () => resolve());
      socket.once('error', reject);
      socket.on('data', (chunk: Buffer) => this.onData(chunk));
      socket.on('close', () => {
        this.closed = true;
        const current = this.current;
        this.current = null;
        if (current) current.onResponse(0, Buffer.alloc(0), new Error('connection closed'));
        this.pool.onClosed(this);
      });
      socket.on('error', () => undefined);
    });
  }

  get busy(): boolean {
    return this.current !== null;
  }

  send(pending: Pending): void {
    this.current = pending;
    this.socket.write(pending.request);
  }

  destroy(): void {
    this.socket.destroy();
  }

  private onData(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const parsed = parseResponse(this.buffer);
      if (!parsed) return;
      this.buffer = this.buffer.subarray(parsed.consumed);
      const current = this.current;
      this.current = null;
      if (parsed.close) this.socket.end();
      if (current) current.onResponse(parsed.status, parsed.body);
      if (!parsed.close) this.pool.onIdle(this);
      if (this.buffer.length === 0) return;
    }
  }
}

/** Parses one complete response at the start of `buf` (content-length or chunked); null if incomplete. */
export function parseResponse(buf: Buffer): { status: number; body: Buffer; consumed: number; close: boolean } | null {
  const headEnd = buf.indexOf(CRLF2);
  if (headEnd < 0) return null;
  const head = buf.toString('latin1', 0, headEnd);
  const status = Number(head.slice(9, 12));
  const lower = head.toLowerCase();
  const close = /\r\nconnection:\s*close/.test(lower);
  const start = headEnd + 4;
  const lengthMatch = /\r\ncontent-length:\s*(\d+)/.exec(lower);
  if (lengthMatch) {
    const end = start + Number(lengthMatch[1]);
    if (buf.length < end) return null;
    return { status, body: buf.subarray(start, end), consumed: end, close };
  }
  if (/\r\ntransfer-encoding:\s*chunked/.test(lower)) {
    const parts: Buffer[] = [];
    let at = start;
    for (;;) {
      const lineEnd = buf.indexOf('\r\n', at);
      if (lineEnd < 0) return null;
      const size = parseInt(buf.toString('latin1', at, lineEnd), 16);
      const dataStart = lineEnd + 2;
      if (size === 0) {
        // No trailers from our server: the last chunk is followed by one empty line.
        if (buf.length < dataStart + 2) return null;
        return { status, body: Buffer.concat(parts), consumed: dataStart + 2, close };
      }
      if (buf.length < dataStart + size + 2) return null;
      parts.push(buf.subarray(dataStart, dataStart + size));
      at = dataStart + size + 2;
    }
  }
  // 204/304 or a response without a body.
  return { status, body: Buffer.alloc(0), consumed: start, close };
}

export class KeepAlivePool {
  private readonly connections: Connection[] = [];
  private readonly idle: Connection[] = [];
  private readonly queue: Pending[] = [];
  private queueHead = 0;
  private stopped = false;
  /** Requests queued or on the wire. */
  outstanding = 0;
  maxQueued = 0;
  reconnects = 0;

  constructor(
    private readonly host: string,
    private readonly port: number,
    private readonly size: number,
  ) {}

  /** Opens every connection; `warm` (if given) is sent once on each, so the server has seen them all. */
  async open(warm?: Buffer): Promise<void> {
    for (let i = 0; i < this.size; i++) this.connections.push(new Connection(this, this.host, this.port));
    await Promise.all(this.connections.map((c) => c.connect()));
    this.idle.push(...this.connections);
    if (warm) await Promise.all(this.connections.map(() => new Promise<void>((resolve) => this.request(warm, () => resolve()))));
  }

  request(request: Buffer, onResponse: OnResponse): void {
    this.outstanding++;
    const pending: Pending = {
      request,
      onResponse: (status, body, error) => {
        this.outstanding--;
        onResponse(status, body, error);
      },
    };
    const conn = this.idle.pop();
    if (conn) conn.send(pending);
    else {
      this.queue.push(pending);
      const queued = this.queue.length - this.queueHead;
      if (queued > this.maxQueued) this.maxQueued = queued;
    }
  }

  onIdle(conn: Connection): void {
    if (this.queueHead < this.queue.length) {
      const next = this.queue[this.queueHead]!;
      this.queue[this.queueHead++] = undefined as unknown as Pending;
      if (this.queueHead > 4096 && this.queueHead * 2 > this.queue.length) {
        this.queue.splice(0, this.queueHead);
        this.queueHead = 0;
      }
      conn.send(next);
    } else this.idle.push(conn);
  }

  onClosed(conn: Connection): void {
    const at = this.idle.indexOf(conn);
    if (at >= 0) this.idle.splice(at, 1);
    if (this.stopped || this.reconnects >= this.size * 20) return;
    // The server closed a keep-alive connection: open it again (counted) and go on with the queue.
    this.reconnects++;
    conn.connect().then(
      () => this.onIdle(conn),
      () => undefined,
    );
  }

  close(): void {
    this.stopped = true;
    for (const c of this.connections) c.destroy();
  }
}
