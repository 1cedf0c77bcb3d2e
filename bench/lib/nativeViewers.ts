// The C websocket viewers (bench/load/viewers-native.c): compiled with the system's cc into the
// run's directory and driven over stdin/stdout, one JSON line answering each command line, in order.
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';

/** Where a bench keeps its viewers' sockets: the C client (default) or, with BENCH_VIEWERS_CLIENT=node, JavaScript clients. */
export const viewersClientFromEnv = (): 'native' | 'node' => (process.env.BENCH_VIEWERS_CLIENT === 'node' ? 'node' : 'native');

export interface NativeViewersArgs {
  /** ws://host:port/path?query */
  url: string;
  origin: string;
  viewers: number;
  batchSize: number;
  protocol: 'tribuna' | 'raw' | 'socketio';
  pollId: string;
  /** Count messages only, reconnect dropped viewers, forwarded addresses from 172.16/12 (the soak). */
  soak?: boolean;
}

export class NativeViewersProcess {
  private readonly waiting: ((reply: Record<string, unknown>) => void)[] = [];

  private constructor(private readonly proc: ChildProcessWithoutNullStreams) {
    createInterface({ input: proc.stdout }).on('line', (line) => {
      const reply = JSON.parse(line) as Record<string, unknown>;
      if (reply.type === 'ready') return;
      this.waiting.shift()?.(reply);
    });
    proc.stderr.on('data', (chunk: Buffer) => process.stderr.write(chunk));
    proc.on('exit', (code) => {
      if (code !== 0) for (const wake of this.waiting.splice(0)) wake({ type: 'error', message: `viewers-native exited with ${code}` });
    });
  }

  get pid(): number {
    return this.proc.pid ?? -1;
  }

  /** Compiles the client into `dir` and starts it. */
  static start(dir: string, a: NativeViewersArgs): NativeViewersProcess {
    const binary = path.join(dir, 'viewers-native');
    execFileSync('cc', ['-O2', '-o', binary, path.join(import.meta.dirname, '..', 'load', 'viewers-native.c')], { stdio: 'inherit' });
    const url = new URL(a.url);
    const args = [url.hostname, url.port, `${url.pathname}${url.search}`, a.origin, String(a.viewers), String(a.batchSize), a.protocol, a.pollId];
    if (a.soak) args.push('soak');
    return new NativeViewersProcess(spawn(binary, args, { stdio: ['pipe', 'pipe', 'pipe'] }));
  }

  request(command: string): Promise<Record<string, unknown>> {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.proc.stdin.write(`${command}\n`);
    });
  }
}

/** What a dump holds, in file order: every distinct payload, then each viewer and its records. */
export interface NativeDumpVisitor {
  payload(text: string): void;
  viewer(index: number, flags: { open: boolean; subscribed: boolean; closedEarly: boolean }): void;
  /** A message the viewer received: the index of its payload (in payload order) and when, ms since the epoch. */
  record(viewer: number, payload: number, receivedAtMs: number): void;
}

/** Reads a `dump <file>` of the C client (format at the top of viewers-native.c). */
export function readNativeDump(file: string, visit: NativeDumpVisitor): void {
  const data = readFileSync(file);
  let at = 0;
  const u32 = () => {
    const v = data.readUInt32LE(at);
    at += 4;
    return v;
  };
  for (let i = 0, n = u32(); i < n; i++) {
    const len = u32();
    visit.payload(data.toString('utf8', at, at + len));
    at += len;
  }
  for (let v = 0, count = u32(); v < count; v++) {
    visit.viewer(v, { open: data[at] === 1, subscribed: data[at + 1] === 1, closedEarly: data[at + 2] === 1 });
    at += 3;
    for (let k = 0, records = u32(); k < records; k++) {
      const payload = u32();
      visit.record(v, payload, data.readDoubleLE(at));
      at += 8;
    }
  }
}
