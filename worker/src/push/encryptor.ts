import { Worker } from 'node:worker_threads';
import webpush from 'web-push';

// Where a push's payload is encrypted (RFC 8291): inline, or on a thread of lower priority. The
// encryption is most of a push's CPU (a P-256 key agreement per message, ~0.2–0.4 ms here); on a
// machine shared with the server and PostgreSQL, a broadcast to 100,000 devices must take only the
// CPU they leave idle (PUSH_NICENESS, like TRANSCODE_NICENESS for FFmpeg).

export interface EncryptRequest {
  subscription: { endpoint: string; keys: { p256dh: string; auth: string } };
  payload: string;
  options: webpush.RequestOptions;
}

export interface Encrypted {
  headers: Record<string, string | number>;
  body: Buffer | null;
}

export interface Encryptor {
  /** Rejects when the subscription's keys are unusable (not a P-256 point and a 16-byte secret). */
  encrypt(request: EncryptRequest): Promise<Encrypted>;
  close(): Promise<void>;
}

/** Encrypts in the calling thread (PUSH_NICENESS=0: tests, whose run keeps every core busy). */
export const inlineEncryptor: Encryptor = {
  encrypt: async ({ subscription, payload, options }) => {
    const details = webpush.generateRequestDetails(subscription, payload, options);
    return { headers: details.headers as Encrypted['headers'], body: details.body ? Buffer.from(details.body) : null };
  },
  close: async () => {},
};

type Reply = { id: number; headers: Encrypted['headers']; body: Uint8Array | null } | { id: number; error: string };

/**
 * Encrypts on one worker thread running at `niceness` in Linux's idle scheduling class: it gets a
 * core only when nothing else wants it. The thread is unref'd: it never keeps the process alive.
 */
export class ThreadEncryptor implements Encryptor {
  private thread: Worker | null = null;
  private readonly pending = new Map<number, { resolve: (value: Encrypted) => void; reject: (error: Error) => void }>();
  private nextId = 0;

  constructor(private readonly niceness: number) {}

  /** The thread, started on first use and again after it died (what it had in hand is rejected: retried). */
  private current(): Worker {
    if (this.thread) return this.thread;
    const thread = new Worker(new URL('./encryptThread.mjs', import.meta.url), { workerData: { niceness: this.niceness } });
    thread.unref();
    thread.on('message', (message: Reply | { type: 'ready' }) => {
      if (!('id' in message)) return;
      const waiting = this.pending.get(message.id);
      if (!waiting) return;
      this.pending.delete(message.id);
      if ('error' in message) waiting.reject(new Error(message.error));
      else
        waiting.resolve({
          headers: message.headers,
          body: message.body ? Buffer.from(message.body.buffer, message.body.byteOffset, message.body.byteLength) : null,
        });
    });
    const died = (error: Error) => {
      if (this.thread !== thread) return;
      this.thread = null;
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    };
    thread.on('error', died);
    thread.on('exit', (code) => died(new Error(`the push encryption thread exited (${code})`)));
    this.thread = thread;
    return thread;
  }

  encrypt(request: EncryptRequest): Promise<Encrypted> {
    const thread = this.current();
    const id = this.nextId++;
    return new Promise<Encrypted>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      thread.postMessage({ id, ...request });
    });
  }

  async close(): Promise<void> {
    const thread = this.thread;
    this.thread = null;
    if (thread) await thread.terminate();
  }
}
