// The child side of a load generator: parameters from a JSON file (argv[2]), commands and
// replies over the IPC channel. A child exits when its parent goes away.
import { readFileSync, writeFileSync } from 'node:fs';

type Message = { type: string } & Record<string, unknown>;

export function readParams<T>(): T {
  const file = process.argv[2];
  if (!file) throw new Error('usage: <script> <params.json>');
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}

/** Writes a params file for a child; returns its path. */
export function writeParams(file: string, params: unknown): string {
  writeFileSync(file, JSON.stringify(params));
  return file;
}

export function send(message: Message): void {
  if (process.send) process.send(message);
  else process.stdout.write(`${JSON.stringify(message)}\n`);
}

/**
 * Serves commands from the parent: each handler's answer is sent back as a message; a thrown
 * error becomes `{type:'error'}` and ends the process with code 1.
 */
type Reply = { type: string } | void;

export function serve(handlers: Record<string, (message: Message) => Promise<Reply> | Reply>): void {
  process.on('disconnect', () => process.exit(2));
  process.on('message', (raw) => {
    const message = raw as Message;
    const handler = handlers[message.type];
    if (!handler) {
      send({ type: 'error', message: `unknown command ${message.type}` });
      return;
    }
    Promise.resolve()
      .then(() => handler(message))
      .then((reply) => {
        if (reply) send(reply as Message);
      })
      .catch((err: Error) => {
        send({ type: 'error', message: err.stack ?? err.message });
        setTimeout(() => process.exit(1), 100);
      });
  });
  send({ type: 'ready', pid: process.pid });
}
