// The push encryption thread (worker/src/push/encryptor.ts): RFC 8291 aes128gcm with `web-push`, one
// message per request. Its first act is to lower its own priority (Linux: niceness and the idle
// scheduling class of this thread only), so a broadcast's P-256 key agreements, most of a push's
// CPU, use only what the server and PostgreSQL leave idle on a shared machine.
import { execFileSync } from 'node:child_process';
import { existsSync, readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import webpush from 'web-push';

const niceness = Number(workerData?.niceness ?? 0);
let lowered = false;
if (niceness > 0) {
  try {
    // '/proc/thread-self' names this thread's task: <pid>/task/<tid>.
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    setPriority(tid, niceness);
    const chrt = ['/usr/bin/chrt', '/bin/chrt'].find((path) => existsSync(path));
    if (chrt) execFileSync(chrt, ['--idle', '-p', '0', String(tid)], { stdio: 'ignore' });
    lowered = true;
  } catch {
    // Not Linux, or no chrt: the thread runs at its niceness, or at normal priority.
  }
}
parentPort.postMessage({ type: 'ready', lowered });

parentPort.on('message', (message) => {
  try {
    const details = webpush.generateRequestDetails(message.subscription, message.payload, message.options);
    parentPort.postMessage({ id: message.id, headers: details.headers, body: details.body });
  } catch (error) {
    parentPort.postMessage({ id: message.id, error: error instanceof Error ? error.message : String(error) });
  }
});
